from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Invitation, Membership, Role
from characters.models import Character
from tests.factories import CampaignFactory, InvitationFactory, MembershipFactory, UserFactory
from tests.html import parse

pytestmark = pytest.mark.django_db

# Destructive actions ask first (campaigns/confirm.py); these posts answer yes.
CONFIRMED = {"confirmed": "1"}


def detail_url(campaign):
    return reverse("campaigns:detail", args=[campaign.pk])


def valid_campaign_data(**overrides):
    """What a browser posts: checkboxes checked by default are sent as "on"."""
    data = {
        "name": "La Casa Usher",
        "description": "Terror gótico.",
        "system": "tinieblas",
        "max_characters_per_player": 1,
        "rule_tinieblas_unskilled_penalty": "on",
        "rule_tinieblas_aggravated_heals_as_lethal": "on",
    }
    data.update(overrides)
    return data


# "Mis campañas"


def test_my_campaigns_lists_each_campaign_with_my_role(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("campaigns:list"))
    assert response.status_code == 200
    assert campaign.name in response.text
    assert "Jugador" in response.text


def test_my_campaigns_hides_campaigns_i_am_not_in(client, campaign, stranger):
    client.force_login(stranger)
    response = client.get(reverse("campaigns:list"))
    assert campaign.name not in response.text


