"""CLI commands for tinieblas: `python -m mechanics.rules COMMAND tinieblas [--json] ...`.

odds    --pool N [--again {10,9,8,none}] [--rote]     (N ≤ 0: chance die)
roll    --pool N [--again ...] [--rote] [--seed N]
health  [--boxes N] [--apply 2B 1L 3A ...] [--heal HOURS]
xp-cost --trait {attribute,skill,specialty,merit,morality,willpower} --current N
        [--merit-key KEY]
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable

from mechanics.rules.dice import default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.tinieblas import health as hp
from mechanics.rules.tinieblas.advancement import xp_cost
from mechanics.rules.tinieblas.odds import odds_for_pool
from mechanics.rules.tinieblas.rolls import roll_dice

XP_TRAITS = ("attribute", "skill", "specialty", "merit", "morality", "willpower")
DAMAGE_TOKEN = re.compile(r"^(\d+)([BLA])$", re.IGNORECASE)


def _parser(command: str) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog=f"python -m mechanics.rules {command} tinieblas")


def _again(value: str) -> int | None:
    if value.lower() == "none":
        return None
    if value in {"10", "9", "8"}:
        return int(value)
    raise argparse.ArgumentTypeError("choose 10, 9, 8 or none")


def _pool_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pool", type=int, required=True, help="dice; 0 or less: chance die")
    parser.add_argument("--again", type=_again, default=10, help="10, 9, 8 or none")
    parser.add_argument("--rote", action="store_true")


def odds_command(argv: list[str]) -> dict:
    parser = _parser("odds")
    _pool_options(parser)
    args = parser.parse_args(argv)
    result = odds_for_pool(args.pool, args.again, args.rote)
    chance = args.pool <= 0
    return {
        "pool": args.pool,
        "chance_die": chance,
        "again": 10 if chance else args.again,
        "rote": False if chance else args.rote,
        **result.to_dict(),
    }


def roll_command(argv: list[str]) -> dict:
    parser = _parser("roll")
    _pool_options(parser)
    parser.add_argument("--seed", type=int, default=None, help="repeatable roll for checking")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed) if args.seed is not None else default_rng()
    return roll_dice(args.pool, args.again, args.rote, rng).to_dict()


def _damage(token: str) -> tuple[str, int]:
    match = DAMAGE_TOKEN.match(token)
    if not match:
        raise RuleError(gettext_noop("damage must look like 2B, 1L or 3A"))
    return match.group(2).upper(), int(match.group(1))


def health_command(argv: list[str]) -> dict:
    parser = _parser("health")
    parser.add_argument("--boxes", type=int, default=hp.DEFAULT_BOXES)
    parser.add_argument("--apply", nargs="*", default=[], metavar="DAMAGE", help="e.g. 2B 1L 3A")
    parser.add_argument("--heal", type=int, default=None, metavar="HOURS", help="rest afterwards")
    args = parser.parse_args(argv)
    track = hp.HealthTrack(boxes=args.boxes)
    for token in args.apply:
        kind, levels = _damage(token)
        track = hp.apply(track, kind, levels)
    if args.heal is not None:
        track = hp.heal(track, args.heal)
    return {
        "track": hp.render(track),
        "state": hp.state_name(track),
        "unconscious": hp.unconscious(track),
        "dead": hp.dead(track),
        "penalty": hp.penalty(track),
        "cannot_act": hp.cannot_act(track),
        "heal_time": hp.heal_time(track),
    }


def xp_cost_command(argv: list[str]) -> dict:
    parser = _parser("xp-cost")
    parser.add_argument("--trait", choices=XP_TRAITS, required=True)
    parser.add_argument("--current", type=int, required=True, help="rating before buying")
    parser.add_argument("--merit-key", default=None)
    args = parser.parse_args(argv)
    return {"cost": xp_cost(args.trait, args.current, merit_key=args.merit_key)}


COMMANDS: dict[str, Callable[[list[str]], dict]] = {
    "odds": odds_command,
    "roll": roll_command,
    "health": health_command,
    "xp-cost": xp_cost_command,
}
