"""The sessions kept by Django's own table move to the project's, each with its user, so
nobody is signed out by the deploy."""

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone


def move_sessions(apps, schema_editor):
    Earlier = apps.get_model("sessions", "Session")
    Session = apps.get_model("accounts", "Session")
    User = apps.get_model("auth", "User")
    users = set(User.objects.values_list("pk", flat=True))
    store = SessionStore()  # its name salts the data's signature, as the project's store
    moved = []
    for earlier in Earlier.objects.filter(expire_date__gt=timezone.now()).iterator():
        user_id = store.decode(earlier.session_data).get(SESSION_KEY)
        user_id = int(user_id) if str(user_id).isdigit() else None
        moved.append(
            Session(
                session_key=earlier.session_key,
                session_data=earlier.session_data,
                expire_date=earlier.expire_date,
                user_id=user_id if user_id in users else None,
            )
        )
    Session.objects.bulk_create(moved, batch_size=500)
    Earlier.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_session"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(move_sessions, migrations.RunPython.noop)]