def test_my_campaigns_requires_login(client):
    response = client.get(reverse("campaigns:list"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_my_campaigns_runs_constant_queries(client, player, django_assert_max_num_queries):
    for _ in range(10):
        MembershipFactory(user=player)
    client.force_login(player)
    with django_assert_max_num_queries(5):
        client.get(reverse("campaigns:list"))


# Create


def test_anyone_logged_in_creates_a_campaign_and_becomes_its_gm(client, stranger):
    client.force_login(stranger)
    response = client.post(reverse("campaigns:create"), valid_campaign_data())
    campaign = Campaign.objects.get(name="La Casa Usher")
    assert response.status_code == 302
    assert response["Location"] == detail_url(campaign)
    assert Membership.objects.get(campaign=campaign, user=stranger).role == Role.GM
    assert campaign.house_rules == {}


def test_create_stores_only_house_rules_that_differ_from_defaults(client, gm):
    client.force_login(gm)
    client.post(
        reverse("campaigns:create"),
        valid_campaign_data(system="hitos", rule_hitos_starting_drama_points=5),
    )
    campaign = Campaign.objects.get(name="La Casa Usher")
    assert campaign.house_rules == {"starting_drama_points": 5}
    assert campaign.rules == {
        "equal_succeeds": False,
        "starting_drama_points": 5,
        "healing_days_sano": 1,
        "healing_days_herido": 7,
        "healing_days_incapacitado": 30,
        "healing_days_moribundo": 30,
    }


def test_create_with_empty_name_shows_an_error_and_keeps_the_input(client, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:create"), valid_campaign_data(name="", description="Mi texto")
    )
    assert response.status_code == 200
    assert "Este campo es obligatorio" in response.text
    assert "Mi texto" in response.text
    assert not Campaign.objects.exists()


def test_create_with_an_invalid_system_shows_an_error(client, gm):
    client.force_login(gm)
    response = client.post(reverse("campaigns:create"), valid_campaign_data(system="d20"))
    assert response.status_code == 200
    assert "Elige una opción válida" in response.text
    assert not Campaign.objects.exists()


def test_create_with_house_rule_out_of_range_shows_an_error(client, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:create"),
        valid_campaign_data(system="hitos", rule_hitos_starting_drama_points=99),
    )
    assert response.status_code == 200
    assert not Campaign.objects.exists()


def test_create_form_in_english(client, gm):
    client.force_login(gm)
    client.cookies.load({"django_language": "en"})
    response = client.get(reverse("campaigns:create"))
    assert "New campaign" in response.text
    assert "House rules" in response.text
    assert "As the system says: on for Mundo de Tinieblas, off for the others." in response.text


def test_the_form_offers_each_systems_own_settings_with_the_systems_help(client, gm):
    client.force_login(gm)
    text = client.get(reverse("campaigns:create")).text
    assert 'name="hitos_drama_sacrifice"' in text
    assert "Solo Hitos: un punto dramático" in text
    # The rubric's default, short enough for a phone's list; the help below it names the
    # systems that award XP with it.
    assert '<option value="unknown" selected>Según el sistema</option>' in text
    assert "Según el sistema: sí en Mundo de Tinieblas; no en los demás." in text


def test_a_systems_own_setting_is_saved(client, gm):
    client.force_login(gm)
    client.post(
        reverse("campaigns:create"),
        valid_campaign_data(system="hitos", hitos_drama_sacrifice="on"),
    )
    assert Campaign.objects.get(name="La Casa Usher").hitos_drama_sacrifice is True


def test_only_a_system_with_campaign_trait_lists_links_to_them(client, campaign, gm):
    client.force_login(gm)
    lists = reverse("characters:trait_lists", args=[campaign.pk])
    assert lists not in client.get(detail_url(campaign)).text
    Campaign.objects.filter(pk=campaign.pk).update(system="objetivo")
    assert lists in client.get(detail_url(campaign)).text


# Dashboard


def test_gm_sees_the_dashboard_with_invitations(client, campaign, gm):
    client.force_login(gm)
    response = client.get(detail_url(campaign))
    assert response.status_code == 200
    assert campaign.description in response.text
    assert 'id="invitations"' in response.text


def test_player_sees_the_dashboard_without_invitations(client, campaign, player):
    client.force_login(player)
    response = client.get(detail_url(campaign))
    assert response.status_code == 200
    assert "alice" in response.text  # the GM among the members
    assert 'id="invitations"' not in response.text


def test_stranger_gets_404_on_the_dashboard(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(detail_url(campaign)).status_code == 404


def test_anonymous_is_sent_to_login_from_the_dashboard(client, campaign):
    response = client.get(detail_url(campaign))
    assert response.status_code == 302


def test_dashboard_runs_constant_queries(client, campaign, gm, django_assert_max_num_queries):
    for _ in range(15):
        MembershipFactory(campaign=campaign)
        InvitationFactory(campaign=campaign)
    client.force_login(gm)
    client.get(detail_url(campaign))
    # A new member makes another key: the body is rendered again. Session, user, access,
    # latest scenes, invitations' statuses, the page's rows, characters, the admin-link
    # check, members, invitations, feed ids and feed.
    MembershipFactory(campaign=campaign)
    with django_assert_max_num_queries(12):
        response = client.get(detail_url(campaign))
    assert response.status_code == 200
    # Unchanged, the body comes from the cache: no characters, members or invitations.
    with django_assert_max_num_queries(8):
        response = client.get(detail_url(campaign))
    assert response.status_code == 200


# Edit


def test_gm_edits_the_campaign(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]),
        valid_campaign_data(name="Nuevo nombre", rule_tinieblas_health_from_stamina="on"),
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Nuevo nombre"
    assert campaign.rules["health_from_stamina"] is True


def test_player_cannot_edit_the_campaign(client, campaign, player):
    client.force_login(player)
    url = reverse("campaigns:edit", args=[campaign.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, valid_campaign_data(name="Hackeada")).status_code == 403
    campaign.refresh_from_db()
    assert campaign.name != "Hackeada"


def test_stranger_gets_404_on_edit(client, campaign, stranger):
    client.force_login(stranger)
    assert client.get(reverse("campaigns:edit", args=[campaign.pk])).status_code == 404


def test_system_changes_while_the_campaign_has_no_characters(client, campaign, gm):
    client.force_login(gm)
    client.post(reverse("campaigns:edit", args=[campaign.pk]), valid_campaign_data(system="ndp"))
    campaign.refresh_from_db()
    assert campaign.system == "ndp"


def test_system_cannot_change_once_the_campaign_has_characters(client, campaign, gm):
    Character.objects.create(campaign=campaign, name="Lucía")
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:edit", args=[campaign.pk]), valid_campaign_data(system="ndp")
    )
    assert response.status_code == 200
    assert "sistema de reglas solo puede cambiar" in response.text
    campaign.refresh_from_db()
    assert campaign.system == "tinieblas"


# Invitations


def test_gm_creates_an_invitation_link(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:invitation_create", args=[campaign.pk]),
        {"role": "observer", "expires_in_days": 3, "max_uses": 2},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(campaign=campaign)
    assert invitation.role == Role.OBSERVER
    assert invitation.max_uses == 2
    assert timedelta(days=2, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=3)


def test_the_invitation_form_loads_when_asked_for_as_a_partial_or_a_page(
    client, campaign, gm, player, stranger
):
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    client.force_login(gm)
    page = parse(client.get(reverse("campaigns:detail", args=[campaign.pk])).text)
    # Players are in: the form is not on the page, but behind "New invitation link".
    assert page.find_all("input", name="expires_in_days") == []
    opener = page.one("details", id="new-invitation")
    assert opener.attrs["hx-get"] == url
    assert opener.one("a").attrs["href"] == url
    partial = client.get(url, headers={"HX-Request": "true"})
    assert partial.status_code == 200
    form = parse(partial.text).one("form")
    assert form.attrs["action"] == url
    assert form.one("input", name="expires_in_days").attrs["value"] == "7"
    assert "<html" not in partial.text
    whole = client.get(url)
    assert parse(whole.text).one("h1").text() == "Nuevo enlace de invitación"
    assert parse(whole.text).one("input", name="expires_in_days").attrs["value"] == "7"
    client.force_login(player)
    assert client.get(url).status_code == 403
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_a_gm_alone_in_a_new_campaign_finds_the_invitation_form_open(client, gm):
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    client.force_login(gm)
    page = parse(client.get(reverse("campaigns:detail", args=[campaign.pk])).text)
    form = page.one("section", id="invitations").one("form")
    assert form.attrs["action"] == reverse("campaigns:invitation_create", args=[campaign.pk])
    assert form.one("select", name="role")
    assert page.find_all("details", id="new-invitation") == []


def test_a_refused_invitation_comes_back_with_what_was_typed(client, campaign, gm):
    url = reverse("campaigns:invitation_create", args=[campaign.pk])
    client.force_login(gm)
    response = client.post(url, {"role": "observer", "expires_in_days": 999, "max_uses": 5})
    assert response.status_code == 200
    assert not Invitation.objects.exists()
    form = parse(response.text).one("form", action=url)
    assert form.one("input", name="expires_in_days").attrs["value"] == "999"
    assert form.one("input", name="max_uses").attrs["value"] == "5"
    assert form.one("option", selected=True).attrs["value"] == "observer"
    assert "365" in form.one(id="error_1_id_expires_in_days").text()


def test_invitation_with_a_forged_role_is_refused(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:invitation_create", args=[campaign.pk]),
        {"role": "superuser", "expires_in_days": 3},
        follow=True,
    )
    assert not Invitation.objects.exists()
    assert "Elige una opción válida" in response.text


def test_player_cannot_create_or_revoke_invitations(client, campaign, player):
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(player)
    create = client.post(
        reverse("campaigns:invitation_create", args=[campaign.pk]),
        {"role": "gm", "expires_in_days": 3},
    )
    revoke = client.post(reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk]))
    assert create.status_code == 403
    assert revoke.status_code == 403
    assert Invitation.objects.count() == 1
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_stranger_gets_404_on_invitation_management(client, campaign, stranger):
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(stranger)
    url = reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk])
    assert client.post(url).status_code == 404


