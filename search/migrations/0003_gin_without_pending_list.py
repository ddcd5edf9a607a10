"""PostgreSQL: the GIN index of the search updates at each write instead of keeping a
pending list that every search reads through (search.sql makes it so on new databases)."""

from django.db import migrations


def no_pending_list(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER INDEX search_entry_document SET (fastupdate = off)")
        # What the list held goes into the index now.
        schema_editor.execute("SELECT gin_clean_pending_list('search_entry_document')")


def pending_list(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER INDEX search_entry_document RESET (fastupdate)")


class Migration(migrations.Migration):
    dependencies = [("search", "0002_full_text")]

    operations = [migrations.RunPython(no_pending_list, pending_list)]
