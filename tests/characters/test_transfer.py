import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from characters import services
from characters.models import Aspect, Character, Item, Merit, SheetChange, Specialty, Trait
from characters.transfer import FORMAT, MAX_FILE_BYTES, validate_import
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db

# A Mundo de Tinieblas sheet that follows every creation rule (docs/rules.md#tinieblas-creation).
CREATION_RATINGS = {
    # Attributes: 5 / 4 / 3 extra dots over the free one (mental, physical, social).
    "inteligencia": 3,
    "astucia": 3,
    "aplomo": 2,
    "fuerza": 2,
    "destreza": 3,
    "resistencia": 2,
    "presencia": 2,
    "manipulacion": 2,
    "compostura": 2,
    # Skills: 11 / 7 / 4.
    "academicismo": 3,
    "ciencia": 3,
    "informatica": 3,
    "investigacion": 2,
    "armamento": 3,
    "atletismo": 2,
    "pelea": 2,
    "callejeo": 2,
    "empatia": 2,
    # Willpower = Aplomo + Compostura; Moralidad starts at 7.
    "fuerza_de_voluntad": 4,
    "moralidad": 7,
}
CREATION = {
    "ratings": CREATION_RATINGS,
    "details": {"virtue": "caridad", "vice": "avaricia"},
    "specialties": [("academicismo", "Historia"), ("pelea", "Boxeo"), ("empatia", "Mentiras")],
    "merits": [("", "Mecenas", 4), ("", "Taller propio", 3)],
}


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="dora")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def character(campaign, player):
    return make_character(campaign, player, name="Lucía Ferrer", concept="Forense", **CREATION)


@pytest.fixture
def target(gm, player):
    """A second tinieblas campaign with the same GM and player, to import into."""
    other = CampaignFactory(name="Destino", created_by=gm)
    MembershipFactory(campaign=other, user=gm, role="gm")
    MembershipFactory(campaign=other, user=player, role="player")
    return other


def export_url(character) -> str:
    return reverse("characters:export", args=[character.campaign_id, character.pk])


def import_url(campaign) -> str:
    return reverse("characters:import", args=[campaign.pk])


def exported(client, character) -> dict:
    response = client.get(export_url(character))
    assert response.status_code == 200
    return json.loads(response.content)


def upload(data, name: str = "ficha.json") -> SimpleUploadedFile:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, raw, content_type="application/json")


def post_import(client, campaign, data, **extra):
    return client.post(import_url(campaign), {"file": upload(data), **extra})


# Export ------------------------------------------------------------------------------------


def test_owner_downloads_their_sheet_as_a_json_file(client, character, player):
    client.force_login(player)
    response = client.get(export_url(character))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="lucia-ferrer.json"'
    data = json.loads(response.content)
    assert data["format"] == FORMAT
    assert data["version"] == 1
    assert data["system"] == "tinieblas"
    assert data["name"] == "Lucía Ferrer"
    assert data["concept"] == "Forense"
    assert data["details"] == {"virtue": "caridad", "vice": "avaricia"}
    traits = {trait["key"]: trait for trait in data["traits"]}
    assert traits["fuerza"] == {
        "key": "fuerza",
        "kind": "attribute",
        "name": "",
        "rating": 2,
        "progress": 0,
    }
    assert {"skill": "pelea", "name": "Boxeo"} in data["specialties"]
    assert {"key": "", "name": "Mecenas", "rating": 4, "notes": ""} in data["merits"]
    assert data["resources"] == [{"key": "willpower", "current": 4, "maximum": 4}]
    assert data["health"]["boxes"] == 7


def test_export_leaves_out_owner_campaign_xp_and_history(client, character, player):
    client.force_login(player)
    data = exported(client, character)
    for key in ("owner", "campaign", "is_npc", "xp", "xp_balance", "history", "changes"):
        assert key not in data
    assert "bob" not in json.dumps(data)


def test_gm_exports_any_sheet(client, character, gm):
    client.force_login(gm)
    assert client.get(export_url(character)).status_code == 200


def test_other_player_cannot_export_a_sheet_they_cannot_see_whole(client, character, other_player):
    client.force_login(other_player)
    assert client.get(export_url(character)).status_code == 403


def test_other_player_exports_when_the_campaign_shares_full_sheets(
    client, campaign, character, other_player
):
    campaign.players_see_full_sheets = True
    campaign.save()
    client.force_login(other_player)
    assert client.get(export_url(character)).status_code == 200


def test_observer_cannot_export(client, character, observer):
    client.force_login(observer)
    assert client.get(export_url(character)).status_code == 403


