"""An open roll panel at the table: what its live reload costs right after another
player's roll, for the systems whose panel reads the fight and the other characters
(`RollSetup.panel_follows_campaign`).

Builds the demo (bench/site.py); for each system, the player opens her character's
panel, another character of the campaign rolls, and the panel's reload is timed (CPU
of the request, median over `--rounds`, the first 10 left out as warm-up) with the
statuses it got: 204 while the panel is up to date, 200 when it is drawn again.

Run: .venv/bin/python bench/panel_reload.py [--rounds 60]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from html import unescape
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import site

WARM_UP = 10


def panel_version(html: str, header: str) -> str:
    """The version the panel's live reload sends ({% live_reload %})."""
    found = re.search(r'<div hidden hx-get="[^"]+" hx-headers="([^"]+)"[^>]*hx-include', html)
    return json.loads(unescape(found[1]))[header]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site.configure(Path(folder))
        site.prepare_database()
        world = site.build_demo()
        from django.urls import reverse

        from bench.data import pool_records
        from campaigns.htmx import SINCE_HEADER
        from mechanics.services.rolls import RollSide, roll_perform
        from mechanics.systems.registry import get_system

        client = site.clients(world)["player"]
        htmx = {"HTTP_HX_REQUEST": "true", "HTTP_X_FORWARDED_PROTO": "https"}
        since = "HTTP_" + SINCE_HEADER.upper().replace("-", "_")
        records = pool_records(random.Random(3), args.rounds)
        for system, sheet in sorted(world.other_sheets.items()):
            if not get_system(system).roll_setup.panel_follows_campaign:
                continue
            campaign = sheet.campaign
            url = reverse("mechanics:roll", args=[campaign.pk, sheet.pk])
            others = [c for c in campaign.characters.exclude(pk=sheet.pk) if c.owner_id]
            times, statuses = [], set()
            for n, (record, details, label) in enumerate(records):
                version = panel_version(client.get(url, **htmx).text, SINCE_HEADER)
                other = others[n % len(others)]
                side = RollSide(replace(record, details=details), other, None, label)
                roll_perform(campaign=campaign, user=other.owner, sides=[side])
                started = time.process_time()
                answer = client.get(url, **htmx, **{since: version})
                times.append(time.process_time() - started)
                statuses.add(answer.status_code)
            median = statistics.median(times[WARM_UP:]) * 1000
            print(
                f"{system}: the open panel's reload after another player's roll "
                f"{median:.2f} ms CPU (median), statuses {sorted(statuses)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
