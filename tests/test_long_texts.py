"""The browser never cuts a long text short: no textarea of the site has a maxlength, which
would drop what a paste has beyond it without a word. The form refuses an over-long text
with a message and shows all of it again (campaigns.texts.LongTextarea). Nor does a send
that never arrives lose it: the browser keeps it, and every long text carries the words
that offer it back (static/js/app.js; tests/e2e/test_unsent_text.py drives it)."""

from importlib import import_module

import pytest
from django import forms
from django.apps import apps
from django.conf import settings
from django.urls import reverse

from campaigns import limits
from campaigns import services as campaign_services
from campaigns.models import SceneNote
from characters.models import DiaryEntry
from tests.factories import CampaignFactory, MembershipFactory, make_character
from tests.html import parse

pytestmark = pytest.mark.django_db

# What static/js/app.js needs to offer an unsent text back, by language.
UNSENT = {
    "es": {
        "data-unsent-text": "Tienes un texto sin enviar, escrito aquí el {time}.",
        "data-unsent-restore": "Recuperar el texto",
        "data-unsent-discard": "Descartarlo",
    },
    "en": {
        "data-unsent-text": "You have unsent text, written here on {time}.",
        "data-unsent-restore": "Restore the text",
        "data-unsent-discard": "Discard it",
    },
}


def _unsent_words(attrs) -> dict:
    return {name: attrs.get(name) for name in UNSENT["es"]}


def _subclasses(cls):
    for subclass in cls.__subclasses__():
        yield subclass
        yield from _subclasses(subclass)


def _site_forms() -> list[type[forms.BaseForm]]:
    """Every form class the site's own apps define (reached through the URLs' views)."""
    import_module(settings.ROOT_URLCONF)  # imports every view, and so every form
    own = {
        config.name
        for config in apps.get_app_configs()
        if config.path.startswith(str(settings.BASE_DIR)) and "site-packages" not in config.path
    }
    return [cls for cls in _subclasses(forms.BaseForm) if cls.__module__.split(".")[0] in own]


def test_no_textarea_of_the_sites_forms_has_a_maxlength():
    textareas = []
    for form in _site_forms():
        for name, field in form.base_fields.items():
            if isinstance(field.widget, forms.Textarea):
                attrs = field.widget.get_context(name, "", {})["widget"]["attrs"]
                textareas.append((f"{form.__name__}.{name}", attrs.get("maxlength")))
                assert attrs.get("data-limit") == str(field.max_length), (form, name)
                assert _unsent_words(attrs) == UNSENT["es"], (form, name)
    assert len(textareas) >= 14
    assert [(name, limit) for name, limit in textareas if limit is not None] == []


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def scene(campaign, lucia):
    return campaign_services.scene_create(campaign=campaign, title="Fuego", participants=[lucia])


