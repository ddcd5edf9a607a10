"""`python -m mechanics.rules {odds,roll,health} hitos ...`."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from mechanics.rules.dice import RandomSource, default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.hitos.catalogue import DRUG_KINDS_BY_KEY, DURATIONS
from mechanics.rules.hitos.health import (
    HitosHealth,
    apply_damage,
    heal,
    take_drug,
    time_to_full,
)
from mechanics.rules.hitos.odds import odds
from mechanics.rules.hitos.rolls import roll_attack, roll_check, spec_for_bonus


class _Parser(argparse.ArgumentParser):
    """Argument errors become RuleError, which the dispatcher prints."""

    def error(self, message: str):
        raise RuleError(gettext_noop("invalid arguments: %(message)s"), message=message)


def _check_parser(prog: str) -> _Parser:
    parser = _Parser(prog=prog, add_help=False)
    parser.add_argument("--bonus", type=int, required=True, help="characteristic + skill")
    parser.add_argument("--difficulty", type=int, required=True)
    parser.add_argument("--equal-succeeds", action="store_true")
    parser.add_argument(
        "--shift", type=int, choices=(-1, 0, 1), default=0, help="-1 keep m, 0 keep C, 1 keep M"
    )
    return parser


def _rng(seed: int | None) -> RandomSource:
    return default_rng() if seed is None else random.Random(seed)


def odds_command(argv: list[str]) -> dict:
    args = _check_parser("odds hitos").parse_args(argv)
    spec = spec_for_bonus(args.bonus, args.difficulty, args.shift, args.equal_succeeds)
    return {"spec": spec.to_dict(), **odds(spec).to_dict()}


def roll_command(argv: list[str]) -> dict:
    parser = _check_parser("roll hitos")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--weapon", help='attack with this damage category, e.g. "C+1"')
    parser.add_argument("--damage-bonus", type=int, default=0)
    parser.add_argument("--rd", type=int, action="append", default=[])
    parser.add_argument("--damage-shift", type=int, default=0)
    args = parser.parse_args(argv)
    spec = spec_for_bonus(args.bonus, args.difficulty, args.shift, args.equal_succeeds)
    rng = _rng(args.seed)
    if args.weapon is None:
        return roll_check(spec, rng).to_dict()
    return roll_attack(
        spec,
        args.weapon,
        damage_bonus=args.damage_bonus,
        target_rd=args.rd,
        damage_shift=args.damage_shift,
        rng=rng,
    ).to_dict()


def health_command(argv: list[str]) -> dict:
    parser = _Parser(prog="health hitos", add_help=False)
    parser.add_argument("--aguante", type=int, required=True)
    parser.add_argument("--lost", type=int, default=0)
    parser.add_argument("--apply", type=int, action="append", default=[], help="damage taken")
    parser.add_argument("--critical", choices=DURATIONS)
    parser.add_argument("--drug", choices=tuple(DRUG_KINDS_BY_KEY))
    parser.add_argument("--heal", type=float, default=0, help="hours passed after the damage")
    parser.add_argument("--rest-fraction", type=float, default=1.0)
    parser.add_argument("--equal-succeeds", action="store_true")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    rng = _rng(args.seed)
    health = HitosHealth(args.aguante, args.lost)
    tests = []
    for damage in args.apply:
        health, record = apply_damage(
            health, damage, rng, critical=args.critical, equal_succeeds=args.equal_succeeds
        )
        if record is not None:
            tests.append(record.to_dict())
    if args.drug:
        health = take_drug(health, args.drug)
    if args.heal:
        health = heal(health, args.heal, args.rest_fraction)
    remaining = time_to_full(health)
    return {
        "health": health.to_dict(),
        "state": health.state.name,
        "penalty": health.penalty,
        "can_act": health.can_act,
        "resistencia": health.resistencia,
        "resistencia_max": health.resistencia_max,
        "temporary_aspects": list(health.temporary_aspects),
        "time_to_full_hours": None if remaining is None else float(remaining),
        "massive_damage_tests": tests,
    }


COMMANDS: dict[str, Callable[[list[str]], dict]] = {
    "odds": odds_command,
    "roll": roll_command,
    "health": health_command,
}
