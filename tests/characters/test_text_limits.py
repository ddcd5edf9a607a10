"""Every stored text has a length limit, the same in the forms and in the sheet import,
so a sheet the site accepted always exports into a file its import accepts."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from campaigns import limits
from campaigns import services as campaign_services
from campaigns.forms.campaign import CampaignForm
from campaigns.forms.chronicle import SceneForm, SceneNoteForm, StoryForm
from campaigns.limits import limit
from campaigns.models import Campaign, Scene, SceneNote, Story
from campaigns.texts import has_control
from characters import services
from characters.forms.creation import CreationBaseForm
from characters.forms.diary import DiaryForm
from characters.forms.sheet import ItemForm, SpecialtyForm
from characters.forms.sheet import StoryForm as SheetStoryForm
from characters.models import Aspect, Character, DiaryEntry, Item, Merit, Specialty
from characters.transfer import FORMAT, MAX_FILE_BYTES, validate_import
from mechanics.systems.hitos.sheet import AspectForm
from mechanics.systems.tinieblas.sheet import MeritForm
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db

ONE_MB = "n" * (1024 * 1024)
SYSTEMS = ("tinieblas", "hitos", "ndp", "objetivo")


# One place: the forms read the models' limits -------------------------------------------


@pytest.mark.parametrize(
    ("form_field", "model", "field"),
    [
        (SheetStoryForm.base_fields["name"], Character, "name"),
        (SheetStoryForm.base_fields["concept"], Character, "concept"),
        (SheetStoryForm.base_fields["description"], Character, "description"),
        (SheetStoryForm.base_fields["notes"], Character, "notes"),
        (CreationBaseForm.base_fields["name"], Character, "name"),
        (CreationBaseForm.base_fields["description"], Character, "description"),
        (SpecialtyForm.base_fields["name"], Specialty, "name"),
        (ItemForm.base_fields["name"], Item, "name"),
        (DiaryForm.base_fields["body"], DiaryEntry, "body"),
        (SceneNoteForm.base_fields["body"], SceneNote, "body"),
        (StoryForm.base_fields["summary"], Story, "summary"),
        (SceneForm.base_fields["summary"], Scene, "summary"),
        (CampaignForm.base_fields["description"], Campaign, "description"),
        (CampaignForm.base_fields["name"], Campaign, "name"),
        (MeritForm.base_fields["name"], Merit, "name"),
        (MeritForm.base_fields["notes"], Merit, "notes"),
        (AspectForm.base_fields["text"], Aspect, "text"),
    ],
)
def test_each_form_field_has_its_models_limit(form_field, model, field):
    assert limit(model, field) is not None
    assert form_field.max_length == limit(model, field)


def test_the_limits_are_those_of_campaigns_limits():
    assert limit(Character, "notes") == limits.SHEET_TEXT
    assert limit(Scene, "summary") == limits.MARKDOWN
    assert limit(DiaryEntry, "body") == limits.DIARY


# 1 MB is refused, with a message, the text kept ------------------------------------------


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


def test_a_megabyte_of_sheet_notes_is_refused_by_the_form_keeping_the_text(client, player, lucia):
    client.force_login(player)
    url = reverse("characters:edit", args=[lucia.campaign_id, lucia.pk])
    notes = "Mis notas. " + ONE_MB
    response = client.post(url, {"story-name": "Lucía", "story-notes": notes})
    assert response.status_code == 200
    assert "El texto puede tener como máximo 20000 caracteres" in response.text
    assert "Mis notas. nnnn" in response.text
    assert Character.objects.get(pk=lucia.pk).notes == ""
    client.cookies["django_language"] = "en"
    response = client.post(url, {"story-name": "Lucía", "story-notes": notes})
    assert "Ensure this value has at most 20000 characters" in response.text


def test_notes_at_the_limit_are_accepted_by_the_form(client, player, lucia):
    client.force_login(player)
    url = reverse("characters:edit", args=[lucia.campaign_id, lucia.pk])
    notes = "ñ" * limits.SHEET_TEXT
    assert client.post(url, {"story-name": "Lucía", "story-notes": notes}).status_code == 302
    assert Character.objects.get(pk=lucia.pk).notes == notes


def sheet_file(**texts) -> dict:
    return {
        "format": FORMAT,
        "version": 1,
        "system": "tinieblas",
        "name": "Lucía",
        "traits": [],
        **texts,
    }


def test_a_megabyte_of_notes_is_refused_by_the_import(campaign):
    with pytest.raises(ValidationError) as refused:
        validate_import(sheet_file(notes=ONE_MB), campaign=campaign)
    assert refused.value.messages == ["El campo «notes» tiene más de 20000 caracteres."]


def test_an_uploaded_megabyte_of_notes_is_refused_with_a_message(client, campaign, gm):
    client.force_login(gm)
    raw = json.dumps(sheet_file(notes=ONE_MB)).encode()
    response = client.post(
        reverse("characters:import", args=[campaign.pk]),
        {"file": SimpleUploadedFile("ficha.json", raw, "application/json"), "owner": ""},
    )
    assert response.status_code == 200
    assert "256 KB" in response.text
    assert not Character.objects.exists()


@pytest.mark.parametrize(("field", "limit_of"), [("name", "NAME"), ("concept", "SHORT_TEXT")])
def test_the_import_refuses_names_and_concepts_over_their_limit(campaign, field, limit_of):
    text = "x" * (getattr(limits, limit_of) + 1)
    with pytest.raises(ValidationError):
        validate_import(sheet_file(**{field: text}), campaign=campaign)


def test_a_scene_summary_of_a_megabyte_is_refused(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:scene_create", args=[campaign.pk]),
        {"title": "El incendio", "summary": ONE_MB},
    )
    assert response.status_code == 200
    assert "El texto puede tener como máximo 20000 caracteres" in response.text
    assert not Scene.objects.exists()


def test_a_gm_note_of_a_megabyte_is_refused(client, campaign, gm):
    scene = campaign_services.scene_create(campaign=campaign, title="El incendio")
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:scene_note_create", args=[campaign.pk, scene.pk]), {"body": ONE_MB}
    )
    assert response.status_code in (200, 302)
    assert not SceneNote.objects.exists()


def test_a_diary_over_its_limit_is_refused_keeping_the_text(client, campaign, player, lucia):
    scene = campaign_services.scene_create(campaign=campaign, title="Fuego", participants=[lucia])
    client.force_login(player)
    body = "Querido diario " + "x" * limits.DIARY
    response = client.post(
        reverse("characters:diary", args=[campaign.pk, lucia.pk, scene.pk]),
        {"body": body, "visibility": "group", "action": "publish"},
    )
    assert response.status_code == 200
    assert "como máximo 50000 caracteres" in response.text
    assert "Querido diario xxx" in response.text
    assert not DiaryEntry.objects.exists()


def test_a_campaign_description_of_a_megabyte_is_refused(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]),
        {"name": campaign.name, "description": ONE_MB, "system": campaign.system},
    )
    assert response.status_code == 200
    assert "El texto puede tener como máximo 20000 caracteres" in response.text
    assert Campaign.objects.get(pk=campaign.pk).description == campaign.description


# An export always re-imports --------------------------------------------------------------

# Characters a form can deliver: anything but NUL and lone surrogates, and in a name
# (one line: campaigns/texts.py) no control character or line break either. "\x01" costs
# six bytes in the JSON file ("\u0001"), the most any character costs.
STORABLE = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
WORST_CASES = ["a", "ñ", "😀", "\x01", '"', "\n"]


def at_limit(piece: str, length: int) -> str:
    """`piece` repeated to exactly `length` characters, starting and ending with a letter
    (the forms strip the ends of names)."""
    middle = (piece * (length // max(len(piece), 1) + 1))[: length - 2]
    return f"A{middle}Z"


def one_line(piece: str) -> str:
    """`piece` as a name can hold it: without its controls and line breaks."""
    return "".join(c for c in piece if not has_control(c)) or "a"


def maximal_sheet(system: str, gm, piece: str) -> Character:
    """A sheet of `system` with every text the sheet's forms allow at its longest."""
    campaign = CampaignFactory(system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    character = make_character(campaign, None, name="Provisional", user=gm)
    services.character_update(
        character=character,
        user=gm,
        name=at_limit(one_line(piece), limits.NAME),
        concept=at_limit(one_line(piece), limits.SHORT_TEXT),
        description=at_limit(piece, limits.SHEET_TEXT),
        notes=at_limit(piece, limits.SHEET_TEXT),
    )
    game_system = campaign.game_system
    # (A Hitos concept is its Concepto aspect: the concept above made it.)
    if "cita" in game_system.aspect_slots():
        services.aspect_add(
            character=character,
            user=gm,
            kind="cita",
            text=at_limit(one_line(piece), limit(Aspect, "text")),
        )
    if game_system.merit_ratings(""):
        services.merit_set(
            character=character,
            user=gm,
            key="",
            name=at_limit(one_line(piece), limit(Merit, "name")),
            rating=min(game_system.merit_ratings("")),
            notes=at_limit(piece, limit(Merit, "notes")),
        )
    services.item_add(
        character=character,
        user=gm,
        kind="item",
        name=at_limit(one_line(piece), limit(Item, "name")),
        weight_kg=1,
    )
    return Character.objects.get(pk=character.pk)


def round_trip(client, character, gm) -> tuple[dict, dict, int]:
    """Export, import into a fresh campaign of the same system, export again."""
    client.force_login(gm)
    response = client.get(reverse("characters:export", args=[character.campaign_id, character.pk]))
    raw = response.content
    target = CampaignFactory(system=character.campaign.system, created_by=gm)
    MembershipFactory(campaign=target, user=gm, role="gm")
    imported = client.post(
        reverse("characters:import", args=[target.pk]),
        {"file": SimpleUploadedFile("ficha.json", raw, "application/json"), "owner": ""},
    )
    assert imported.status_code == 302, imported.context and imported.context["problems"]
    copy = Character.objects.get(campaign=target)
    again = client.get(reverse("characters:export", args=[target.pk, copy.pk]))
    first, second = json.loads(raw), json.loads(again.content)
    for data in (first, second):
        data.pop("exported_at")
    return first, second, len(raw)


@pytest.mark.parametrize("piece", WORST_CASES)
@pytest.mark.parametrize("system", SYSTEMS)
def test_a_sheet_with_every_text_at_its_limit_exports_and_reimports(client, gm, system, piece):
    character = maximal_sheet(system, gm, piece)
    first, second, size = round_trip(client, character, gm)
    assert second == first
    assert len(first["notes"]) == limits.SHEET_TEXT
    assert size <= MAX_FILE_BYTES


class ExportAlwaysReimports(TestCase):
    """Any text a form accepts, at the longest the forms allow, round-trips."""

    @hypothesis_settings(max_examples=12)
    @given(system=st.sampled_from(SYSTEMS), piece=st.text(STORABLE, min_size=1, max_size=8))
    def test_export_then_import_round_trips(self, system, piece):
        gm = UserFactory()
        character = maximal_sheet(system, gm, piece)
        first, second, _size = round_trip(self.client, character, gm)
        assert second == first
