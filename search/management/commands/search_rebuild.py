"""Index every text again: after a restore into an old schema, or if triggers were lost."""

from django.core.management.base import BaseCommand
from django.db import transaction

from search.index import rebuild


class Command(BaseCommand):
    help = "Rebuild the search index (of one campaign with --campaign)."

    def add_arguments(self, parser):
        parser.add_argument("--campaign", type=int, help="only this campaign's id")

    def handle(self, *args, campaign=None, **options):
        with transaction.atomic():
            count = rebuild(campaign_id=campaign)
        self.stdout.write(f"{count} entries indexed.")
