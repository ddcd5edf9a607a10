import re

import pytest
from django import forms
from django.urls import reverse

from characters import services
from characters.models import Character, SheetChange, XpEntry
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_campaign(stranger):
    other = CampaignFactory(name="Campaña ajena", created_by=stranger)
    MembershipFactory(campaign=other, user=stranger, role="gm")
    return other


@pytest.fixture
def character(campaign, player):
    return make_character(campaign, player, name="Lucía Ferrer")


@pytest.fixture
def foreign(other_campaign, stranger):
    return make_character(other_campaign, None, name="Villano ajeno", user=stranger)


def change_url(character) -> str:
    return reverse("admin:characters_character_change", args=[character.pk])


def _add_form(form, data: dict) -> None:
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[form.add_prefix(name)] = "on"
            continue
        data[form.add_prefix(name)] = "" if value is None else value


def change_form_data(response) -> dict:
    """What the browser would send back for the change page as it is shown."""
    data: dict = {}
    _add_form(response.context["adminform"].form, data)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        _add_form(formset.management_form, data)
        for form in formset.forms:
            _add_form(form, data)
    return data


def trait_field(response, key: str) -> str:
    """The POST name of a trait's rating in the traits inline (its key is read-only)."""
    for inline in response.context["inline_admin_formsets"]:
        for form in inline.formset.forms:
            if inline.formset.prefix == "traits" and form.instance.key == key:
                return form.add_prefix("rating")
    raise AssertionError(key)


def test_gm_sees_only_their_campaigns_characters(client, character, foreign, gm):
    client.force_login(gm)
    response = client.get(reverse("admin:characters_character_changelist"))
    assert response.status_code == 200
    assert "Lucía Ferrer" in response.text
    assert "Villano ajeno" not in response.text


def test_gm_cannot_open_or_edit_another_campaigns_character(client, foreign, gm):
    client.force_login(gm)
    assert client.get(change_url(foreign)).status_code in (302, 403, 404)
    response = client.post(change_url(foreign), {"name": "Robado"})
    assert response.status_code in (302, 403, 404)
    foreign.refresh_from_db()
    assert foreign.name == "Villano ajeno"


def test_gm_edits_a_character_and_its_traits(client, character, gm):
    client.force_login(gm)
    page = client.get(change_url(character))
    assert page.status_code == 200
    data = change_form_data(page)
    data["name"] = "Lucía F."
    data[trait_field(page, "fuerza")] = "4"
    data[trait_field(page, "fuerza_de_voluntad")] = "6"
    response = client.post(change_url(character), data)
    assert response.status_code == 302, response.context["errors"] if response.context else ""
    character.refresh_from_db()
    assert character.name == "Lucía F."
    assert services.ratings_of(character)["fuerza"] == 4
    # The pool follows its trait, through the service.
    assert character.resources.get(key="willpower").maximum == 6
    fields = set(character.changes.values_list("field", flat=True))
    assert {"name", "trait:fuerza", "trait:fuerza_de_voluntad", "max:willpower"} <= fields
    assert character.changes.get(field="trait:fuerza").user == gm


def test_admin_refuses_a_rating_out_of_range(client, character, gm):
    client.force_login(gm)
    page = client.get(change_url(character))
    data = change_form_data(page)
    data[trait_field(page, "fuerza")] = "9"
    response = client.post(change_url(character), data)
    assert response.status_code == 200
    assert "Fuerza debe estar entre 1 y 5." in response.text
    assert services.ratings_of(character)["fuerza"] == 1


def test_admin_refuses_a_pool_over_its_maximum(client, character, gm):
    client.force_login(gm)
    data = change_form_data(client.get(change_url(character)))
    name = next(key for key in data if key.startswith("resources-") and key.endswith("-current"))
    data[name] = "50"
    response = client.post(change_url(character), data)
    assert response.status_code == 200
    assert character.resources.get(key="willpower").current == 2


def test_admin_refuses_details_the_system_does_not_know(client, character, gm):
    client.force_login(gm)
    data = change_form_data(client.get(change_url(character)))
    data["details"] = '{"virtue": "puntualidad"}'
    response = client.post(change_url(character), data)
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.details == {}


