"""Character creation views: who may create, the guided Tinieblas form and its budgets,
GM approval over budget, forged fields, the htmx points partial, the other systems."""

import pytest
from django.urls import reverse

from characters.models import Character, SheetChange
from mechanics.rules.tinieblas import catalogue
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character
from tests.html import parse

MENTAL = [skill.key for skill in catalogue.skills_in("mental")]
PHYSICAL = [skill.key for skill in catalogue.skills_in("physical")]
SOCIAL = [skill.key for skill in catalogue.skills_in("social")]
VIRTUE = catalogue.VIRTUES[0]
VICE = catalogue.VICES[0]


def create_url(campaign) -> str:
    return reverse("characters:create", args=[campaign.pk])


def valid_tinieblas(**overrides) -> dict[str, str]:
    """A sheet within every budget: attributes 5/4/3, skills 11/7/4 (one fifth dot),
    3 specialties, 7 merit dots, a Virtue and a Vice."""
    data = {
        "name": "Lucía Ferrer",
        "concept": "Forense curiosa",
        "description": "Trabaja de noche.",
        # Mental 5 points, physical 4, social 3.
        "attr_inteligencia": "3",
        "attr_astucia": "3",
        "attr_aplomo": "2",
        "attr_fuerza": "2",
        "attr_destreza": "3",
        "attr_resistencia": "2",
        "attr_presencia": "2",
        "attr_manipulacion": "2",
        "attr_compostura": "2",
        # Mental 11 (a fifth dot costs 2), physical 7, social 4.
        f"skill_{MENTAL[0]}": "5",
        f"skill_{MENTAL[1]}": "3",
        f"skill_{MENTAL[2]}": "2",
        f"skill_{PHYSICAL[0]}": "3",
        f"skill_{PHYSICAL[1]}": "2",
        f"skill_{PHYSICAL[2]}": "2",
        f"skill_{SOCIAL[0]}": "2",
        f"skill_{SOCIAL[1]}": "2",
        "specialty_0_skill": MENTAL[0],
        "specialty_0_name": "Autopsias",
        "specialty_1_skill": MENTAL[0],
        "specialty_1_name": "Venenos",
        "specialty_2_skill": SOCIAL[0],
        "specialty_2_name": "Interrogatorios",
        "merit_0_key": "sentido_comun",
        "merit_0_dots": "4",
        "merit_1_key": "custom",
        "merit_1_name": "Contactos en la morgue",
        "merit_1_dots": "3",
        "virtue": VIRTUE.key,
        "vice": VICE.key,
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


@pytest.fixture
def player2(campaign):
    user = UserFactory(username="paula")
    MembershipFactory(campaign=campaign, user=user, role="player")
    return user


@pytest.fixture
def campaign_of(gm, player):
    """A campaign of another system with the usual GM and player."""

    def make(system: str):
        campaign = CampaignFactory(created_by=gm, system=system)
        MembershipFactory(campaign=campaign, user=gm, role="gm")
        MembershipFactory(campaign=campaign, user=player, role="player")
        return campaign

    return make


# Who may create ------------------------------------------------------------------------------


def test_gm_sees_the_guided_form_with_owner_choice_and_approval(client, campaign, gm):
    client.force_login(gm)
    response = client.get(create_url(campaign))
    assert response.status_code == 200
    html = response.text
    assert 'name="owner"' in html
    assert 'name="approve_over_budget"' in html
    assert 'name="attr_fuerza"' in html
    assert VIRTUE.effect in html  # the seed's texts are on the page
    assert VICE.possessed_by in html


def test_player_sees_the_form_without_owner_or_approval(client, campaign, player):
    client.force_login(player)
    response = client.get(create_url(campaign))
    assert response.status_code == 200
    assert 'name="owner"' not in response.text
    assert 'name="approve_over_budget"' not in response.text


def test_player_creates_a_valid_tinieblas_character_and_lands_on_the_sheet(
    client, campaign, player
):
    client.force_login(player)
    response = client.post(create_url(campaign), valid_tinieblas())
    character = Character.objects.get()
    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    assert character.owner == player
    assert character.campaign == campaign
    assert not character.is_npc
    assert not character.approved_over_budget
    assert character.concept == "Forense curiosa"
    assert character.details == {"virtue": VIRTUE.key, "vice": VICE.key}
    ratings = {trait.key: trait.rating for trait in character.traits.all()}
    assert ratings["inteligencia"] == 3
    assert ratings[MENTAL[0]] == 5
    assert ratings[SOCIAL[2]] == 0
    assert ratings["fuerza_de_voluntad"] == 4  # Aplomo 2 + Compostura 2
    assert ratings["moralidad"] == 7
    assert character.resources.get(key="willpower").current == 4
    assert sorted(character.specialties.values_list("skill_key", "name")) == sorted(
        [(MENTAL[0], "Autopsias"), (MENTAL[0], "Venenos"), (SOCIAL[0], "Interrogatorios")]
    )
    assert sorted(character.merits.values_list("key", "name", "rating")) == [
        ("", "Contactos en la morgue", 3),
        ("sentido_comun", "Sentido Común", 4),
    ]
    assert SheetChange.objects.filter(character=character, field="created", user=player).exists()


def test_player_over_the_limit_is_refused_with_a_clear_message(client, campaign, player):
    make_character(campaign, player, name="Primera")
    client.force_login(player)
    response = client.get(create_url(campaign))
    assert response.status_code == 403
    assert "(1)" in response.text
    response = client.post(create_url(campaign), valid_tinieblas())
    assert response.status_code == 403
    assert Character.objects.count() == 1


def test_player_may_create_up_to_the_campaigns_limit(client, campaign, player):
    campaign.max_characters_per_player = 2
    campaign.save()
    make_character(campaign, player, name="Primera")
    client.force_login(player)
    response = client.post(create_url(campaign), valid_tinieblas(name="Segunda"))
    assert response.status_code == 302
    assert player.characters.count() == 2


def test_another_players_characters_do_not_count_toward_the_limit(
    client, campaign, player, player2
):
    make_character(campaign, player2, name="De Paula")
    make_character(campaign, None, name="Un PNJ")
    client.force_login(player)
    assert client.get(create_url(campaign)).status_code == 200


def test_the_service_refuses_a_player_past_the_limit_even_if_the_view_was_passed(campaign, player):
    from django.core.exceptions import ValidationError

    from characters.services import character_create

    make_character(campaign, player, name="Primera")
    with pytest.raises(ValidationError):
        character_create(
            campaign=campaign, user=player, owner=player, name="Segunda", owner_limit=1
        )


def test_observer_is_refused(client, campaign, observer):
    client.force_login(observer)
    response = client.get(create_url(campaign))
    assert response.status_code == 403
    assert "observadores" in response.text
    assert client.post(create_url(campaign), valid_tinieblas()).status_code == 403
    assert not Character.objects.exists()


def test_stranger_gets_404(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(create_url(campaign)).status_code == 404
    assert client.post(create_url(campaign), valid_tinieblas()).status_code == 404
    assert not Character.objects.exists()


def test_anonymous_visitor_is_sent_to_log_in(client, campaign):
    response = client.get(create_url(campaign))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_gm_creates_a_character_for_a_player_beyond_the_limit(client, campaign, gm, player):
    make_character(campaign, player, name="Primera")
    client.force_login(gm)
    response = client.post(create_url(campaign), valid_tinieblas(owner=str(player.pk)))
    assert response.status_code == 302
    assert player.characters.count() == 2


def test_gm_creates_an_npc_by_leaving_the_owner_empty(client, campaign, gm):
    client.force_login(gm)
    response = client.post(create_url(campaign), valid_tinieblas(owner=""))
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.owner is None
    assert character.is_npc


def test_gm_cannot_give_a_character_to_a_stranger_or_an_observer(
    client, campaign, gm, stranger, observer
):
    client.force_login(gm)
    for user in (stranger, observer):
        response = client.post(create_url(campaign), valid_tinieblas(owner=str(user.pk)))
        assert response.status_code == 200
    assert not Character.objects.exists()


# Budgets ---------------------------------------------------------------------------------------

BROKEN = [
    pytest.param(
        {"attr_inteligencia": "4"},
        ["Atributos Mentales: 6 de 5 puntos gastados"],
        id="attributes-mental",
    ),
    pytest.param(
        {"attr_fuerza": "1"},
        ["Atributos Físicos: 3 de 4 puntos gastados"],
        id="attributes-physical",
    ),
    pytest.param(
        {"attr_presencia": "3"},
        ["Atributos Sociales: 4 de 3 puntos gastados"],
        id="attributes-social",
    ),
    pytest.param(
        {f"skill_{MENTAL[3]}": "1"},
        ["Habilidades Mentales: 12 de 11 puntos gastados"],
        id="skills-mental",
    ),
    pytest.param(
        {f"skill_{PHYSICAL[0]}": "5"},
        ["Habilidades Físicas: 10 de 7 puntos gastados"],
        id="skills-physical-fifth-dot-costs-two",
    ),
    pytest.param(
        {f"skill_{SOCIAL[1]}": "0"},
        ["Habilidades Sociales: 2 de 4 puntos gastados"],
        id="skills-social",
    ),
    pytest.param(
        {"specialty_2_skill": "", "specialty_2_name": ""},
        ["Elige exactamente 3 especialidades (has elegido 2)"],
        id="specialties-count",
    ),
    pytest.param(
        {"specialty_2_skill": SOCIAL[5]},
        ["La especialidad «Interrogatorios» está en una habilidad sin puntos"],
        id="specialty-on-a-skill-without-dots",
    ),
    pytest.param(
        {"merit_1_dots": "2"},
        ["Méritos: 6 de 7 puntos gastados"],
        id="merit-dots",
    ),
    pytest.param(
        {"merit_0_dots": "3", "merit_1_dots": "4"},
        ["Sentido Común no puede tener 3 puntos (permitidos: 4)"],
        id="merit-rating-not-allowed",
    ),
    pytest.param({"virtue": None}, ["Elige una Virtud"], id="virtue"),
    pytest.param({"vice": None}, ["Elige un Vicio"], id="vice"),
]


@pytest.mark.parametrize(("changes", "messages"), BROKEN)
def test_each_broken_budget_gives_its_message_and_keeps_the_input(
    client, campaign, player, changes, messages
):
    client.force_login(player)
    data = valid_tinieblas(**changes)
    response = client.post(create_url(campaign), data)
    assert response.status_code == 200
    assert not Character.objects.exists()
    html = response.text
    problems = html.split('id="creation-problems"')[1].split("</ul>")[0]
    for message in messages:
        assert message in problems
    assert problems.count("<li>") == len(messages)  # one message per broken rule
    # Everything entered is still there.
    assert 'value="Lucía Ferrer"' in html
    assert "Forense curiosa" in html
    assert 'name="attr_destreza" value="3" checked' in html
    assert f'name="skill_{MENTAL[1]}" value="3" checked' in html
    assert 'value="Contactos en la morgue"' in html
    for key, value in changes.items():
        if key.startswith(("attr_", "skill_")) and value:
            assert f'name="{key}" value="{value}" checked' in html


def test_several_broken_budgets_give_one_message_each(client, campaign, player):
    client.force_login(player)
    data = valid_tinieblas(attr_inteligencia="4", attr_fuerza="1", virtue=None)
    response = client.post(create_url(campaign), data)
    problems = response.text.split('id="creation-problems"')[1].split("</ul>")[0]
    assert problems.count("<li>") == 3


def test_english_messages_come_from_the_engine(client, campaign, player):
    client.force_login(player)
    client.cookies["django_language"] = "en"
    response = client.post(create_url(campaign), valid_tinieblas(attr_inteligencia="4"))
    assert "Mental attributes: 6 points spent of 5" in response.text


def test_missing_name_is_a_field_error_and_keeps_the_dots(client, campaign, player):
    client.force_login(player)
    response = client.post(create_url(campaign), valid_tinieblas(name=""))
    assert response.status_code == 200
    assert not Character.objects.exists()
    assert 'name="attr_destreza" value="3" checked' in response.text
    assert "is-invalid" in response.text


# GM approval and forged fields ---------------------------------------------------------------


def test_gm_approves_a_sheet_over_budget(client, campaign, gm, player):
    client.force_login(gm)
    data = valid_tinieblas(owner=str(player.pk), attr_inteligencia="5", approve_over_budget="on")
    response = client.post(create_url(campaign), data)
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.approved_over_budget
    assert character.approved_by == gm
    assert character.owner == player


def test_gm_without_ticking_approval_sees_the_budget_messages(client, campaign, gm):
    client.force_login(gm)
    response = client.post(create_url(campaign), valid_tinieblas(attr_inteligencia="5"))
    assert response.status_code == 200
    assert "Atributos Mentales: 8 de 5 puntos gastados" in response.text
    assert not Character.objects.exists()


def test_gm_approval_does_not_cover_an_invalid_sheet(client, campaign, gm):
    """Approval lifts the budgets, not the rules that make a sheet valid."""
    client.force_login(gm)
    data = valid_tinieblas(
        attr_inteligencia="5", specialty_2_skill=SOCIAL[5], approve_over_budget="on"
    )
    response = client.post(create_url(campaign), data)
    assert response.status_code == 200
    assert "está en una habilidad sin puntos" in response.text
    assert "Atributos Mentales" not in response.text.split('id="creation-problems"')[1]
    assert not Character.objects.exists()


def test_gm_approval_of_a_sheet_within_budget_does_not_mark_it(client, campaign, gm):
    client.force_login(gm)
    response = client.post(create_url(campaign), valid_tinieblas(approve_over_budget="on"))
    assert response.status_code == 302
    assert not Character.objects.get().approved_over_budget


def test_player_cannot_approve_over_budget_with_a_forged_field(client, campaign, player):
    client.force_login(player)
    data = valid_tinieblas(attr_inteligencia="5", approve_over_budget="on")
    response = client.post(create_url(campaign), data)
    assert response.status_code == 200
    assert "Atributos Mentales: 8 de 5 puntos gastados" in response.text
    assert not Character.objects.exists()


def test_player_forged_owner_and_campaign_are_ignored(client, campaign, player, player2):
    other = CampaignFactory(system="tinieblas")
    MembershipFactory(campaign=other, user=player, role="player")
    client.force_login(player)
    data = valid_tinieblas(owner=str(player2.pk), campaign=str(other.pk), is_npc="on")
    response = client.post(create_url(campaign), data)
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.owner == player
    assert character.campaign == campaign
    assert not character.is_npc


def test_forged_rating_outside_its_range_is_refused(client, campaign, player):
    client.force_login(player)
    response = client.post(create_url(campaign), valid_tinieblas(attr_fuerza="7"))
    assert response.status_code == 200
    assert "Fuerza debe estar entre 1 y 5" in response.text
    assert not Character.objects.exists()


def test_forged_unknown_merit_and_virtue_are_refused(client, campaign, player):
    client.force_login(player)
    response = client.post(
        create_url(campaign), valid_tinieblas(merit_0_key="telepatia", virtue="avaricia")
    )
    assert response.status_code == 200
    assert not Character.objects.exists()


# Points left ------------------------------------------------------------------------------------


def test_htmx_request_gets_only_the_points_partial(client, campaign, player):
    client.force_login(player)
    data = {"points": "1", "attr_inteligencia": "5", "attr_aplomo": "3", "attr_compostura": "4"}
    response = client.post(create_url(campaign), data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.text
    assert html.lstrip().startswith('<div id="creation-points"')
    assert "<form" not in html
    # Inteligencia 5 costs 5 points (the fifth dot counts double), Aplomo 3 costs 2.
    assert 'data-budget="attributes-mental"' in html
    row = html.split('data-budget="attributes-mental"')[1].split("</tr>")[0]
    assert '<td class="text-end">7</td>' in row
    # The section badges and Willpower are swapped out of band.
    assert 'id="status-attributes-mental" hx-swap-oob="true"' in html
    assert 'id="willpower-value" hx-swap-oob="true">7 ' in html
    assert not Character.objects.exists()


def test_points_partial_never_fails_on_garbage(client, campaign, player):
    client.force_login(player)
    data = {"points": "1", "attr_fuerza": "banana", "skill_pelea": "-4", "merit_0_dots": "x"}
    response = client.post(create_url(campaign), data, headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_check_points_without_javascript_re_renders_the_form_with_counts(client, campaign, player):
    client.force_login(player)
    data = valid_tinieblas(attr_inteligencia="4", name="", check="1")
    response = client.post(create_url(campaign), data)
    assert response.status_code == 200
    html = response.text
    assert not Character.objects.exists()
    assert 'id="creation-problems"' not in html  # counting is not submitting
    assert "is-invalid" not in html
    assert 'name="attr_inteligencia" value="4" checked' in html
    row = html.split('data-budget="attributes-mental"')[1].split("</tr>")[0]
    assert "data-left>-1</td>" in row
    assert 'id="left-attributes-mental"' in html


def test_observer_and_stranger_get_no_points_partial(client, campaign, observer, stranger):
    for user, status in ((observer, 403), (stranger, 404)):
        client.force_login(user)
        response = client.post(
            create_url(campaign), {"points": "1"}, headers={"HX-Request": "true"}
        )
        assert response.status_code == status


# Query counts ---------------------------------------------------------------------------------


def test_form_and_creation_run_a_bounded_number_of_queries(
    client, campaign, gm, player, django_assert_max_num_queries
):
    for _ in range(10):
        MembershipFactory(campaign=campaign)
    client.force_login(player)
    with django_assert_max_num_queries(6):
        assert client.get(create_url(campaign)).status_code == 200
    with django_assert_max_num_queries(6):
        client.post(create_url(campaign), {"points": "1"}, headers={"HX-Request": "true"})
    with django_assert_max_num_queries(16):
        assert client.post(create_url(campaign), valid_tinieblas()).status_code == 302
    client.force_login(gm)
    with django_assert_max_num_queries(6):
        assert client.get(create_url(campaign)).status_code == 200


# Other systems ------------------------------------------------------------------------------


def test_hitos_character_with_aspects(client, campaign_of, player):
    campaign = campaign_of("hitos")
    client.force_login(player)
    response = client.get(create_url(campaign))
    assert response.status_code == 200
    assert 'name="trait_fortaleza"' in response.text
    assert 'name="aspect_hito_3"' in response.text
    data = {
        "name": "Irene",
        "trait_fortaleza": "4",
        "trait_reflejos": "3",
        "trait_voluntad": "2",
        "trait_intelecto": "3",
        "trait_combate": "2",
        "concept": "Periodista sin miedo",
        "aspect_cita_0": "«La verdad primero»",
        "aspect_hito_0": "Sobrevivió al incendio",
        "aspect_complicacion_0": "Deudas",
    }
    response = client.post(create_url(campaign), data)
    assert response.status_code == 302
    character = Character.objects.get()
    ratings = {trait.key: trait.rating for trait in character.traits.all()}
    assert ratings["fortaleza"] == 4
    assert ratings["percepcion"] == 0  # left at its minimum
    assert list(character.aspects.values_list("kind", "text")) == [
        ("concepto", "Periodista sin miedo"),
        ("cita", "«La verdad primero»"),
        ("hito", "Sobrevivió al incendio"),
        ("complicacion", "Deudas"),
    ]
    assert character.resources.get(key="drama_points").current == 3


def test_hitos_creation_asks_the_concept_once_and_it_is_the_concepto_aspect(
    client, campaign_of, player
):
    campaign = campaign_of("hitos")
    client.force_login(player)
    page = parse(client.get(create_url(campaign)).text)
    concepts = [field for field in page.find_all("input") if "concept" in field.attrs["name"]]
    assert [field.attrs["name"] for field in concepts] == ["concept"]
    help_text = page.one(id="id_concept_helptext").text()
    assert "También es el aspecto Concepto" in help_text
    data = {"name": "Irene", "concept": "Periodista sin miedo", "aspect_hito_0": "Sobrevivió"}
    assert client.post(create_url(campaign), data).status_code == 302
    character = Character.objects.get()
    assert character.concept == "Periodista sin miedo"
    assert list(character.aspects.values_list("kind", "text")) == [
        ("concepto", "Periodista sin miedo"),
        ("hito", "Sobrevivió"),
    ]


def test_hitos_creation_without_a_concept_has_no_concepto_aspect(client, campaign_of, player):
    campaign = campaign_of("hitos")
    client.force_login(player)
    data = {"name": "Irene", "aspect_cita_0": "«La verdad primero»"}
    assert client.post(create_url(campaign), data).status_code == 302
    character = Character.objects.get()
    assert (character.concept, list(character.aspects.values_list("kind", flat=True))) == (
        "",
        ["cita"],
    )


def test_a_refused_hitos_creation_keeps_the_concept_and_the_aspects_typed(
    client, campaign_of, player
):
    campaign = campaign_of("hitos")
    client.force_login(player)
    data = {
        "name": "Irene",
        "concept": "Periodista sin miedo",
        "aspect_cita_0": "«La verdad primero»",
        "trait_fortaleza": "14",
    }
    response = client.post(create_url(campaign), data)
    assert response.status_code == 200
    assert not Character.objects.exists()
    page = parse(response.text)
    assert page.one("input", name="concept").attrs["value"] == "Periodista sin miedo"
    assert page.one("input", name="aspect_cita_0").attrs["value"] == "«La verdad primero»"


def test_other_systems_keep_the_concept_without_an_aspect(client, campaign_of, player):
    campaign = campaign_of("objetivo")
    client.force_login(player)
    data = {"name": "Fred", "concept": "Piloto", "specialization": "pelea"}
    assert client.post(create_url(campaign), data).status_code == 302
    character = Character.objects.get()
    assert character.concept == "Piloto"
    assert not character.aspects.exists()
    assert "aspecto Concepto" not in client.get(create_url(campaign)).text


def test_hitos_rating_out_of_range_is_a_form_error_and_keeps_the_input(client, campaign_of, player):
    campaign = campaign_of("hitos")
    client.force_login(player)
    response = client.post(
        create_url(campaign), {"name": "Irene", "trait_fortaleza": "14", "trait_combate": "-1"}
    )
    assert response.status_code == 200
    assert not Character.objects.exists()
    html = response.text
    assert 'value="14"' in html
    assert 'value="Irene"' in html
    assert html.count("is-invalid") >= 2


def test_ndp_character_with_skill_levels(client, campaign_of, gm):
    campaign = campaign_of("ndp")
    client.force_login(gm)
    data = {"name": "Arquero", "owner": str(gm.pk), "trait_fortitud": "3", "trait_arcano": "2"}
    response = client.post(create_url(campaign), data)
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.owner == gm
    assert character.traits.get(key="fortitud").rating == 3
    assert character.traits.count() == 51


def test_objetivo_character_with_specialization(client, campaign_of, player):
    campaign = campaign_of("objetivo")
    client.force_login(player)
    response = client.post(
        create_url(campaign),
        {"name": "Fred", "trait_fuerza": "5", "trait_resistencia": "6", "specialization": "pelea"},
    )
    assert response.status_code == 302
    character = Character.objects.get()
    assert character.details == {"specialization": "pelea"}
    assert character.health == {"max_pv": 12, "pv": 12}  # PV = Resistencia × 2


def test_objetivo_specialization_must_be_a_campaign_skill(client, campaign_of, player):
    campaign = campaign_of("objetivo")
    client.force_login(player)
    response = client.post(create_url(campaign), {"name": "Fred", "specialization": "fuerza"})
    assert response.status_code == 200
    assert not Character.objects.exists()


def test_objetivo_uses_the_campaigns_own_lists(client, campaign_of, player):
    from characters.models import CampaignTrait

    campaign = campaign_of("objetivo")
    CampaignTrait.objects.create(campaign=campaign, kind="attribute", key="brio", name="Brío")
    CampaignTrait.objects.create(campaign=campaign, kind="skill", key="hackeo", name="Hackeo")
    client.force_login(player)
    response = client.get(create_url(campaign))
    assert 'name="trait_brio"' in response.text
    assert 'name="trait_fuerza"' not in response.text
    response = client.post(
        create_url(campaign), {"name": "Neo", "trait_brio": "4", "specialization": "hackeo"}
    )
    assert response.status_code == 302
    assert Character.objects.get().traits.get(key="brio").rating == 4


# Campaign dashboard -------------------------------------------------------------------------


def test_dashboard_lists_characters_with_links_owner_and_badges(client, campaign, gm, player):
    mine = make_character(campaign, player, name="Lucía")
    npc = make_character(campaign, None, name="El Barman")
    Character.objects.filter(pk=mine.pk).update(approved_over_budget=True)
    client.force_login(gm)
    html = client.get(campaign.get_absolute_url()).text
    section = html.split('id="characters"')[1].split("</section>")[0]
    assert f'href="{mine.get_absolute_url()}"' in section
    assert f'href="{npc.get_absolute_url()}"' in section
    assert "bob" in section
    assert "PNJ" in section
    assert "aprobado con exceso de puntos" in section
    assert create_url(campaign) in section


def test_dashboard_hides_the_approval_badge_from_players_and_the_button_past_the_limit(
    client, campaign, player
):
    mine = make_character(campaign, player, name="Lucía")
    Character.objects.filter(pk=mine.pk).update(approved_over_budget=True)
    client.force_login(player)
    section = client.get(campaign.get_absolute_url()).text.split('id="characters"')[1]
    section = section.split("</section>")[0]
    assert "Lucía" in section
    assert "presupuesto" not in section
    assert create_url(campaign) not in section


def test_dashboard_offers_new_character_to_a_player_without_one(client, campaign, player):
    client.force_login(player)
    assert create_url(campaign) in client.get(campaign.get_absolute_url()).text


def test_dashboard_offers_no_new_character_to_observers(client, campaign, observer):
    make_character(campaign, None, name="El Barman")
    client.force_login(observer)
    html = client.get(campaign.get_absolute_url()).text
    assert "El Barman" in html
    assert create_url(campaign) not in html


def test_dashboard_queries_do_not_grow_with_characters(
    client, campaign, gm, player, django_assert_max_num_queries
):
    for index in range(12):
        owner = UserFactory()
        MembershipFactory(campaign=campaign, user=owner)
        make_character(campaign, owner, name=f"PJ {index}")
    client.force_login(player)
    with django_assert_max_num_queries(9):
        assert client.get(campaign.get_absolute_url()).status_code == 200
