"""Command line for GMs checking numbers: `python -m mechanics.rules COMMAND SYSTEM ...`.

Each system package has a `cli` module with `COMMANDS`, a mapping from command name
to a function that takes the remaining arguments and returns a JSON-able dict.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from mechanics.rules import SYSTEMS
from mechanics.rules.errors import RuleError

COMMANDS = ("odds", "roll", "health", "xp-cost")


def _format_human(data: dict, indent: str = "") -> str:
    lines = []
    for key, value in data.items():
        if isinstance(value, dict) and value and len(value) <= 40:
            lines.append(f"{indent}{key}:")
            lines.append(_format_human(value, indent + "  "))
        elif isinstance(value, float):
            lines.append(f"{indent}{key}: {value:.6f}")
        else:
            lines.append(f"{indent}{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mechanics.rules", description=__doc__)
    parser.add_argument("command", choices=COMMANDS)
    parser.add_argument("system", choices=SYSTEMS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(f"mechanics.rules.{args.system}.cli")
    handler = module.COMMANDS.get(args.command)
    if handler is None:
        parser.error(f"{args.command} is not available for {args.system}")
    try:
        data = handler(rest)
    except RuleError as error:
        if args.json:
            print(json.dumps({"error": str(error)}, ensure_ascii=False))
        else:
            print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(_format_human(data))
    return 0