def _textareas(response) -> dict[str, dict]:
    return {
        textarea.attrs["name"]: textarea.attrs
        for textarea in parse(response.text).find_all("textarea")
    }


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize(
    ("page", "user"),
    [
        ("diary", "player"),
        ("sheet", "player"),
        ("campaign", "gm"),
        ("story", "gm"),
        ("scene", "gm"),
        ("notes", "gm"),
        ("creation", "gm"),
    ],
)
def test_the_pages_long_texts_have_a_limit_to_count_no_maxlength_and_words_to_offer_back(
    client, campaign, scene, lucia, page, user, language, request
):
    urls = {
        "diary": reverse("characters:diary", args=[campaign.pk, lucia.pk, scene.pk]),
        "sheet": reverse("characters:edit", args=[campaign.pk, lucia.pk]),
        "campaign": reverse("campaigns:edit", args=[campaign.pk]),
        "story": reverse("campaigns:story_create", args=[campaign.pk]),
        "scene": reverse("campaigns:scene_create", args=[campaign.pk]),
        "notes": reverse("campaigns:scene", args=[campaign.pk, scene.pk]),
        "creation": reverse("characters:create", args=[campaign.pk]),
    }
    client.force_login(request.getfixturevalue(user))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    textareas = _textareas(client.get(urls[page]))
    assert textareas
    for attrs in textareas.values():
        assert "maxlength" not in attrs
        assert int(attrs["data-limit"]) >= 300
        counted = {"es": "{count} de {limit} caracteres", "en": "{count} of {limit} characters"}
        assert attrs["data-limit-text"] == counted[language]
        assert _unsent_words(attrs) == UNSENT[language]


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_trait_lists_descriptions_have_a_limit_to_count_no_maxlength_and_words_to_offer_back(
    client, gm, language
):
    campaign = CampaignFactory(system="objetivo", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    client.force_login(gm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("characters:trait_lists", args=[campaign.pk]))
    textareas = parse(response.text).find_all("textarea")
    assert textareas
    for textarea in textareas:
        assert "maxlength" not in textarea.attrs
        assert textarea.attrs["data-limit"] == "300"
        counted = {"es": "{count} de {limit} caracteres", "en": "{count} of {limit} characters"}
        assert textarea.attrs["data-limit-text"] == counted[language]
        assert _unsent_words(textarea.attrs) == UNSENT[language]


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_login_page_says_a_send_that_lands_on_it_did_not_go_through(client, language):
    """A form sent with an expired session is redirected here: app.js keeps its texts."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("login") + "?next=/campaigns/")
    assert parse(response.text).one("main").attrs.get("data-unsent-kept") == ""


def test_the_pages_that_follow_a_send_do_not_say_it_did_not_go_through(
    client, player, scene, lucia
):
    client.force_login(player)
    response = client.get(reverse("campaigns:scene", args=[scene.campaign_id, scene.pk]))
    assert response.status_code == 200
    assert "data-unsent-kept" not in response.text


# An over-long diary: refused with a message, all of it shown again -----------------------

# Past the limit, as a paste of a long chapter would be.
LONG_DIARY = "Querido diario: " + "ñ" * limits.DIARY


def _post_diary(client, scene, character):
    return client.post(
        reverse("characters:diary", args=[scene.campaign_id, character.pk, scene.pk]),
        {"body": LONG_DIARY, "visibility": "group", "action": "publish"},
    )


def test_a_player_over_the_diarys_limit_is_told_and_keeps_every_character(
    client, player, scene, lucia
):
    client.force_login(player)
    response = _post_diary(client, scene, lucia)
    assert response.status_code == 200
    message = f"El texto puede tener como máximo 50000 caracteres (tiene {len(LONG_DIARY)})."
    assert message in response.text
    body = parse(response.text).one("textarea", name="body")
    assert body.text() == LONG_DIARY
    assert "maxlength" not in body.attrs
    assert not DiaryEntry.objects.exists()


def test_a_gm_over_the_diarys_limit_in_their_own_characters_diary_is_told_and_keeps_it(
    client, campaign, gm, scene
):
    own = make_character(campaign, gm, name="Fray Anselmo")
    scene.participants.add(own)
    client.force_login(gm)
    response = _post_diary(client, scene, own)
    assert response.status_code == 200
    assert "como máximo 50000 caracteres" in response.text
    assert parse(response.text).one("textarea", name="body").text() == LONG_DIARY
    assert not DiaryEntry.objects.exists()


def test_a_gm_still_cannot_write_a_players_diary_however_long(client, gm, scene, lucia):
    client.force_login(gm)
    assert _post_diary(client, scene, lucia).status_code == 403
    assert not DiaryEntry.objects.exists()


def test_a_stranger_gets_a_404_for_an_over_long_diary(client, stranger, scene, lucia):
    client.force_login(stranger)
    response = _post_diary(client, scene, lucia)
    assert response.status_code == 404
    assert "Querido diario" not in response.text
    assert not DiaryEntry.objects.exists()


def test_a_gm_note_over_its_limit_is_told_and_kept(client, gm, scene):
    client.force_login(gm)
    note = "Pista: " + "x" * limits.MARKDOWN
    response = client.post(
        reverse("campaigns:scene_note_create", args=[scene.campaign_id, scene.pk]), {"body": note}
    )
    assert response.status_code == 200
    assert "como máximo 20000 caracteres" in response.text
    assert parse(response.text).one("textarea", name="body").text() == note
    assert not SceneNote.objects.exists()
