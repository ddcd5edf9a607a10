import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaigns.history import verify_chain
from campaigns.models import Campaign
from characters.models import XpEntry
from mechanics.models import HealthEvent, Roll

CHAINED = (Roll, XpEntry, HealthEvent)


def read_checkpoint(path: Path) -> dict:
    """The chain tips of a backup's manifest (its file or folder) or of a campaign's
    exported checkpoint: {table: {campaign id: {"length", "head"}}}."""
    if path.is_dir():
        path = path / "manifest.json"
    try:
        history = json.loads(path.read_text())["history"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CommandError(f"{path} holds no history checkpoint: {error}") from None
    if not isinstance(history, dict):
        raise CommandError(f"{path} holds no history checkpoint.")
    return history


def behind(model, campaign_id: int, tip: dict) -> str:
    """What is wrong with the chain against the checkpoint's tip ("" when nothing): it
    must still hold the tip's row, with the same hash."""
    length, head = tip["length"], tip["head"]
    found = (
        model._base_manager.filter(campaign_id=campaign_id, chain_seq=length)
        .values_list("chain_hash", flat=True)
        .first()
    )
    if found is None:
        return f"{model.__name__}: the checkpoint has {length} rows, rows were removed since"
    if found != head:
        return f"{model.__name__}: position {length} is not the checkpoint's head, rewritten"
    return ""


class Command(BaseCommand):
    help = (
        "Check each campaign's history chains (rolls, XP entries, health events): name the "
        "first row that was edited, removed or inserted out of order, and with "
        "--checkpoint the chains that no longer reach an earlier checkpoint's tips. Exits "
        "with status 1 if any chain is broken."
    )

    def add_arguments(self, parser):
        parser.add_argument("--campaign", type=int, help="check only this campaign (its id)")
        parser.add_argument(
            "--checkpoint",
            type=Path,
            help="a backup (its folder or manifest.json) or a campaign's exported history "
            "checkpoint: every chain must still pass through its tips",
        )

    def handle(self, *args, campaign: int | None, checkpoint: Path | None, **options):
        tips = read_checkpoint(checkpoint) if checkpoint is not None else {}
        campaigns = Campaign._base_manager.order_by("pk")
        if campaign is not None:
            campaigns = campaigns.filter(pk=campaign)
            if not campaigns.exists():
                raise CommandError(f"There is no campaign {campaign}.")
        broken = 0
        for pk, name in campaigns.values_list("pk", "name"):
            reports = [verify_chain(model, pk) for model in CHAINED]
            chains = ", ".join(
                f"{report.model.__name__} {report.length} (head {report.head[:16]})"
                for report in reports
            )
            failed = [report for report in reports if not report.ok]
            late = [
                problem
                for model in CHAINED
                if (tip := tips.get(model._meta.db_table, {}).get(str(pk)))
                and (problem := behind(model, pk, tip))
            ]
            if not failed and not late:
                self.stdout.write(f"Campaign {pk} ({name}): OK: {chains}")
                continue
            broken += 1
            if failed:
                first = failed[0]
                self.stdout.write(
                    f"Campaign {pk} ({name}): BROKEN at {first.model._meta.label} "
                    f"id {first.broken_at}: {first.problem}"
                )
            else:
                self.stdout.write(f"Campaign {pk} ({name}): BEHIND THE CHECKPOINT: {late[0]}")
                late = late[1:]
            for report in failed[1:]:
                self.stdout.write(
                    f"    also {report.model._meta.label} id {report.broken_at}: {report.problem}"
                )
            for problem in late:
                self.stdout.write(f"    also {problem}")
        if broken:
            raise CommandError(f"The history of {broken} campaign(s) was changed.")