def test_gm_cannot_move_a_character_into_another_campaign(
    client, character, other_campaign, campaign, gm
):
    # Even into another campaign the same GM runs.
    own_other = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=own_other, user=gm, role="gm")
    client.force_login(gm)
    data = change_form_data(client.get(change_url(character)))
    for target in (other_campaign, own_other):
        data["campaign"] = target.pk
        client.post(change_url(character), data)
        character.refresh_from_db()
        assert character.campaign_id == campaign.pk


def test_characters_are_not_added_in_the_admin(client, campaign, gm):
    client.force_login(gm)
    assert client.get(reverse("admin:characters_character_add")).status_code == 403


def test_sheet_history_and_xp_ledger_are_read_only(client, character, foreign, gm):
    XpEntry.objects.create(character=character, kind="award", amount=3, created_by=gm)
    client.force_login(gm)
    changes = client.get(reverse("admin:characters_sheetchange_changelist"))
    assert changes.status_code == 200
    assert "Lucía Ferrer" in changes.text
    assert "Villano ajeno" not in changes.text
    change = character.changes.first()
    url = reverse("admin:characters_sheetchange_change", args=[change.pk])
    assert client.get(url).status_code == 200  # a view-only page
    response = client.post(url, {"field": "name", "old_value": "", "new_value": "Falso"})
    assert response.status_code == 403
    delete = reverse("admin:characters_sheetchange_delete", args=[change.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert SheetChange.objects.filter(pk=change.pk, new_value="Lucía Ferrer").exists()
    assert client.get(reverse("admin:characters_sheetchange_add")).status_code == 403
    entry = XpEntry.objects.get()
    xp_url = reverse("admin:characters_xpentry_change", args=[entry.pk])
    assert client.post(xp_url, {"amount": 100}).status_code == 403
    entry.refresh_from_db()
    assert entry.amount == 3
    foreign_change = foreign.changes.first()
    other_url = reverse("admin:characters_sheetchange_change", args=[foreign_change.pk])
    assert client.get(other_url).status_code in (302, 403, 404)


def test_an_xp_entry_reads_character_first_in_the_admin(client, character, gm):
    entry = XpEntry.objects.create(character=character, kind="award", amount=3, created_by=gm)
    client.force_login(gm)
    page = client.get(reverse("admin:characters_xpentry_change", args=[entry.pk])).text
    labels = re.findall(r"<label>([^<]+):</label>", page)
    assert labels[:3] == ["Personaje", "Campaña", "Escena"]
    assert labels[-1] == "Autor"


def test_player_cannot_use_the_character_admin(client, character, player):
    client.force_login(player)
    response = client.get(reverse("admin:characters_character_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_observer_and_stranger_cannot_use_the_character_admin(
    client, character, observer, stranger
):
    client.force_login(observer)
    assert client.get(change_url(character)).status_code == 302
    client.force_login(stranger)  # a GM elsewhere, not here
    assert client.get(change_url(character)).status_code in (302, 403, 404)


def test_superuser_sees_every_character(client, character, foreign):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(root)
    response = client.get(reverse("admin:characters_character_changelist"))
    assert "Lucía Ferrer" in response.text
    assert "Villano ajeno" in response.text
    assert client.get(change_url(foreign)).status_code == 200


def test_inlines_follow_the_system(client, gm):
    hitos = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=hitos, user=gm, role="gm")
    marina = make_character(hitos, None, name="Marina", user=gm, aspects=[("concepto", "Buzo")])
    client.force_login(gm)
    response = client.get(change_url(marina))
    prefixes = {inline.formset.prefix for inline in response.context["inline_admin_formsets"]}
    assert "aspects" in prefixes
    assert "merits" not in prefixes
    assert Character.objects.get(pk=marina.pk).aspects.count() == 1


def test_admin_refuses_an_owner_outside_the_campaign(client, character, gm, player, stranger):
    client.force_login(gm)
    data = change_form_data(client.get(change_url(character)))
    data["owner"] = stranger.pk
    response = client.post(change_url(character), data)
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.owner == player
