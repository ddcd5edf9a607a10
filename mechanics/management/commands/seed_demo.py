"""Demo data: one campaign per rule system (or those named with --system), with a GM, two
players, a character for each player and a chronicle they have played. Idempotent."""

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Membership, Role
from mechanics.demo import seed_characters, seed_chronicle
from mechanics.demo_art import seed_pictures
from mechanics.systems.registry import all_systems

DEMO_PASSWORD = "cronica-demo"
DEMO_USERS = (("master", Role.GM), ("ana", Role.PLAYER), ("bruno", Role.PLAYER))


class Command(BaseCommand):
    help = "Create the demo campaigns, a GM, two players and their characters (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--system",
            action="append",
            choices=[system.key for system in all_systems()],
            help="only this system's campaign (may be given again for another)",
        )

    @transaction.atomic
    def handle(self, *args, **options):
        wanted = options["system"]
        users = {}
        # The demo's users share a password, made once: each hash takes most of a second.
        hashed = None
        for username, _role in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                hashed = hashed or make_password(DEMO_PASSWORD)
                user.password = hashed
                user.save(update_fields=["password"])
            users[username] = user
        for system in all_systems():
            if wanted and system.key not in wanted:
                continue
            name, description = system.demo_campaign
            campaign, _created = Campaign.objects.get_or_create(
                name=name,
                system=system.key,
                defaults={"description": description, "created_by": users["master"]},
            )
            for username, role in DEMO_USERS:
                Membership.objects.get_or_create(
                    campaign=campaign, user=users[username], defaults={"role": role}
                )
            # Two complete sheets per campaign, one each for ana and bruno.
            seed_characters(campaign, users)
            # A story already under way, so every page has something on first login.
            seed_chronicle(campaign, users)
            # Faces and a campaign image, drawn here (no downloads).
            seed_pictures(campaign)
        self.stdout.write("Demo logins (password: %s):" % DEMO_PASSWORD)
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {username:<8} {role.label}")