def test_stranger_gets_404_for_an_export(client, character, stranger):
    client.force_login(stranger)
    assert client.get(export_url(character)).status_code == 404


def test_export_runs_a_constant_number_of_queries(
    client, character, gm, django_assert_max_num_queries
):
    client.force_login(gm)
    with django_assert_max_num_queries(12) as few:
        client.get(export_url(character))
    for number in range(30):
        services.item_add(
            character=character, user=gm, kind="item", name=f"Cosa {number}", weight_kg=1
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(export_url(character))


# Import: who may ---------------------------------------------------------------------------


def test_gm_sees_the_import_form_with_an_owner_choice(client, campaign, gm):
    client.force_login(gm)
    response = client.get(import_url(campaign))
    assert response.status_code == 200
    assert 'name="file"' in response.text
    assert 'name="owner"' in response.text


def test_player_sees_the_import_form_without_an_owner_choice(client, campaign, player):
    client.force_login(player)
    response = client.get(import_url(campaign))
    assert response.status_code == 200
    assert 'name="owner"' not in response.text


def test_player_at_the_character_limit_cannot_import(client, campaign, character, player):
    client.force_login(player)
    response = client.get(import_url(campaign))
    assert response.status_code == 403
    assert "máximo de personajes" in response.text


def test_observer_cannot_import(client, campaign, observer):
    client.force_login(observer)
    assert client.get(import_url(campaign)).status_code == 403
    assert post_import(client, campaign, {}).status_code == 403


def test_stranger_gets_404_for_the_import_page(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(import_url(campaign)).status_code == 404
    assert post_import(client, campaign, {}).status_code == 404


# Import: round trips -----------------------------------------------------------------------


def test_player_imports_their_exported_sheet_into_another_campaign(
    client, character, player, target
):
    client.force_login(player)
    data = exported(client, character)
    response = post_import(client, target, data)
    imported = Character.objects.get(campaign=target)
    assert response.status_code == 302
    assert response["Location"] == imported.get_absolute_url()
    assert imported.owner == player
    assert not imported.is_npc
    assert not imported.approved_over_budget
    assert services.ratings_of(imported) == services.ratings_of(character)
    assert set(imported.specialties.values_list("skill_key", "name")) == set(
        character.specialties.values_list("skill_key", "name")
    )
    assert set(imported.merits.values_list("key", "name", "rating")) == {
        ("", "Mecenas", 4),
        ("", "Taller propio", 3),
    }
    assert imported.details == character.details
    fields = set(imported.changes.values_list("field", flat=True))
    assert "imported" in fields
    assert imported.xp_entries.count() == 0


def test_export_then_import_gives_the_same_file_back(client, character, gm, target):
    services.resource_adjust(character=character, user=gm, key="willpower", delta=-2)
    services.character_update(character=character, user=gm, notes="Odia los hospitales.")
    client.force_login(gm)
    first = exported(client, character)
    post_import(client, target, first, owner="")
    second = exported(client, Character.objects.get(campaign=target))
    for data in (first, second):
        data.pop("exported_at")
    assert second == first


def test_a_forged_owner_from_a_player_is_ignored(client, character, player, gm, target):
    client.force_login(player)
    data = exported(client, character)
    post_import(client, target, data, owner=gm.pk)
    assert Character.objects.get(campaign=target).owner == player


def test_gm_imports_an_npc(client, character, gm, target):
    client.force_login(gm)
    data = exported(client, character)
    post_import(client, target, data, owner="")
    imported = Character.objects.get(campaign=target)
    assert imported.owner is None
    assert imported.is_npc


def test_gm_cannot_give_a_sheet_to_an_observer_or_stranger(
    client, character, gm, target, observer, stranger
):
    MembershipFactory(campaign=target, user=observer, role="observer")
    client.force_login(gm)
    data = exported(client, character)
    for user in (observer, stranger):
        response = post_import(client, target, data, owner=user.pk)
        assert response.status_code == 200
        assert response.context["form"].errors["owner"]
    assert not Character.objects.filter(campaign=target).exists()


def test_player_cannot_import_a_sheet_over_the_creation_budgets(
    client, character, gm, player, target
):
    services.trait_set(character=character, user=gm, key="fuerza", rating=5)
    client.force_login(player)
    response = post_import(client, target, exported(client, character))
    assert response.status_code == 200
    assert "solo un máster puede importarla" in response.text
    assert "Physical attributes" in str(response.context["problems"]) or any(
        "físicos" in problem.lower() for problem in response.context["problems"]
    )
    assert not Character.objects.filter(campaign=target).exists()


def test_gm_import_over_the_budgets_is_marked_approved_over_budget(client, character, gm, target):
    services.trait_set(character=character, user=gm, key="fuerza", rating=5)
    client.force_login(gm)
    post_import(client, target, exported(client, character))
    imported = Character.objects.get(campaign=target)
    assert imported.approved_over_budget
    assert imported.approved_by == gm
    assert services.ratings_of(imported)["fuerza"] == 5


def test_ndp_sheet_with_equipment_round_trips(client, gm, player):
    source = CampaignFactory(system="ndp", created_by=gm)
    target = CampaignFactory(system="ndp", created_by=gm)
    for campaign in (source, target):
        MembershipFactory(campaign=campaign, user=gm, role="gm")
    character = make_character(source, None, name="Bran", ratings={"fortitud": 3, "vitalidad": 2})
    services.item_add(character=character, user=gm, kind="item", name="Cuerda", weight_kg="2.5")
    services.item_add(
        character=character,
        user=gm,
        kind="armour",
        name="Casco",
        weight_kg=2,
        data={"part": "cabeza", "rd": 4, "integrity": 6},
    )
    services.item_add(
        character=character,
        user=gm,
        kind="weapon",
        name="Espada larga",
        weight_kg="1.5",
        data={
            "sides": 8,
            "damage_type": "cortante",
            "integrity": 10,
            "count": 1,
            "fixed": 0,
            "skill": "combate_c_a_c",
        },
    )
    services.item_add(
        character=character,
        user=gm,
        kind="shield",
        name="Rodela",
        weight_kg=3,
        data={"gdc": 3, "integrity": 8},
    )
    Trait.objects.filter(character=character, key="fortitud").update(progress=4)
    client.force_login(gm)
    data = exported(client, character)
    assert post_import(client, target, data, owner="").status_code == 302
    imported = Character.objects.get(campaign=target)
    again = exported(client, imported)
    for payload in (data, again):
        payload.pop("exported_at")
    assert again == data
    assert imported.items.get(kind="weapon").data["sides"] == 8
    assert imported.traits.get(key="fortitud").progress == 4


def test_hitos_sheet_with_aspects_round_trips(client, gm):
    source = CampaignFactory(system="hitos", created_by=gm)
    target = CampaignFactory(system="hitos", created_by=gm)
    for campaign in (source, target):
        MembershipFactory(campaign=campaign, user=gm, role="gm")
    character = make_character(
        source,
        None,
        name="Marina",
        ratings={"fortaleza": 4, "voluntad": 3, "combate": 2},
        aspects=[("concepto", "Buzo de rescate"), ("hito", "Sobreviví al naufragio")],
    )
    Aspect.objects.filter(character=character, kind="hito").update(exhausted=True)
    client.force_login(gm)
    data = exported(client, character)
    assert post_import(client, target, data, owner="").status_code == 302
    imported = Character.objects.get(campaign=target)
    assert list(imported.aspects.values_list("kind", "text", "exhausted")) == [
        ("concepto", "Buzo de rescate", False),
        ("hito", "Sobreviví al naufragio", True),
    ]


# Import: bad files -------------------------------------------------------------------------


@pytest.fixture
def gm_sheet(client, character, gm):
    client.force_login(gm)
    return exported(client, character)


def problems_for(client, campaign, data) -> list[str]:
    response = post_import(client, campaign, data, owner="")
    assert response.status_code == 200
    assert not Character.objects.filter(campaign=campaign).exists()
    return [str(problem) for problem in response.context["problems"]] + [
        str(error) for errors in response.context["form"].errors.values() for error in errors
    ]


def test_a_file_that_is_not_json_is_refused(client, gm_sheet, target):
    assert problems_for(client, target, b"\x89PNG\r\n") == [
        "El archivo no es texto en UTF-8: no es un archivo de personaje."
    ]
    assert problems_for(client, target, b"{nombre: Lucia")[0].startswith(
        "El archivo no es JSON válido"
    )


def test_a_json_file_that_is_not_a_character_is_refused(client, gm_sheet, target):
    (problem,) = problems_for(client, target, {"hello": "world"})
    assert "no es un archivo de personaje de Crónica" in problem
    (problem,) = problems_for(client, target, [1, 2, 3])
    assert "no es un archivo de personaje de Crónica" in problem


def test_a_file_of_another_version_is_refused(client, gm_sheet, target):
    (problem,) = problems_for(client, target, {**gm_sheet, "version": 2})
    assert "versión de formato 2" in problem


def test_a_sheet_of_another_system_is_refused(client, gm_sheet, gm):
    hitos = CampaignFactory(system="hitos", created_by=gm)
    MembershipFactory(campaign=hitos, user=gm, role="gm")
    (problem,) = problems_for(client, hitos, gm_sheet)
    assert "Mundo de Tinieblas" in problem
    assert "Hitos" in problem


def test_an_unknown_trait_is_named(client, gm_sheet, target):
    data = {**gm_sheet, "traits": [*gm_sheet["traits"], {"key": "telekinesis", "rating": 3}]}
    (problem,) = problems_for(client, target, data)
    assert "telekinesis" in problem


def test_a_rating_out_of_range_is_named(client, gm_sheet, target):
    traits = [
        {**trait, "rating": 9} if trait["key"] == "fuerza" else trait
        for trait in gm_sheet["traits"]
    ]
    (problem,) = problems_for(client, target, {**gm_sheet, "traits": traits})
    assert problem == "Fuerza vale 9; debe estar entre 1 y 5."


def test_a_rating_that_is_not_a_number_is_refused(client, gm_sheet, target):
    traits = [
        {**trait, "rating": "3"} if trait["key"] == "fuerza" else trait
        for trait in gm_sheet["traits"]
    ]
    assert "Fuerza" in problems_for(client, target, {**gm_sheet, "traits": traits})[0]


def test_missing_fields_are_named(client, gm_sheet, target):
    without_name = {key: value for key, value in gm_sheet.items() if key != "name"}
    assert problems_for(client, target, without_name) == ["Al archivo le falta «name»."]
    without_traits = {key: value for key, value in gm_sheet.items() if key != "traits"}
    assert problems_for(client, target, without_traits) == ["Al archivo le falta «traits»."]


def test_every_problem_of_a_file_is_listed(client, gm_sheet, target):
    data = {
        **gm_sheet,
        "name": "",
        "traits": [{"key": "nope", "rating": 1}, {"key": "fuerza", "rating": 0}],
        "merits": [{"key": "", "name": "Mecenas", "rating": 9}],
    }
    assert len(problems_for(client, target, data)) == 4


def test_a_pool_over_its_maximum_is_refused(client, gm_sheet, target):
    data = {**gm_sheet, "resources": [{"key": "willpower", "current": 9, "maximum": 9}]}
    (problem,) = problems_for(client, target, data)
    assert "Fuerza de Voluntad" in problem
    assert "entre 0 y 4" in problem


def test_a_health_state_the_engine_refuses_is_named(client, gm_sheet, target):
    data = {**gm_sheet, "health": {**gm_sheet["health"], "marks": "BLA"}}
    (problem,) = problems_for(client, target, data)
    assert problem.startswith("El estado de salud no es válido para Mundo de Tinieblas")
    data = {**gm_sheet, "health": {"boxes": "many"}}
    assert problems_for(client, target, data)[0].startswith("El estado de salud no es válido")


def test_a_specialty_on_a_skill_without_dots_is_refused(client, gm_sheet, target):
    data = {**gm_sheet, "specialties": [{"skill": "sigilo", "name": "Tejados"}]}
    (problem,) = problems_for(client, target, data)
    assert "Sigilo" in problem


def test_an_unknown_virtue_is_refused(client, gm_sheet, target):
    data = {**gm_sheet, "details": {"virtue": "puntualidad", "vice": "avaricia"}}
    assert "puntualidad" in problems_for(client, target, data)[0]


def test_aspects_on_a_system_without_aspects_are_refused(client, gm_sheet, target):
    data = {**gm_sheet, "aspects": [{"kind": "concepto", "text": "Forense"}]}
    assert problems_for(client, target, data) == [
        "Las fichas de Mundo de Tinieblas no tienen aspectos."
    ]


def test_a_file_over_256_kb_is_refused(client, gm_sheet, target):
    data = {**gm_sheet, "notes": "x" * (MAX_FILE_BYTES + 10)}
    (problem,) = problems_for(client, target, data)
    assert "256 KB" in problem


def test_too_many_rows_are_refused(client, gm, gm_sheet):
    ndp = CampaignFactory(system="ndp", created_by=gm)
    MembershipFactory(campaign=ndp, user=gm, role="gm")
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "ndp",
        "name": "Acaparador",
        "traits": [],
        "items": [{"kind": "item", "name": "Piedra", "weight_kg": 0}] * 301,
    }
    assert "como máximo 300" in problems_for(client, ndp, data)[0]


def test_a_file_failing_at_its_last_item_imports_nothing(client, gm):
    client.force_login(gm)
    ndp = CampaignFactory(system="ndp", created_by=gm)
    MembershipFactory(campaign=ndp, user=gm, role="gm")
    items = [{"kind": "item", "name": f"Cosa {n}", "weight_kg": 1, "data": {}} for n in range(5)]
    items.append(
        {"kind": "armour", "name": "Yelmo roto", "weight_kg": 2, "data": {"part": "cola", "rd": 2}}
    )
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "ndp",
        "name": "Bran",
        "traits": [{"key": "fortitud", "rating": 3}],
        "items": items,
    }
    traits_before = Trait.objects.count()
    (problem,) = problems_for(client, ndp, data)
    assert problem.startswith("Yelmo roto")
    assert Character.objects.count() == 0
    assert Trait.objects.count() == traits_before == 0
    assert Item.objects.count() == 0


