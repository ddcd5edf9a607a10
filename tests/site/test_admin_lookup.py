"""In the admin, a GM adding a membership finds the user through the autocomplete."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOOKUP = reverse("admin:autocomplete")


def lookup(client, term: str, field: str = "user", model: str = "membership"):
    return client.get(
        LOOKUP, {"app_label": "campaigns", "model_name": model, "field_name": field, "term": term}
    )


def names(response) -> list[str]:
    return [row["text"] for row in response.json()["results"]]


def test_the_new_membership_form_offers_the_user_lookup(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("admin:campaigns_membership_add"))
    assert response.status_code == 200
    assert f'data-ajax--url="{LOOKUP}"' in response.text
    assert "- Elige una opción -" in response.text  # the blank choice, translated


def test_a_gm_finds_members_of_their_campaigns_by_the_start_of_the_name(client, campaign, gm):
    client.force_login(gm)
    response = lookup(client, "bo")
    assert response.status_code == 200
    assert names(response) == ["bob"]
    assert sorted(names(lookup(client, ""))) == ["alice", "bob", "olga"]


def test_a_gm_finds_anyone_else_only_by_the_exact_name(client, campaign, gm, stranger):
    client.force_login(gm)
    assert names(lookup(client, "char")) == []
    assert names(lookup(client, "Charlie")) == ["charlie"]


def test_a_gm_does_not_find_inactive_accounts(client, campaign, gm):
    UserFactory(username="dormida", is_active=False)
    client.force_login(gm)
    assert names(lookup(client, "dormida")) == []


@pytest.mark.parametrize("who", ["player", "observer", "stranger"])
def test_who_runs_no_campaign_cannot_look_users_up(client, campaign, who, request):
    client.force_login(request.getfixturevalue(who))
    response = lookup(client, "alice")
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_a_gm_still_cannot_look_up_other_fields_of_user_accounts(client, campaign, gm):
    client.force_login(gm)
    response = client.get(
        LOOKUP, {"app_label": "campaigns", "model_name": "campaign", "field_name": "created_by"}
    )
    assert response.status_code == 403


def test_a_superuser_finds_everyone(client, campaign, stranger):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(root)
    assert "charlie" in names(lookup(client, "char"))