def test_gm_revokes_an_invitation_and_the_link_says_so(client, campaign, gm, stranger):
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(gm)
    client.post(
        reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk]), CONFIRMED
    )
    client.force_login(stranger)
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 410
    assert "revocado" in response.text
    response = client.post(invitation.get_absolute_url(), follow=True)
    assert not Membership.objects.filter(user=stranger).exists()


def test_gm_cannot_revoke_another_campaigns_invitation(client, campaign, gm):
    other = InvitationFactory()
    client.force_login(gm)
    url = reverse("campaigns:invitation_revoke", args=[campaign.pk, other.pk])
    assert client.post(url).status_code == 404


def test_a_logged_in_user_joins_through_a_valid_link(client, campaign, stranger):
    invitation = InvitationFactory(campaign=campaign, role=Role.PLAYER, max_uses=1)
    client.force_login(stranger)
    page = client.get(invitation.get_absolute_url())
    assert page.status_code == 200
    assert campaign.name in page.text
    response = client.post(invitation.get_absolute_url())
    assert response.status_code == 302
    assert Membership.objects.get(campaign=campaign, user=stranger).role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1


def test_an_expired_link_shows_a_clear_message(client, campaign, stranger):
    invitation = InvitationFactory(
        campaign=campaign, expires_at=timezone.now() - timedelta(minutes=1)
    )
    client.force_login(stranger)
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 410
    assert "caducado" in response.text
    client.post(invitation.get_absolute_url())
    assert not Membership.objects.filter(user=stranger).exists()


def test_a_used_up_link_refuses_new_members(client, campaign):
    invitation = InvitationFactory(campaign=campaign, max_uses=1, uses=1)
    newcomer = UserFactory()
    client.force_login(newcomer)
    client.post(invitation.get_absolute_url())
    assert not Membership.objects.filter(user=newcomer).exists()


def test_an_unknown_link_is_404(client, stranger):
    client.force_login(stranger)
    response = client.get(reverse("campaigns:invitation", args=["no-such-token"]))
    assert response.status_code == 404
    assert "no existe" in response.text