def test_a_failure_while_writing_the_last_item_rolls_everything_back(
    gm, player, campaign, monkeypatch
):
    """Validation passes; the database refuses the last row: nothing stays written."""
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "tinieblas",
        "name": "Lucía",
        "traits": [{"key": "fuerza", "rating": 2}],
        "merits": [{"key": "", "name": "Mecenas", "rating": 2}],
    }
    real_bulk_create = Merit.objects.bulk_create

    def failing_bulk_create(rows, *args, **kwargs):
        rows = list(rows)
        real_bulk_create(rows[:-1], *args, **kwargs)
        raise RuntimeError("disk full")

    monkeypatch.setattr(Merit.objects, "bulk_create", failing_bulk_create)
    with pytest.raises(RuntimeError):
        services.character_import(
            campaign=campaign, user=gm, owner=None, data=data, approve_over_budget=True
        )
    assert Character.objects.count() == 0
    assert Trait.objects.count() == 0
    assert SheetChange.objects.count() == 0
    assert Specialty.objects.count() == 0


def test_a_player_import_respects_the_character_limit_at_write_time(campaign, player):
    data = {"format": FORMAT, "version": 1, "system": "tinieblas", "name": "A", "traits": []}
    make_character(campaign, player, name="Ya tengo una")
    with pytest.raises(ValidationError):
        services.character_import(
            campaign=campaign,
            user=player,
            owner=player,
            data=data,
            approve_over_budget=True,
            owner_limit=campaign.max_characters_per_player,
        )


