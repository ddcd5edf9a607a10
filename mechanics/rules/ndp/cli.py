"""CLI commands for 3d6 + NdP.

python -m mechanics.rules odds ndp --level 4 --adversity 12 [--dice 4] [--gracias 1]
python -m mechanics.rules roll ndp --level 4 --adversity 12 --seed 7
"""

from __future__ import annotations

import argparse
import random

from mechanics.rules.dice import default_rng
from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.ndp.odds import odds, p_progress
from mechanics.rules.ndp.rolls import NdpSpec, dp, roll_check


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would exit; the dispatcher prints RuleError
        raise RuleError(gettext_noop("invalid arguments: %(message)s"), message=message)


def _parser(prog: str, with_seed: bool) -> _Parser:
    parser = _Parser(prog=prog, add_help=False)
    parser.add_argument("--level", type=int, required=True, help="NdP of the skill")
    parser.add_argument("--adversity", type=int, default=None)
    parser.add_argument("--opposed", type=int, default=None, help="opposing total")
    parser.add_argument("--defender", action="store_true", help="this roll wins ties")
    parser.add_argument("--dice", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--gracias", type=int, default=0)
    parser.add_argument("--desgracias", type=int, default=0)
    parser.add_argument("--bonus", type=int, default=0, help="NdP from equipment")
    parser.add_argument("--skill", default="", help="skill key, e.g. percibir")
    if with_seed:
        parser.add_argument("--seed", type=int, default=None)
    return parser


def _spec(args: argparse.Namespace) -> NdpSpec:
    return NdpSpec(
        level=args.level,
        dice=args.dice,
        gracias=args.gracias,
        desgracias=args.desgracias,
        adversity=args.adversity,
        opposed_total=args.opposed,
        defender=args.defender,
        bonus=args.bonus,
        skill=args.skill,
    )


def odds_command(argv: list[str]) -> dict:
    spec = _spec(_parser("odds ndp", with_seed=False).parse_args(argv))
    result = odds(spec).to_dict()
    result["p_progress"] = p_progress(spec)
    result["dp"] = dp(spec.level)
    result["spec"] = spec.to_dict()
    return result


def roll_command(argv: list[str]) -> dict:
    args = _parser("roll ndp", with_seed=True).parse_args(argv)
    spec = _spec(args)
    rng = default_rng() if args.seed is None else random.Random(args.seed)
    return roll_check(spec, rng).to_dict()


COMMANDS = {"odds": odds_command, "roll": roll_command}
