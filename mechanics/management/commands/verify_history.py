from django.core.management.base import BaseCommand, CommandError

from campaigns.history import verify_chain
from campaigns.models import Campaign
from characters.models import XpEntry
from mechanics.models import HealthEvent, Roll

CHAINED = (Roll, XpEntry, HealthEvent)


class Command(BaseCommand):
    help = (
        "Check each campaign's history chains (rolls, XP entries, health events): name the "
        "first row that was edited, removed or inserted out of order. Exits with status 1 "
        "if any chain is broken."
    )

    def add_arguments(self, parser):
        parser.add_argument("--campaign", type=int, help="check only this campaign (its id)")

    def handle(self, *args, campaign: int | None, **options):
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
            if not failed:
                self.stdout.write(f"Campaign {pk} ({name}): OK: {chains}")
                continue
            broken += 1
            first = failed[0]
            self.stdout.write(
                f"Campaign {pk} ({name}): BROKEN at {first.model._meta.label} "
                f"id {first.broken_at}: {first.problem}"
            )
            for report in failed[1:]:
                self.stdout.write(
                    f"    also {report.model._meta.label} id {report.broken_at}: {report.problem}"
                )
        if broken:
            raise CommandError(f"The history of {broken} campaign(s) was changed.")