# Import: the other systems' checks ---------------------------------------------------------


def test_objetivo_import_checks_the_campaign_trait_lists(gm):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    base = {"format": FORMAT, "version": 1, "system": "objetivo", "name": "Fred"}
    data = {
        **base,
        "traits": [{"key": "sigilo", "rating": 4}],
        "details": {"specialization": "sigilo"},
    }
    assert validate_import(data, campaign=campaign).ratings == {"sigilo": 4}
    services.campaign_trait_remove(campaign=campaign, user=gm, key="sigilo")
    with pytest.raises(ValidationError) as refused:
        validate_import(data, campaign=campaign)
    messages = refused.value.messages
    assert any("sigilo" in message for message in messages)


def test_objetivo_import_drops_the_scene_a_specialization_was_used_in(gm):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "objetivo",
        "name": "Fred",
        "traits": [],
        "details": {"specialization": "pelea", "specialization_used_scene": 41},
    }
    assert validate_import(data, campaign=campaign).details == {"specialization": "pelea"}


def test_hitos_import_refuses_a_fifth_hito(gm):
    campaign = CampaignFactory(system="hitos", created_by=gm)
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "hitos",
        "name": "Marina",
        "traits": [],
        "aspects": [{"kind": "hito", "text": f"Hito {n}"} for n in range(5)],
    }
    with pytest.raises(ValidationError) as refused:
        validate_import(data, campaign=campaign)
    assert len(refused.value.messages) == 1


def test_hitos_import_refuses_more_lost_resistencia_than_the_sheet_has(gm):
    campaign = CampaignFactory(system="hitos", created_by=gm)
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "hitos",
        "name": "Marina",
        "traits": [{"key": "fortaleza", "rating": 1}, {"key": "voluntad", "rating": 1}],
        "health": {"aguante": 9, "lost": 20},
    }
    with pytest.raises(ValidationError):
        validate_import(data, campaign=campaign)


def test_ndp_import_refuses_a_weapon_the_engine_refuses(gm):
    campaign = CampaignFactory(system="ndp", created_by=gm)
    data = {
        "format": FORMAT,
        "version": 1,
        "system": "ndp",
        "name": "Bran",
        "traits": [],
        "items": [
            {
                "kind": "weapon",
                "name": "Lanza",
                "weight_kg": 2,
                "data": {"sides": 8, "damage_type": "fuego", "integrity": 5, "skill": "pelea"},
            }
        ],
    }
    with pytest.raises(ValidationError) as refused:
        validate_import(data, campaign=campaign)
    assert refused.value.messages[0].startswith("Lanza: ")
