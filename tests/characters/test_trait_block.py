"""A sheet's traits section built as one string (`{% trait_block %}`) is the markup the
template loop over `{% trait_row %}` gave, on the four systems' sheets, for a GM and a
player, in both languages, with a refusal shown, and with names from users; and it is
cached under what it shows."""

import re

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from campaigns.fragments import CSRF_PLACEHOLDER, NESTED
from campaigns.permissions import character_access
from characters import services
from characters.models import Trait
from characters.views.sheet_context import sheet_context
from tests.characters.test_sheet_views import (
    hitos_sheet,
    ndp_sheet,
    objetivo_sheet,
    tinieblas_sheet,
)
from tests.html import parse

pytestmark = pytest.mark.django_db

# What templates/characters/sheet.html drew before the section became one tag.
LOOP = Template(
    """{% load i18n trait_rows %}
<section class="sheet-section" id="sheet-traits" aria-labelledby="sheet-traits-title">
  <h2 class="visually-hidden" id="sheet-traits-title">{% translate "Traits" %}</h2>
  {% if system.folds_untrained_skills %}<div class="form-check form-switch d-print-none mb-2"><input class="form-check-input fold-untrained" type="checkbox" role="switch" id="fold-untrained" checked><label class="form-check-label" for="fold-untrained">{% translate "Hide untrained skills" %}</label></div>{% endif %}
  {% for heading, groups in trait_sections %}
    {% if heading %}<h3 class="sheet-heading">{{ heading }}</h3>{% endif %}
    <div class="trait-groups">
      {% for label, rows in groups %}
        <div class="trait-group">
          {% if heading %}<h4 class="sheet-subheading">{{ label }}</h4>{% else %}<h3 class="sheet-subheading">{{ label }}</h3>{% endif %}
          {% for trait in rows %}{% trait_row trait character system roll_url=trait_roll_base editable=can_edit_traits error=trait_error %}{% endfor %}
        </div>
      {% endfor %}
    </div>
  {% endfor %}
</section>
"""  # noqa: E501
)
BLOCK = Template("{% load trait_rows %}{% trait_block %}")
HOSTILE = '<b>Suerte</b> & "co"'


@pytest.fixture
def sheets(campaign, gm, player):
    made = {
        "tinieblas": tinieblas_sheet(campaign, player),
        "hitos": hitos_sheet(gm, player),
        "ndp": ndp_sheet(gm, player),
        "objetivo": objetivo_sheet(gm, player),
    }
    objetivo = made["objetivo"]
    services.campaign_trait_add(
        campaign=objetivo.campaign, user=gm, kind="attribute", name=HOSTILE, description=HOSTILE
    )
    Trait.objects.filter(character=made["ndp"], key="arcano").update(progress=3)
    return made


def _render(template: Template, user, character, **extra) -> str:
    request = RequestFactory().get(character.get_absolute_url())
    request.user = user
    # As inside the sheet's grid, which is cached with the placeholder for the token.
    setattr(request, NESTED, True)
    access = character_access(user, character.campaign_id, character.pk)
    context = sheet_context(access, **extra)
    context["csrf_token"] = CSRF_PLACEHOLDER
    context = Context(context)
    context.request = request
    return template.render(context)


def _shape(html: str) -> list:
    """The elements with their attributes and words: the blanks between tags, which the
    loop's indentation made, left out."""

    def shape(element):
        children = []
        for child in element.children:
            if isinstance(child, str):
                if child.strip():
                    children.append(re.sub(r"\s+", " ", child))
            else:
                children.append(shape(child))
        return [element.tag, sorted(element.attrs.items()), children]

    return shape(parse(html))


@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
@pytest.mark.parametrize("who", ["gm", "player"])
@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("error", ["", "<i>Fuera</i> de rango"])
def test_the_block_is_the_loops_markup(sheets, request, system, who, language, error):
    character, user = sheets[system], request.getfixturevalue(who)
    with translation.override(language):
        loop = _render(LOOP, user, character, trait_error=error)
        block = _render(BLOCK, user, character, trait_error=error)
    assert _shape(block) == _shape(loop)
    # The rows themselves are the same bytes.
    assert re.sub(r">\s+<", "><", loop).strip() == block
    assert "trait-row" in block
    assert "<i>Fuera" not in block
    assert "<b>Suerte" not in block


def test_the_cached_block_follows_a_rating_a_trait_list_and_the_reader(client, sheets, gm, player):
    """The block is cached inside the grid and under its own key (which a pool's change
    leaves): each of what it shows is in that key."""
    character = sheets["objetivo"]
    campaign = character.campaign
    key = next(t.key for t in campaign.trait_lists.all() if t.name == HOSTILE)
    client.force_login(player)
    page = parse(client.get(character.get_absolute_url()).text)
    assert page.one("span", class_="dots", aria_label="Fuerza 5 de 10")
    services.trait_set(character=character, user=gm, key="fuerza", rating=6)
    page = parse(client.get(character.get_absolute_url()).text)
    assert page.one("span", class_="dots", aria_label="Fuerza 6 de 10")
    services.campaign_trait_update(campaign=campaign, user=gm, key=key, name="Suerte")
    page = parse(client.get(character.get_absolute_url()).text)
    row = page.one("div", id=f"trait-{key}")
    assert row.one("div", class_="trait-name").text() == "Tirar Suerte"
    # The GM, after the player: the controls that set a rating.
    client.force_login(gm)
    page = parse(client.get(character.get_absolute_url()).text)
    assert page.one("button", id="trait-fuerza-6")


@pytest.mark.parametrize("system", ["tinieblas", "objetivo"])
def test_a_sheet_reads_its_traits_without_a_join_and_trait_lists_only_where_editable(
    client, sheets, player, system
):
    character = sheets[system]
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(character.get_absolute_url()).status_code == 200
    sql = [query["sql"] for query in queries]
    [traits] = [q for q in sql if q.startswith('SELECT "characters_trait"."id"')]
    assert "JOIN" not in traits
    lists = [q for q in sql if 'FROM "characters_campaigntrait"' in q]
    assert len(lists) == (1 if system == "objetivo" else 0)
