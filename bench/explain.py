"""Query plans of the hot queries on a big campaign, on SQLite or PostgreSQL.

Builds the big campaign (bench/data.py) in the database DATABASE_URL names (a
throw-away SQLite file when unset), then prints, for each query the pages run where the
data grows, its plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL) and
its median time.

Run: .venv/bin/python bench/explain.py [--rolls 100000]
     scripts/with-postgres.sh .venv/bin/python bench/explain.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def hot_queries(big) -> list[tuple[str, object]]:
    """(name, queryset) of what the pages ask of the big tables."""
    from django.db.models import Sum

    from campaigns.chronicle import scene_counts
    from campaigns.models import Scene
    from campaigns.permissions import campaign_access
    from campaigns.scene_menu import menu_rows, scene_menu
    from campaigns.selectors import _count, scenes_for
    from characters.models import XpEntry
    from characters.xp_buckets import chart_rows, ledger_summary
    from mechanics import selectors as log
    from mechanics.cards import keyed
    from mechanics.models import Roll

    gm = campaign_access(big.gm, big.campaign.pk)
    player = campaign_access(big.player, big.campaign.pk)
    scene = big.scene
    character = big.characters[0]
    latest_scenes = scene_menu(big.campaign, None)
    rolls = Roll.objects.filter(campaign=big.campaign)
    middle = rolls.order_by("-created_at", "-pk")[rolls.count() // 2]
    return [
        (
            "scene page: a page of the scene's rolls, oldest first",
            keyed(Roll.objects.filter(scene=scene, campaign_id=scene.campaign_id)).order_by(
                "created_at", "pk"
            )[:51],
        ),
        (
            # mechanics.setup.open_extended_actions
            "extended actions still open (every odds change)",
            Roll.objects.filter(character=character, kind="extended", group__isnull=False).order_by(
                "-created_at", "-pk"
            )[:40],
        ),
        (
            "roll log, player: first page",
            keyed(log.campaign_rolls(player))[: log.PAGE_SIZE],
        ),
        (
            "roll log, player: the total, counted up to 1,001",
            log.campaign_rolls(player).order_by().values("pk")[:1001],
        ),
        (
            "roll log, GM: a deep keyset page",
            keyed(
                log.campaign_rolls(gm)
                .filter(created_at__lte=middle.created_at)
                .exclude(created_at=middle.created_at, pk__gte=middle.pk)
            )[: log.PAGE_SIZE + 1],
        ),
        ("feed poll: ids of the newest rolls", log.campaign_rolls(player).values("pk")[:10]),
        (
            "XP log: newest entries of the campaign",
            XpEntry.objects.filter(campaign=big.campaign)
            .select_related("scene", "created_by")
            .order_by("-created_at", "-pk")[:51],
        ),
        (
            "XP chart: every character's summed rows of the span it chooses",
            chart_rows(
                big.campaign.pk,
                [c.pk for c in big.characters],
                ledger_summary(big.campaign, big.characters).span,
            ),
        ),
        (
            "scene list, player: a page of 10 scenes with the counts they may see",
            Scene.objects.filter(pk__in=scenes_for(player)[:10].values("pk")).annotate(
                **{name: _count(rows) for name, rows in scene_counts(player).items()}
            ),
        ),
        (
            "XP log: the latest 10 scenes' awards (from the scene index)",
            XpEntry.objects.filter(
                scene_id__in=[pk for pk, _title in latest_scenes.scenes[:10]],
                kind__in=[XpEntry.Kind.AWARD, XpEntry.Kind.CORRECTION],
            )
            .order_by()
            .values("scene_id")
            .annotate(total=Sum("amount")),
        ),
        (
            "roll log and XP log: the scene menu (latest 30 scenes and the chosen one)",
            menu_rows(big.campaign, str(scene.pk)),
        ),
        (
            "campaign page: the latest 5 scenes, counted alone",
            Scene.objects.filter(pk__in=scenes_for(player)[:5].values("pk")).annotate(
                **{name: _count(rows) for name, rows in scene_counts(player).items()}
            ),
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        from bench.data import Sizes, build_big_campaign, start_django

        start_django(Path(folder), "explain.sqlite3")
        from django.db import connection

        big = build_big_campaign(Sizes(rolls=args.rolls))
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # planner statistics, as a live database has them
        print(f"{connection.vendor}, {Sizes(rolls=args.rolls)}")
        for name, queryset in hot_queries(big):
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                list(queryset.all())
                times.append((time.perf_counter() - start) * 1e3)
            print(f"\n== {name}: {statistics.median(times):.2f} ms median")
            if connection.vendor == "postgresql":
                plan = queryset.explain(analyze=True)
            else:
                plan = queryset.explain()
            print(plan)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
