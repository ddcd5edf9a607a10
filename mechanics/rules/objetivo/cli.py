"""CLI commands for Dado objetivo: `python -m mechanics.rules {odds,roll} objetivo ...`.

odds: --bonus N --difficulty D [--shift {-1,0,1}] [--attribute-roll]
roll: the same (difficulty optional) plus --seed N (a seeded generator, for repeatable rolls).
For an attribute roll `--bonus` is the total added to the die (2 × attribute + modifiers).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from mechanics.rules.dice import default_rng
from mechanics.rules.objetivo.odds import odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec, roll_check


def _parser(command: str, difficulty_required: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m mechanics.rules {command} objetivo")
    parser.add_argument("--bonus", type=int, required=True, help="added to the target die")
    parser.add_argument("--difficulty", type=int, required=difficulty_required)
    parser.add_argument("--shift", type=int, choices=(-1, 0, 1), default=0)
    parser.add_argument("--attribute-roll", action="store_true")
    return parser


def _spec(args: argparse.Namespace) -> ObjetivoSpec:
    return ObjetivoSpec(
        bonus=args.bonus,
        difficulty=args.difficulty,
        shift=args.shift,
        attribute_roll=args.attribute_roll,
    )


def odds_command(argv: list[str]) -> dict:
    spec = _spec(_parser("odds", True).parse_args(argv))
    return {"spec": spec.to_dict(), **odds(spec).to_dict()}


def roll_command(argv: list[str]) -> dict:
    parser = _parser("roll", False)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    spec = _spec(args)
    rng = random.Random(args.seed) if args.seed is not None else default_rng()
    return roll_check(spec, rng).to_dict()


COMMANDS: dict[str, Callable[[list[str]], dict]] = {
    "odds": odds_command,
    "roll": roll_command,
}
