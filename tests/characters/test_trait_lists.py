import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters import services
from characters.models import CampaignTrait, Trait
from mechanics.rules.objetivo import catalogue
from mechanics.systems.registry import get_system
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, make_character

pytestmark = pytest.mark.django_db

STARTER_SKILLS = [skill.name for skill in catalogue.SKILLS]


@pytest.fixture
def objetivo(gm, player, observer):
    campaign = CampaignFactory(system="objetivo", created_by=gm, name="Operación Medianoche")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player, role="player")
    MembershipFactory(campaign=campaign, user=observer, role="observer")
    return campaign


def url(campaign) -> str:
    return reverse("characters:trait_lists", args=[campaign.pk])


def names(campaign, kind: str) -> list[str]:
    return [spec.name for spec in get_system("objetivo").trait_specs(campaign) if spec.kind == kind]


def test_gm_sees_the_starter_list_until_they_change_it(client, objetivo, gm):
    client.force_login(gm)
    response = client.get(url(objetivo))
    assert response.status_code == 200
    for name in ("Fuerza", "Carisma", "Armas CC", "Juegos de azar", "Sigilo"):
        assert name in response.text
    assert "lista inicial" in response.text
    assert "Dado objetivo (1o3d10) deja que cada campaña elija" in response.text
    assert not CampaignTrait.objects.filter(campaign=objetivo).exists()


def test_first_change_copies_the_starter_list_and_applies_it(client, objetivo, gm):
    client.force_login(gm)
    response = client.post(
        url(objetivo),
        {
            "action": "add",
            "kind": "skill",
            "add-skill-kind": "skill",
            "add-skill-name": "Pilotar",
            "add-skill-description": "Aviones y helicópteros.",
        },
    )
    assert response.status_code == 302
    assert names(objetivo, "skill") == [*STARTER_SKILLS, "Pilotar"]
    assert len(names(objetivo, "attribute")) == len(catalogue.ATTRIBUTES)
    assert "lista inicial" not in client.get(url(objetivo)).text


def test_a_new_trait_reaches_every_sheet_at_its_minimum(objetivo, gm, player):
    character = make_character(objetivo, player)
    services.campaign_trait_add(campaign=objetivo, user=gm, kind="attribute", name="Suerte")
    trait = Trait.objects.get(character=character, key="suerte")
    assert trait.rating == 1
    assert trait.kind == "attribute"


def test_gm_renames_a_trait_and_sheets_keep_their_ratings(client, objetivo, gm, player):
    character = make_character(objetivo, player, ratings={"armas_cc": 6})
    client.force_login(gm)
    response = client.post(
        url(objetivo),
        {
            "action": "update",
            "key": "armas_cc",
            "edit-armas_cc-key": "armas_cc",
            "edit-armas_cc-name": "Armas blancas",
            "edit-armas_cc-description": "",
        },
    )
    assert response.status_code == 302
    assert "Armas blancas" in names(objetivo, "skill")
    assert "Armas CC" not in names(objetivo, "skill")
    assert services.ratings_of(character)["armas_cc"] == 6


def test_gm_removes_a_trait_nobody_rates(client, objetivo, gm, player):
    character = make_character(objetivo, player)
    client.force_login(gm)
    response = client.post(url(objetivo), {"action": "remove", "key": "juegos_de_azar"})
    assert response.status_code == 302
    assert "Juegos de azar" not in names(objetivo, "skill")
    assert not Trait.objects.filter(character=character, key="juegos_de_azar").exists()
    assert character.changes.filter(field="trait:juegos_de_azar", new_value="").exists()


def test_removing_a_trait_a_sheet_rates_is_refused_naming_the_sheet(client, objetivo, gm, player):
    make_character(objetivo, player, name="Fred", ratings={"sigilo": 3})
    client.force_login(gm)
    response = client.post(url(objetivo), {"action": "remove", "key": "sigilo"})
    assert response.status_code == 200
    assert "Fred" in response.text
    assert "Sigilo" in names(objetivo, "skill")
    assert Trait.objects.filter(key="sigilo", rating=3).exists()


