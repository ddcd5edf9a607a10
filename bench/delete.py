"""Deleting a big campaign, on SQLite or PostgreSQL.

A GM deletes a campaign in one request: its rolls, XP entries, health events, diaries and
scenes go in the same transaction. Builds campaigns of growing size (bench/data.py, in
the database DATABASE_URL names, a throw-away SQLite file when unset) and times
`Campaign.delete()` on each, so a cost that grows faster than the rows shows. The
figures are printed and written to bench/results/.

Run: .venv/bin/python bench/delete.py [--rolls 2000,10000,40000]
     scripts/with-postgres.sh .venv/bin/python bench/delete.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", default="2000,10000,40000", help="rolls of each campaign")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        from bench.data import (
            Sizes,
            build_big_campaign,
            results_heading,
            start_django,
            write_results,
        )

        start_django(Path(folder), "delete.sqlite3")

        lines = [
            *results_heading("bench/delete.py"),
            f"{'rolls':>7} {'XP':>6} {'health':>6} {'diaries':>7} {'built s':>8} {'deleted s':>10}",
        ]
        print("\n".join(lines), flush=True)
        for number, rolls in enumerate(int(n) for n in args.rolls.split(",")):
            # The other rows in the big campaign's proportions to its rolls.
            sizes = Sizes(
                characters=20, scenes=100, diaries=rolls // 15, rolls=rolls,
                xp_entries=rolls // 5, health_events=rolls // 20,
            )  # fmt: skip
            started = time.perf_counter()
            big = build_big_campaign(sizes, name=f"Borrable {number}", seed=number + 1)
            built = time.perf_counter() - started
            started = time.perf_counter()
            big.campaign.delete()
            deleted = time.perf_counter() - started
            line = (
                f"{rolls:>7} {sizes.xp_entries:>6} {sizes.health_events:>6} "
                f"{sizes.diaries:>7} {built:>8.1f} {deleted:>10.1f}"
            )
            print(line, flush=True)
            lines.append(line)
        write_results(lines, "delete")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
