from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from ops.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `backup` into an empty database (and MEDIA_ROOT), then "
        "check every table against the backup's manifest."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="the backup folder")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, path: Path, database: str, **options):
        try:
            summary = restore(path, connections[database])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Restored {summary.tables} tables ({summary.rows} rows) and "
            f"{summary.media_files} media files from {summary.path}; "
            "every table matches the manifest."
        )
