"""Creating a character, on SQLite or PostgreSQL.

A new sheet writes the character's row and, in the same transaction, every trait of its
system (35 for Mundo de Tinieblas, 51 for 3d6 + NdP), its pools and its health: the
writes whose version bumps campaigns/versions.py makes. Times `character_create` (the
service the creation form calls) for each system, in the database DATABASE_URL names (a
throw-away SQLite file when unset). The figures are printed and written to bench/results/.

Run: .venv/bin/python bench/create.py [--rounds 15]
     scripts/with-postgres.sh .venv/bin/python bench/create.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="characters per system")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        from bench.data import results_heading, start_django, write_results

        start_django(Path(folder), "create.sqlite3")
        from django.contrib.auth.models import User

        from campaigns.models import Membership, Role
        from campaigns.services import campaign_create
        from characters.services import character_create
        from mechanics.systems.registry import all_systems

        lines = [
            *results_heading("bench/create.py"),
            f"{'system':<12} {'traits':>6} {'median ms':>10} {'min ms':>7}",
        ]
        print("\n".join(lines), flush=True)
        gm = User.objects.create(username="bench-gm")
        player = User.objects.create(username="bench-player")
        for system in all_systems():
            campaign = campaign_create(
                user=gm, name=f"Banco {system.key}", description="", system=system.key,
                house_rules={}, options={"max_characters_per_player": args.rounds},
            )  # fmt: skip
            Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
            spent = []
            for number in range(args.rounds):
                started = time.perf_counter()
                character = character_create(
                    campaign=campaign, user=player, owner=player, name=f"Ficha {number}"
                )
                spent.append(time.perf_counter() - started)
            line = (
                f"{system.key:<12} {character.traits.count():>6} "
                f"{statistics.median(spent) * 1000:>10.1f} {min(spent) * 1000:>7.1f}"
            )
            print(line, flush=True)
            lines.append(line)
        write_results(lines, "create")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