def test_the_last_trait_of_a_list_cannot_be_removed(objetivo, gm):
    for skill in catalogue.SKILLS[:-1]:
        services.campaign_trait_remove(campaign=objetivo, user=gm, key=skill.key)
    with pytest.raises(ValidationError):
        services.campaign_trait_remove(campaign=objetivo, user=gm, key=catalogue.SKILLS[-1].key)
    assert names(objetivo, "skill") == [catalogue.SKILLS[-1].name]


def test_gm_reorders_a_list(client, objetivo, gm):
    client.force_login(gm)
    client.post(url(objetivo), {"action": "up", "key": "pelea"})
    assert names(objetivo, "skill")[:3] == ["Armas CC", "Pelea", "Armas Dist"]
    client.post(url(objetivo), {"action": "down", "key": "armas_cc"})
    assert names(objetivo, "skill")[:3] == ["Pelea", "Armas CC", "Armas Dist"]


def test_duplicate_or_empty_names_are_refused_keeping_what_was_typed(client, objetivo, gm):
    client.force_login(gm)
    response = client.post(
        url(objetivo),
        {
            "action": "add",
            "kind": "skill",
            "add-skill-kind": "skill",
            "add-skill-name": "sigilo",
            "add-skill-description": "Moverse sin ruido",
        },
    )
    assert response.status_code == 200
    assert "Ya hay un rasgo llamado Sigilo." in response.text
    assert 'value="Moverse sin ruido"' in response.text
    response = client.post(
        url(objetivo),
        {"action": "add", "kind": "skill", "add-skill-kind": "skill", "add-skill-name": "¡¡!!"},
    )
    assert "letras o cifras" in response.text
    assert names(objetivo, "skill") == STARTER_SKILLS


def test_forged_kinds_and_actions_are_refused(client, objetivo, gm):
    client.force_login(gm)
    response = client.post(
        url(objetivo),
        {"action": "add", "kind": "merit", "add-merit-kind": "merit", "add-merit-name": "X"},
    )
    assert response.status_code == 200
    assert client.post(url(objetivo), {"action": "explode", "key": "sigilo"}).status_code == 200
    assert client.post(url(objetivo), {"action": "remove", "key": "nope"}).status_code == 200
    assert names(objetivo, "skill") == STARTER_SKILLS


def test_htmx_change_returns_the_lists_partial(client, objetivo, gm):
    client.force_login(gm)
    response = client.post(
        url(objetivo), {"action": "down", "key": "fuerza"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="trait-lists"' in response.text
    assert "Orden guardado." in response.text
    assert "HX-Request" in response["Vary"]


def test_trait_lists_page_runs_a_constant_number_of_queries(
    client, objetivo, gm, player, django_assert_max_num_queries
):
    client.force_login(gm)
    with django_assert_max_num_queries(10) as few:
        client.get(url(objetivo))
    for number in range(5):
        make_character(objetivo, player, name=f"PJ {number}", ratings={"sigilo": 2})
    services.campaign_trait_add(campaign=objetivo, user=gm, kind="skill", name="Pilotar")
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url(objetivo))
    assert "en 5 fichas" in response.text


def test_player_cannot_edit_the_trait_lists(client, objetivo, player):
    client.force_login(player)
    assert client.get(url(objetivo)).status_code == 403
    response = client.post(url(objetivo), {"action": "remove", "key": "sigilo"})
    assert response.status_code == 403
    assert "Sigilo" in names(objetivo, "skill")


def test_observer_cannot_edit_the_trait_lists(client, objetivo, observer):
    client.force_login(observer)
    assert client.get(url(objetivo)).status_code == 403


def test_stranger_gets_404_for_the_trait_lists(client, objetivo, stranger):
    client.force_login(stranger)
    assert client.get(url(objetivo)).status_code == 404


def test_other_systems_have_no_trait_lists_page(client, campaign, gm):
    client.force_login(gm)
    assert client.get(url(campaign)).status_code == 404
    with pytest.raises(ValidationError):
        services.campaign_trait_add(campaign=campaign, user=gm, kind="skill", name="Pilotar")


def test_another_gm_list_changes_do_not_touch_this_campaign(objetivo, gm):
    other = CampaignFactory(system="objetivo", created_by=UserFactory(username="zoe"))
    services.campaign_trait_remove(campaign=other, user=gm, key="sigilo")
    assert "Sigilo" in names(objetivo, "skill")
    assert "Sigilo" not in names(other, "skill")
