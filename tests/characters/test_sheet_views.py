"""The sheet page and its inline edits: who sees what, who may change what, and how
many queries the page costs."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from characters import services
from characters.models import (
    Aspect,
    CampaignTrait,
    Character,
    Item,
    Merit,
    Resource,
    SheetChange,
    Specialty,
    Trait,
    XpEntry,
)
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Destructive actions ask first (campaigns/confirm.py); these posts answer yes.
CONFIRMED = {"confirmed": "1"}


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


def tinieblas_sheet(campaign, owner, **overrides):
    values = {
        "name": "Lucía Vidal",
        "concept": "Periodista de sucesos",
        "description": "Pelo corto, gabardina gris.",
        "ratings": {
            "inteligencia": 3,
            "astucia": 3,
            "fuerza": 2,
            "destreza": 3,
            "resistencia": 2,
            "compostura": 3,
            "investigacion": 3,
            "academicismo": 2,
            "pelea": 1,
        },
        "details": {"virtue": "caridad", "vice": "orgullo"},
        "specialties": [("investigacion", "Archivos")],
        "merits": [
            ("recursos", "Recursos", 2),
            ("apariencia_llamativa", "Apariencia Llamativa", 2),
        ],
    }
    values.update(overrides)
    character = make_character(campaign, owner, **values)
    Character.objects.filter(pk=character.pk).update(notes="Debe dinero a Ramírez.")
    character.refresh_from_db()
    return character


@pytest.fixture
def sheet(campaign, player):
    return tinieblas_sheet(campaign, player)


def url(character, name="sheet", *args):
    return reverse(f"characters:{name}", args=[character.campaign_id, character.pk, *args])


def campaign_of(system, gm, player, observer=None, **fields):
    campaign = CampaignFactory(system=system, created_by=gm, **fields)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    if observer is not None:
        MembershipFactory(campaign=campaign, user=observer, role="observer")
    return campaign


def hitos_sheet(gm, player):
    campaign = campaign_of("hitos", gm, player)
    return make_character(
        campaign,
        player,
        name="Marcos",
        concept="Contrabandista",
        ratings={"fortaleza": 4, "reflejos": 5, "voluntad": 3, "intelecto": 4, "combate": 3},
        aspects=[
            ("concepto", "Contrabandista con deudas"),
            ("cita", "«Todo tiene un precio»"),
            ("hito", "Sobreviví al naufragio del Esperanza"),
            ("hito", "Traicioné a mi hermano"),
            ("hito", "Conozco cada cala de la costa"),
            ("hito", "Salvé a la hija del alcalde"),
            ("complicacion", "Buscado por la Guardia Civil"),
        ],
    )


def ndp_sheet(gm, player):
    campaign = campaign_of("ndp", gm, player)
    character = make_character(
        campaign,
        player,
        name="Irene",
        ratings={"fortitud": 3, "vitalidad": 3, "voluntad": 4, "combate_c_a_c": 5, "arcano": 2},
        details={"deities": {"sol": "Sol Invicto"}},
    )
    Trait.objects.filter(character=character, key="combate_c_a_c").update(progress=2)
    return character


def objetivo_sheet(gm, player):
    campaign = campaign_of("objetivo", gm, player)
    return make_character(
        campaign,
        player,
        name="Fred",
        ratings={"fuerza": 5, "destreza": 8, "resistencia": 6, "armas_cc": 6, "armas_dist": 4},
        details={"specialization": "armas_dist"},
    )


# Who sees what


def test_owner_sees_the_whole_sheet_with_its_controls(client, sheet, player):
    client.force_login(player)
    response = client.get(url(sheet))
    assert response.status_code == 200
    page = response.text
    assert "Lucía Vidal" in page
    assert "Debe dinero a Ramírez." in page
    assert "Fuerza 2 de 5" in page
    assert "Caridad" in page
    assert "Orgullo" in page
    assert "Archivos" in page
    assert "Recursos" in page
    assert url(sheet, "edit") in page
    assert url(sheet, "pool_adjust", "willpower") in page
    # Players never get the GM's controls.
    assert url(sheet, "trait_set", "fuerza") not in page
    assert url(sheet, "merit_set") not in page
    assert response["Vary"].count("HX-Request") == 1


def test_gm_sees_the_whole_sheet_and_may_set_ratings(client, sheet, gm):
    client.force_login(gm)
    page = client.get(url(sheet)).text
    assert "Debe dinero a Ramírez." in page
    assert url(sheet, "trait_set", "fuerza") in page
    assert url(sheet, "specialty_add") in page
    assert url(sheet, "merit_set") in page


def test_another_player_sees_only_the_public_view(client, sheet, other_player):
    client.force_login(other_player)
    response = client.get(url(sheet))
    assert response.status_code == 200
    page = response.text
    assert "Lucía Vidal" in page
    assert "Periodista de sucesos" in page
    assert "Pelo corto, gabardina gris." in page
    assert "Debe dinero a Ramírez." not in page
    assert "Fuerza 2 de 5" not in page
    assert url(sheet, "edit") not in page


def test_another_player_sees_the_full_sheet_when_the_campaign_allows_it(
    client, sheet, campaign, other_player
):
    campaign.players_see_full_sheets = True
    campaign.save()
    client.force_login(other_player)
    page = client.get(url(sheet)).text
    assert "Fuerza 2 de 5" in page
    assert url(sheet, "edit") not in page
    assert url(sheet, "pool_adjust", "willpower") not in page


def test_observer_sees_only_the_public_view_even_when_players_see_full_sheets(
    client, sheet, campaign, observer
):
    campaign.players_see_full_sheets = True
    campaign.save()
    client.force_login(observer)
    response = client.get(url(sheet))
    assert response.status_code == 200
    assert "Periodista de sucesos" in response.text
    assert "Fuerza 2 de 5" not in response.text


def test_stranger_gets_404(client, sheet, stranger):
    client.force_login(stranger)
    assert client.get(url(sheet)).status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, sheet):
    response = client.get(url(sheet))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_a_character_under_another_campaigns_url_is_404(client, sheet, gm, player):
    other = campaign_of("tinieblas", gm, player)
    client.force_login(gm)
    wrong = reverse("characters:sheet", args=[other.pk, sheet.pk])
    assert client.get(wrong).status_code == 404


def test_htmx_get_returns_the_sheet_without_the_page_around_it(client, sheet, player):
    client.force_login(player)
    response = client.get(url(sheet), **HTMX)
    assert response.status_code == 200
    assert 'id="sheet"' in response.text
    assert "<html" not in response.text


# What each system's sheet shows


def test_tinieblas_sheet_shows_virtue_vice_merits_willpower_moralidad_and_health(
    client, campaign, gm, player
):
    character = tinieblas_sheet(campaign, player, approved_over_budget=True)
    services.xp_adjust(character=character, user=gm, amount=7, reason="Escena 1")
    services.xp_adjust(character=character, user=gm, amount=-3, reason="Corrección")
    Character.objects.filter(pk=character.pk).update(health={"boxes": 7, "marks": "LB"})
    client.force_login(player)
    page = client.get(url(character)).text
    assert "Compasión, Misericordia" in page  # the Virtue's seed text
    assert "Efecto:" in page
    assert "Poseído por" in page or "Poseída por" in page
    assert "Apariencia Llamativa" in page
    assert "(2, 4)" in page
    assert "Recursos" in page
    assert "(1–5)" in page
    assert "Fuerza de Voluntad" in page
    assert "Moralidad" in page
    assert "Moralidad 7 de 10" in page
    assert "Tamaño" in page
    assert "Defensa" in page
    assert "Magullado" in page
    assert "Incapacitado" in page
    assert "Lastimado" in page  # the state: the rightmost marked box
    assert "data-xp-balance>4<" in page
    assert "Aprobada por encima del presupuesto" in page
    assert "Competente" in page  # Investigación 3: the seed's dot label


def test_hitos_sheet_shows_aspects_drama_points_and_derived_traits(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    page = client.get(url(character)).text
    assert "Contrabandista con deudas" in page
    assert "Complicación" in page
    assert "Buscado por la Guardia Civil" in page
    assert page.count("Hito<") + page.count("Hito ") >= 4
    assert "Puntos dramáticos" in page
    assert "Aguante" in page
    assert "Resistencia" in page
    assert "Defensa" in page
    assert "Sano" in page
    assert url(character, "pool_adjust", "drama_points") in page
    aspect = character.aspects.get(kind="concepto")
    assert url(character, "aspect_exhausted", aspect.pk) in page


def test_ndp_sheet_shows_the_51_skills_with_ndp_and_pdp_equipment_and_load(client, gm, player):
    character = ndp_sheet(gm, player)
    services.item_add(
        character=character,
        user=gm,
        kind="armour",
        name="Casco acolchado",
        weight_kg=Decimal("2.5"),
        data={"part": "cabeza", "rd": 4, "integrity": 6},
    )
    services.item_add(
        character=character,
        user=gm,
        kind="weapon",
        name="Espada larga",
        weight_kg=Decimal("1.5"),
        data={"sides": 8, "count": 1, "fixed": 0, "damage_type": "cortante", "integrity": 8},
    )
    services.item_add(
        character=character,
        user=gm,
        kind="shield",
        name="Escudo de torre",
        weight_kg=Decimal(7),
        data={"gdc": 7, "integrity": 10},
    )
    services.item_add(
        character=character, user=gm, kind="item", name="Cuerda", weight_kg=Decimal(30)
    )
    client.force_login(player)
    page = client.get(url(character)).text
    assert page.count('class="trait-row"') == 51
    for group in ("Generales", "Conocimiento", "Sociales", "Atléticas", "Artísticas", "Combate"):
        assert group in page
    assert "PdP</abbr> 2<" in page
    assert "Competente" in page  # NdP 5 mastery
    assert "Casco acolchado" in page
    assert "Cabeza" in page
    assert "1d8" in page
    assert "Espada larga" in page
    shield = next(li for li in parse(page).find_all("li") if "Escudo de torre" in li.text())
    assert shield.one(class_="equipment-stats").text().startswith("GdC 7 (+4 Interceptar)")
    assert "41 / 35 kg" in page
    assert "mitad de velocidad" in page
    prana = parse(page).one(id="pool-prana")
    assert prana.one(class_="pool-label").text() == "Prana"
    assert prana.one("output", data_pool_value=True).text() == "14 / 14"  # 8 + 2 × Vitalidad 3
    assert "Fe · Sol Invicto" in page


def test_objetivo_sheet_shows_campaign_lists_specialization_destiny_points_and_pv(
    client, gm, player
):
    character = objetivo_sheet(gm, player)
    client.force_login(player)
    page = client.get(url(character)).text
    assert "Armas Dist" in page
    assert "Especialización" in page
    assert "Puntos de destino" in page
    assert "PV" in page
    assert "12/12" in page
    # A GM's own list replaces the starter list.
    campaign = character.campaign
    CampaignTrait.objects.create(campaign=campaign, kind="attribute", key="cuerpo", name="Cuerpo")
    CampaignTrait.objects.create(campaign=campaign, kind="skill", key="tiro", name="Tiro")
    page = client.get(url(character)).text
    assert "Cuerpo" in page
    assert "Tiro" in page
    assert "Juegos de azar" not in page


# Story: name, concept, description, notes


def story_data(**overrides):
    data = {
        "story-name": "Lucía V.",
        "story-concept": "Reportera",
        "story-description": "Otra descripción.",
        "story-notes": "Notas nuevas.",
    }
    data.update(overrides)
    return data


def test_owner_edits_the_story_and_the_change_is_recorded(client, sheet, player):
    client.force_login(player)
    response = client.post(url(sheet, "edit"), story_data())
    assert response.status_code == 302
    assert response["Location"] == url(sheet)
    sheet.refresh_from_db()
    assert (sheet.name, sheet.concept, sheet.notes) == ("Lucía V.", "Reportera", "Notas nuevas.")
    change = SheetChange.objects.get(character=sheet, field="name")
    assert (change.user, change.old_value, change.new_value) == (player, "Lucía Vidal", "Lucía V.")


def test_owner_edits_the_story_inline_with_htmx(client, sheet, player):
    client.force_login(player)
    form = client.get(url(sheet, "edit"), **HTMX)
    assert form.status_code == 200
    assert 'name="story-name"' in form.text
    assert "<html" not in form.text
    response = client.post(url(sheet, "edit"), story_data(), **HTMX)
    assert response.status_code == 200
    assert "Lucía V." in response.text
    assert 'id="sheet-story"' in response.text
    assert "HX-Request" in response["Vary"]


def test_story_edit_page_works_without_javascript(client, sheet, player):
    client.force_login(player)
    response = client.get(url(sheet, "edit"))
    assert response.status_code == 200
    assert "<html" in response.text
    assert 'value="Lucía Vidal"' in response.text


def test_a_story_without_a_name_is_refused_and_keeps_what_was_typed(client, sheet, player):
    client.force_login(player)
    response = client.post(url(sheet, "edit"), story_data(**{"story-name": "  "}))
    assert response.status_code == 200
    assert "Reportera" in response.text
    assert "Notas nuevas." in response.text
    sheet.refresh_from_db()
    assert sheet.name == "Lucía Vidal"


def test_forged_story_post_cannot_set_owner_campaign_or_xp(client, sheet, player, other_player):
    other_campaign = CampaignFactory()
    client.force_login(player)
    client.post(
        url(sheet, "edit"),
        story_data(
            owner=other_player.pk,
            **{
                "story-owner": other_player.pk,
                "campaign": other_campaign.pk,
                "story-campaign": other_campaign.pk,
                "xp": 100,
                "story-xp": 100,
                "approved_over_budget": "on",
            },
        ),
    )
    sheet.refresh_from_db()
    assert sheet.owner == player
    assert sheet.campaign_id != other_campaign.pk
    assert not sheet.approved_over_budget
    assert not XpEntry.objects.filter(character=sheet).exists()


def test_another_player_cannot_edit_my_sheet(client, sheet, other_player):
    client.force_login(other_player)
    assert client.get(url(sheet, "edit")).status_code == 403
    assert client.post(url(sheet, "edit"), story_data()).status_code == 403
    sheet.refresh_from_db()
    assert sheet.name == "Lucía Vidal"


def test_observer_never_writes(client, sheet, campaign, observer):
    # Even a sheet the observer owns (they were a player once) is read-only for them.
    own = tinieblas_sheet(campaign, observer, name="Vieja ficha")
    client.force_login(observer)
    for character in (sheet, own):
        assert client.post(url(character, "edit"), story_data()).status_code == 403
        response = client.post(url(character, "pool_adjust", "willpower"), {"delta": -1})
        assert response.status_code == 403
    assert not SheetChange.objects.exclude(field="created").exists()


def test_stranger_cannot_edit(client, sheet, stranger):
    client.force_login(stranger)
    assert client.post(url(sheet, "edit"), story_data()).status_code == 404
    assert client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -1}).status_code == 404


def test_gm_edits_a_players_story(client, sheet, gm):
    client.force_login(gm)
    assert client.post(url(sheet, "edit"), story_data()).status_code == 302
    sheet.refresh_from_db()
    assert sheet.name == "Lucía V."


# Details: Virtue, Vice, Tamaño, specialization (GM only)


def test_gm_changes_virtue_vice_and_tamano(client, sheet, gm):
    client.force_login(gm)
    data = {"details-virtue": "fe", "details-vice": "ira", "details-tamano": 6}
    response = client.post(url(sheet, "details_set"), data, **HTMX)
    assert response.status_code == 200
    assert 'id="sheet"' in response.text
    sheet.refresh_from_db()
    assert sheet.details == {"virtue": "fe", "vice": "ira", "tamano": 6}
    assert SheetChange.objects.filter(character=sheet, field="details:vice").exists()
    assert "<dt>Tamaño</dt><dd>6</dd>" in client.get(url(sheet)).text


def test_an_unknown_vice_is_refused_and_nothing_changes(client, sheet, gm):
    client.force_login(gm)
    data = {"details-virtue": "fe", "details-vice": "pereza_extrema", "details-tamano": 5}
    response = client.post(url(sheet, "details_set"), data)
    assert response.status_code == 200
    assert "pereza_extrema" in response.text  # the error names the bad choice
    sheet.refresh_from_db()
    assert sheet.details["vice"] == "orgullo"


def test_player_cannot_change_details(client, sheet, player):
    client.force_login(player)
    data = {"details-virtue": "fe", "details-vice": "ira", "details-tamano": 9}
    assert client.post(url(sheet, "details_set"), data).status_code == 403
    sheet.refresh_from_db()
    assert sheet.details == {"virtue": "caridad", "vice": "orgullo"}


def test_gm_chooses_the_specialization_among_the_campaigns_skills(client, gm, player):
    character = objetivo_sheet(gm, player)
    client.force_login(gm)
    response = client.post(url(character, "details_set"), {"details-specialization": "sigilo"})
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.details["specialization"] == "sigilo"
    response = client.post(url(character, "details_set"), {"details-specialization": "fuerza"})
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.details["specialization"] == "sigilo"


def test_systems_without_details_to_edit_have_no_details_form(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    assert client.post(url(character, "details_set"), {}).status_code == 404


# Pools


def willpower(character):
    return Resource.objects.get(character=character, key="willpower")


def test_owner_spends_a_willpower_point_without_javascript(client, sheet, player):
    before = willpower(sheet).current
    client.force_login(player)
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -1})
    assert response.status_code == 302
    assert response["Location"] == url(sheet) + "#pool-willpower"
    assert willpower(sheet).current == before - 1


def test_owner_changes_a_pool_with_htmx_and_gets_the_pool_back(client, sheet, player):
    client.force_login(player)
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -1}, **HTMX)
    assert response.status_code == 200
    assert 'id="pool-willpower"' in response.text
    assert "<html" not in response.text
    assert "HX-Request" in response["Vary"]


def test_a_pool_refuses_to_go_above_its_maximum_with_a_message(client, sheet, player):
    full = willpower(sheet)
    assert full.current == full.maximum
    client.force_login(player)
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": 1}, **HTMX)
    assert response.status_code == 200
    assert "La reserva ya está llena." in response.text
    assert willpower(sheet).current == full.maximum


def test_a_pool_refuses_to_go_below_zero_with_a_message(client, sheet, player):
    Resource.objects.filter(character=sheet, key="willpower").update(current=0)
    client.force_login(player)
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -1}, follow=True)
    assert "No quedan puntos que gastar." in response.text
    assert willpower(sheet).current == 0


def test_a_pool_with_no_maximum_keeps_growing_when_the_gm_adds(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    client.post(url(character, "pool_adjust", "drama_points"), {"delta": 1})
    assert Resource.objects.get(character=character, key="drama_points").current == 4


def test_an_unknown_pool_is_404(client, sheet, player):
    client.force_login(player)
    assert client.post(url(sheet, "pool_adjust", "prana"), {"delta": 1}).status_code == 404


def test_a_malformed_pool_change_is_refused(client, sheet, player):
    client.force_login(player)
    before = willpower(sheet).current
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": "x"}, **HTMX)
    assert response.status_code == 200
    assert 'role="alert"' in response.text
    assert willpower(sheet).current == before


def test_another_player_cannot_touch_my_pools(client, sheet, other_player):
    client.force_login(other_player)
    response = client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -1})
    assert response.status_code == 403


def test_gm_changes_a_players_pool(client, sheet, gm):
    client.force_login(gm)
    client.post(url(sheet, "pool_adjust", "willpower"), {"delta": -2})
    assert willpower(sheet).current == willpower(sheet).maximum - 2


# Trait ratings


def rating(character, key):
    return Trait.objects.get(character=character, key=key).rating


def test_gm_clicks_a_dot_to_set_a_rating(client, sheet, gm):
    client.force_login(gm)
    response = client.post(url(sheet, "trait_set", "fuerza"), {"rating": 4}, **HTMX)
    assert response.status_code == 200
    assert rating(sheet, "fuerza") == 4
    assert 'id="trait-fuerza"' in response.text
    # Derived values and pools come along out of band.
    assert 'id="sheet-derived" aria-labelledby="sheet-derived-title" hx-swap-oob="true"' in (
        response.text
    )
    assert SheetChange.objects.filter(character=sheet, field="trait:fuerza").exists()


def test_gm_sets_a_rating_without_javascript(client, sheet, gm):
    client.force_login(gm)
    response = client.post(url(sheet, "trait_set", "fuerza"), {"rating": 1})
    assert response.status_code == 302
    assert response["Location"].endswith("#trait-fuerza")
    assert rating(sheet, "fuerza") == 1


def test_raising_willpower_raises_the_pools_maximum(client, sheet, gm):
    client.force_login(gm)
    client.post(url(sheet, "trait_set", "fuerza_de_voluntad"), {"rating": 8}, **HTMX)
    assert willpower(sheet).maximum == 8


def test_player_cannot_raise_a_trait_by_a_forged_post(client, sheet, player):
    client.force_login(player)
    response = client.post(url(sheet, "trait_set", "fuerza"), {"rating": 5})
    assert response.status_code == 403
    assert rating(sheet, "fuerza") == 2


def test_observer_and_stranger_cannot_set_a_rating(client, sheet, observer, stranger):
    client.force_login(observer)
    assert client.post(url(sheet, "trait_set", "fuerza"), {"rating": 5}).status_code == 403
    client.force_login(stranger)
    assert client.post(url(sheet, "trait_set", "fuerza"), {"rating": 5}).status_code == 404
    assert rating(sheet, "fuerza") == 2


@pytest.mark.parametrize(("key", "value"), [("fuerza", 6), ("fuerza", 0), ("academicismo", -1)])
def test_a_rating_outside_its_range_is_refused(client, sheet, gm, key, value):
    before = rating(sheet, key)
    client.force_login(gm)
    response = client.post(url(sheet, "trait_set", key), {"rating": value}, **HTMX)
    assert response.status_code == 200
    assert "debe estar entre" in response.text
    assert rating(sheet, key) == before
    response = client.post(url(sheet, "trait_set", key), {"rating": value}, follow=True)
    assert "debe estar entre" in response.text


def test_an_unknown_trait_is_404(client, sheet, gm):
    client.force_login(gm)
    assert client.post(url(sheet, "trait_set", "telepatia"), {"rating": 1}).status_code == 404


def test_ndp_skills_have_steppers_for_the_gm(client, gm, player):
    character = ndp_sheet(gm, player)
    client.force_login(gm)
    page = client.get(url(character)).text
    assert 'id="trait-combate_c_a_c-up"' in page
    # A screen reader hears the system's name for a rating shown as a number.
    assert re.search(r'<span class="visually-hidden">[^<]+: NdP </span>', page)
    client.post(url(character, "trait_set", "combate_c_a_c"), {"rating": 6}, **HTMX)
    assert rating(character, "combate_c_a_c") == 6


# Aspects (Hitos)


def test_owner_exhausts_an_aspect(client, gm, player):
    character = hitos_sheet(gm, player)
    aspect = character.aspects.get(kind="concepto")
    client.force_login(player)
    response = client.post(
        url(character, "aspect_exhausted", aspect.pk), {"exhausted": "1"}, **HTMX
    )
    assert response.status_code == 200
    assert "agotado" in response.text
    aspect.refresh_from_db()
    assert aspect.exhausted


def test_another_player_cannot_exhaust_my_aspect(client, gm, player):
    character = hitos_sheet(gm, player)
    dora = UserFactory(username="dora")
    MembershipFactory(campaign=character.campaign, user=dora, role="player")
    aspect = character.aspects.first()
    client.force_login(dora)
    response = client.post(url(character, "aspect_exhausted", aspect.pk), {"exhausted": "1"})
    assert response.status_code == 403
    aspect.refresh_from_db()
    assert not aspect.exhausted


def test_an_aspect_of_another_sheet_is_404(client, gm, player):
    mine = hitos_sheet(gm, player)
    theirs = make_character(mine.campaign, None, name="PNJ", aspects=[("concepto", "Villano")])
    client.force_login(player)
    aspect = Aspect.objects.get(character=theirs)
    response = client.post(url(mine, "aspect_exhausted", aspect.pk), {"exhausted": "1"})
    assert response.status_code == 404


def test_gm_adds_and_removes_aspects(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    data = {"aspect-kind": "temporal", "aspect-text": "Cegado por el humo"}
    response = client.post(url(character, "aspect_add"), data, **HTMX)
    assert response.status_code == 200
    assert "Cegado por el humo" in response.text
    aspect = Aspect.objects.get(character=character, text="Cegado por el humo")
    assert aspect.duration == "scene"
    response = client.post(url(character, "aspect_remove", aspect.pk), CONFIRMED)
    assert response.status_code == 302
    assert not Aspect.objects.filter(pk=aspect.pk).exists()


def test_a_fifth_hito_is_refused(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    data = {"aspect-kind": "hito", "aspect-text": "Uno de más"}
    response = client.post(url(character, "aspect_add"), data)
    assert response.status_code == 200
    assert 'value="Uno de más"' in response.text
    assert character.aspects.filter(kind="hito").count() == 4


def test_player_cannot_add_or_remove_aspects(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(player)
    data = {"aspect-kind": "libre", "aspect-text": "Invencible"}
    assert client.post(url(character, "aspect_add"), data).status_code == 403
    aspect = character.aspects.first()
    assert client.post(url(character, "aspect_remove", aspect.pk)).status_code == 403
    assert character.aspects.count() == 7


# Specialties and merits (Mundo de Tinieblas, GM only)


def test_gm_adds_and_removes_a_specialty(client, sheet, gm):
    client.force_login(gm)
    response = client.post(
        url(sheet, "specialty_add"),
        {"specialty-skill_key": "academicismo", "specialty-name": "Historia"},
        **HTMX,
    )
    assert response.status_code == 200
    specialty = Specialty.objects.get(character=sheet, name="Historia")
    assert "Historia" in response.text
    response = client.post(url(sheet, "specialty_remove", specialty.pk), CONFIRMED)
    assert response.status_code == 302
    assert not Specialty.objects.filter(pk=specialty.pk).exists()


def test_a_specialty_on_a_skill_with_no_dots_is_refused(client, sheet, gm):
    client.force_login(gm)
    data = {"specialty-skill_key": "ocultismo", "specialty-name": "Tarot"}
    response = client.post(url(sheet, "specialty_add"), data)
    assert response.status_code == 200
    assert "Una especialidad necesita una habilidad con al menos un punto." in response.text
    assert 'value="Tarot"' in response.text  # what the GM typed is kept
    assert not Specialty.objects.filter(character=sheet, name="Tarot").exists()


def test_player_cannot_add_a_specialty_or_a_merit(client, sheet, player):
    client.force_login(player)
    data = {"specialty-skill_key": "academicismo", "specialty-name": "Historia"}
    assert client.post(url(sheet, "specialty_add"), data).status_code == 403
    merit = {"merit-key": "recursos", "merit-rating": 5}
    assert client.post(url(sheet, "merit_set"), merit).status_code == 403
    assert Merit.objects.get(character=sheet, key="recursos").rating == 2


def test_gm_adds_a_catalogue_merit_and_changes_its_dots(client, sheet, gm):
    client.force_login(gm)
    data = {"merit-key": "contactos", "merit-rating": 2, "merit-notes": "Policía"}
    response = client.post(url(sheet, "merit_set"), data, **HTMX)
    assert response.status_code == 200
    assert "Contactos" in response.text
    client.post(url(sheet, "merit_set"), {**data, "merit-rating": 3})
    merit = Merit.objects.get(character=sheet, key="contactos")
    assert (merit.rating, merit.notes) == (3, "Policía")


def test_a_merit_rating_the_catalogue_does_not_allow_is_refused(client, sheet, gm):
    client.force_login(gm)
    data = {"merit-key": "apariencia_llamativa", "merit-rating": 3}
    response = client.post(url(sheet, "merit_set"), data, **HTMX)
    assert "2, 4" in response.text
    assert Merit.objects.get(character=sheet, key="apariencia_llamativa").rating == 2


def test_the_service_also_refuses_a_merit_rating_out_of_range(sheet, gm):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.merit_set(
            character=sheet, user=gm, key="sentido_comun", name="Sentido Común", rating=2
        )


def test_gm_adds_a_custom_merit_and_removes_it(client, sheet, gm):
    client.force_login(gm)
    data = {"merit-key": "", "merit-name": "Biblioteca familiar", "merit-rating": 2}
    client.post(url(sheet, "merit_set"), data)
    merit = Merit.objects.get(character=sheet, name="Biblioteca familiar")
    assert merit.key == ""
    client.post(url(sheet, "merit_remove", merit.pk), CONFIRMED, **HTMX)
    assert not Merit.objects.filter(pk=merit.pk).exists()


def test_a_custom_merit_needs_a_name(client, sheet, gm):
    client.force_login(gm)
    response = client.post(url(sheet, "merit_set"), {"merit-key": "", "merit-rating": 2})
    assert response.status_code == 200
    assert "Elige un mérito de la lista o escribe su nombre." in response.text


def test_merits_are_not_part_of_other_systems(client, gm, player):
    character = hitos_sheet(gm, player)
    client.force_login(gm)
    data = {"merit-key": "recursos", "merit-rating": 2}
    assert client.post(url(character, "merit_set"), data).status_code == 404


@pytest.mark.parametrize(
    ("make", "list_url", "data"),
    [
        (objetivo_sheet, "aspect_add", {"aspect-kind": "libre", "aspect-text": "Terco"}),
        (hitos_sheet, "specialty_add", {"specialty-skill_key": "pelea", "specialty-name": "x"}),
        (objetivo_sheet, "item_add", {"kind": "item", "item-name": "Cuerda"}),
    ],
)
def test_a_list_the_systems_sheet_does_not_have_is_404(client, gm, player, make, list_url, data):
    character = make(gm, player)
    client.force_login(gm)
    assert client.post(url(character, list_url), data, **HTMX).status_code == 404


def test_the_sheet_links_the_stylesheet_its_system_declares(client, gm, player):
    client.force_login(gm)
    assert "css/systems/hitos.css" in client.get(url(hitos_sheet(gm, player))).text
    page = client.get(url(objetivo_sheet(gm, player))).text
    assert "css/systems/objetivo.css" in page
    assert "css/systems/hitos.css" not in page


# Equipment (3d6 + NdP, GM only)


def test_gm_adds_armour_a_weapon_and_a_shield(client, gm, player):
    character = ndp_sheet(gm, player)
    client.force_login(gm)
    armour = {
        "kind": "armour",
        "armour-name": "Coraza",
        "armour-weight_kg": "8",
        "armour-part": "torso",
        "armour-rd": 5,
        "armour-integrity": 10,
    }
    response = client.post(url(character, "item_add"), armour, **HTMX)
    assert response.status_code == 200
    assert "Coraza" in response.text
    assert 'id="sheet-derived" aria-labelledby="sheet-derived-title" hx-swap-oob="true"' in (
        response.text
    )
    weapon = {
        "kind": "weapon",
        "weapon-name": "Hacha",
        "weapon-weight_kg": "2",
        "weapon-count": 1,
        "weapon-sides": 10,
        "weapon-fixed": 0,
        "weapon-damage_type": "cortante",
        "weapon-skill": "combate_c_a_c",
        "weapon-integrity": 6,
    }
    assert client.post(url(character, "item_add"), weapon).status_code == 302
    shield = {
        "kind": "shield",
        "shield-name": "Rodela",
        "shield-weight_kg": "3",
        "shield-gdc": 2,
        "shield-integrity": 5,
    }
    client.post(url(character, "item_add"), shield)
    items = {item.name: item for item in Item.objects.filter(character=character)}
    assert items["Coraza"].data == {"part": "torso", "rd": 5, "integrity": 10}
    assert items["Hacha"].data["sides"] == 10
    assert items["Rodela"].data == {"gdc": 2, "integrity": 5}
    client.post(url(character, "item_remove", items["Rodela"].pk), CONFIRMED)
    assert not Item.objects.filter(pk=items["Rodela"].pk).exists()


def test_equipment_with_bad_stats_is_refused_and_keeps_the_input(client, gm, player):
    character = ndp_sheet(gm, player)
    client.force_login(gm)
    shield = {
        "kind": "shield",
        "shield-name": "Pavés",
        "shield-weight_kg": "-1",
        "shield-gdc": 12,
        "shield-integrity": 5,
    }
    response = client.post(url(character, "item_add"), shield)
    assert response.status_code == 200
    assert 'value="Pavés"' in response.text
    assert not Item.objects.filter(character=character).exists()


def test_player_cannot_add_equipment(client, gm, player):
    character = ndp_sheet(gm, player)
    client.force_login(player)
    data = {"kind": "item", "item-name": "Oro", "item-weight_kg": "1"}
    assert client.post(url(character, "item_add"), data).status_code == 403


def test_an_unknown_item_kind_is_404(client, gm, player):
    character = ndp_sheet(gm, player)
    client.force_login(gm)
    data = {"kind": "vehicle", "item-name": "Carro", "item-weight_kg": "1"}
    assert client.post(url(character, "item_add"), data).status_code == 404


# Query count


def fill(character, gm, count=50):
    """50 merits, specialties, items, aspects, history rows and XP entries."""
    Merit.objects.bulk_create(
        Merit(character=character, name=f"Mérito {n}", rating=1) for n in range(count)
    )
    Specialty.objects.bulk_create(
        Specialty(character=character, skill_key="academicismo", name=f"Tema {n}")
        for n in range(count)
    )
    Item.objects.bulk_create(
        Item(character=character, name=f"Cosa {n}", weight_kg=Decimal("0.1")) for n in range(count)
    )
    Aspect.objects.bulk_create(
        Aspect(character=character, kind="libre", text=f"Aspecto {n}") for n in range(count)
    )
    SheetChange.objects.bulk_create(
        SheetChange(character=character, user=gm, field="notes", new_value=str(n))
        for n in range(count)
    )
    XpEntry.objects.bulk_create(
        XpEntry(character=character, kind="award", amount=1, created_by=gm) for n in range(count)
    )


@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
@pytest.mark.parametrize("count", [0, 50])
def test_the_sheet_page_runs_at_most_17_queries_and_9_once_its_grid_is_cached(
    client, gm, player, system, count, django_assert_max_num_queries
):
    makers = {
        "hitos": hitos_sheet,
        "ndp": ndp_sheet,
        "objetivo": objetivo_sheet,
        "tinieblas": lambda gm, player: tinieblas_sheet(
            campaign_of("tinieblas", gm, player), player
        ),
    }
    character = makers[system](gm, player)
    if system == "objetivo":
        for n in range(count):
            CampaignTrait.objects.create(
                campaign=character.campaign, kind="skill", key=f"skill_{n}", name=f"Skill {n}"
            )
    fill(character, gm, count)
    connection.features.supports_json_field  # noqa: B018 (asked once per connection)
    for user in (gm, player):
        client.force_login(user)
        with django_assert_max_num_queries(17):
            response = client.get(url(character))
        assert response.status_code == 200
        with django_assert_max_num_queries(9):
            cached = client.get(url(character))
        assert cached.status_code == 200


def test_starting_willpower_follows_the_chosen_aplomo_and_compostura(campaign, player):
    character = make_character(campaign, player, ratings={"aplomo": 3, "compostura": 2})
    ratings = {t.key: t.rating for t in character.traits.all()}
    assert ratings["fuerza_de_voluntad"] == 5
    assert ratings["moralidad"] == 7
    assert character.resources.get(key="willpower").current == 5
