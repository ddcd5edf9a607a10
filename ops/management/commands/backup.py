from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from ops.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Copy the live database (a consistent snapshot) and the media files into a new "
        "folder, with a manifest of per-table row counts and hashes."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="a folder that does not exist yet")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, path: Path, database: str, **options):
        try:
            summary = backup(path, connections[database])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Backed up {summary.tables} tables ({summary.rows} rows) and "
            f"{summary.media_files} media files to {summary.path}"
        )