def test_a_member_opening_a_link_keeps_their_role(client, campaign, gm):
    invitation = InvitationFactory(campaign=campaign, role=Role.OBSERVER)
    client.force_login(gm)
    client.post(invitation.get_absolute_url())
    assert Membership.objects.get(campaign=campaign, user=gm).role == Role.GM
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_anonymous_visitor_is_offered_sign_up_and_log_in(client, campaign):
    invitation = InvitationFactory(campaign=campaign)
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 200
    assert reverse("signup") in response.text
    assert client.post(invitation.get_absolute_url()).status_code == 302


# Members


def member_url(name, campaign, membership):
    return reverse(f"campaigns:{name}", args=[campaign.pk, membership.pk])


def test_the_member_forms_load_when_asked_for_as_a_partial_or_a_page(
    client, campaign, gm, player, observer, stranger
):
    url = reverse("campaigns:members", args=[campaign.pk])
    client.force_login(gm)
    page = parse(client.get(detail_url(campaign)).text)
    # The members and their roles are on the page; the forms behind "Manage members".
    members = page.one("section", id="members")
    assert "bob" in members.text()
    assert members.find_all("select", name="role") == []
    opener = members.one("details", id="manage-members")
    assert opener.attrs["hx-get"] == url
    assert opener.one("a").attrs["href"] == url
    partial = client.get(url, headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert "<html" not in partial.text
    rows = parse(partial.text).find_all("li", data_member=True)
    # Every member but the GM themself, each with a role menu showing their role.
    expected = {str(m.pk): m.role for m in campaign.memberships.exclude(user=gm).order_by("role")}
    assert {
        row.attrs["data-member"]: row.one("select", name="role")
        .one("option", selected=True)
        .attrs["value"]
        for row in rows
    } == expected
    whole = client.get(url)
    assert parse(whole.text).one("h1").text() == "Gestionar miembros"
    assert len(parse(whole.text).find_all("li", data_member=True)) == len(expected)
    client.force_login(player)
    assert client.get(url).status_code == 403
    assert "manage-members" not in client.get(detail_url(campaign)).text
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_a_gm_alone_is_not_offered_member_forms(client, gm):
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    client.force_login(gm)
    assert "manage-members" not in client.get(detail_url(campaign)).text


def test_gm_changes_a_members_role(client, campaign, gm, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    client.post(member_url("member_role", campaign, membership), {"role": "gm"})
    membership.refresh_from_db()
    assert membership.role == Role.GM


def test_a_forged_role_is_refused(client, campaign, gm, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    response = client.post(
        member_url("member_role", campaign, membership), {"role": "admin"}, follow=True
    )
    membership.refresh_from_db()
    assert membership.role == Role.PLAYER
    assert "rol válido" in response.text


def test_player_cannot_change_roles(client, campaign, player, observer):
    membership = Membership.objects.get(campaign=campaign, user=observer)
    client.force_login(player)
    response = client.post(member_url("member_role", campaign, membership), {"role": "gm"})
    assert response.status_code == 403
    membership.refresh_from_db()
    assert membership.role == Role.OBSERVER


def test_stranger_gets_404_on_member_management(client, campaign, stranger, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(stranger)
    assert client.post(member_url("member_remove", campaign, membership)).status_code == 404
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_gm_removes_a_member(client, campaign, gm, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(gm)
    client.post(member_url("member_remove", campaign, membership), CONFIRMED)
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_player_cannot_remove_another_member(client, campaign, player, observer):
    membership = Membership.objects.get(campaign=campaign, user=observer)
    client.force_login(player)
    assert client.post(member_url("member_remove", campaign, membership)).status_code == 403


def test_player_leaves_the_campaign(client, campaign, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(player)
    response = client.post(member_url("member_remove", campaign, membership), CONFIRMED)
    assert response["Location"] == reverse("campaigns:list")
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_the_last_gm_cannot_leave(client, campaign, gm):
    membership = Membership.objects.get(campaign=campaign, user=gm)
    client.force_login(gm)
    response = client.post(
        member_url("member_remove", campaign, membership), CONFIRMED, follow=True
    )
    assert Membership.objects.filter(pk=membership.pk).exists()
    assert "al menos un máster" in response.text


def test_the_last_gm_cannot_be_demoted(client, campaign, gm):
    membership = Membership.objects.get(campaign=campaign, user=gm)
    client.force_login(gm)
    client.post(member_url("member_role", campaign, membership), {"role": "player"})
    membership.refresh_from_db()
    assert membership.role == Role.GM


def test_a_gm_can_leave_when_another_gm_remains(client, campaign, gm, player):
    Membership.objects.filter(campaign=campaign, user=player).update(role=Role.GM)
    membership = Membership.objects.get(campaign=campaign, user=gm)
    client.force_login(gm)
    client.post(member_url("member_remove", campaign, membership), CONFIRMED)
    assert not Membership.objects.filter(pk=membership.pk).exists()
