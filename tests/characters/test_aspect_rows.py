"""A Hitos aspect's row built as a string (`{% aspect_row %}`) is the markup its template
gave, its blanks made one: for the owner (who exhausts, and waits for the GM to recover),
a GM and a reader who may not change it, each duration, exhausted or not, in both
languages, with a text from users."""

import re

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation

from campaigns.fragments import CSRF_PLACEHOLDER
from campaigns.permissions import character_access
from characters import services
from characters.models import Aspect
from characters.views.sheet_context import sheet_context_base
from mechanics.systems.hitos.sheet import kind_name
from tests.characters.test_sheet_views import hitos_sheet

pytestmark = pytest.mark.django_db

# What systems/hitos/sheet_aspects.html#aspect drew before.
TEMPLATE = Template(
    """{% load i18n sheet_controls %}
<li class="aspect{% if aspect.exhausted %} exhausted{% endif %}" id="aspect-{{ aspect.pk }}">
  <div class="aspect-text">
    <span class="aspect-kind">{{ kind_name }}{% if aspect.duration == "scene" %} · {% translate "for the scene" %}{% elif aspect.duration == "session" %} · {% translate "for the session" %}{% endif %}</span>
    <span>{{ aspect.text }}</span>
    {% if aspect.exhausted %}<span class="badge text-bg-secondary">{% translate "exhausted" %}</span>{% endif %}
  </div>
  <div class="d-flex align-items-center d-print-none">
    {% if can_edit_story and aspect.exhausted and not can_recover_aspects %}
      <span class="small text-body-secondary">{% translate "until the GM recovers it" %}</span>
    {% elif can_edit_story %}
      <form method="post" action="{% url 'characters:aspect_exhausted' campaign.pk character.pk aspect.pk %}"
            hx-post="{% url 'characters:aspect_exhausted' campaign.pk character.pk aspect.pk %}" hx-target="#aspect-{{ aspect.pk }}" hx-swap="outerHTML">
        {% csrf_token %}
        {% if aspect.exhausted %}
          <button class="btn btn-sm btn-outline-success btn-touch" type="submit" name="exhausted" value="0" id="aspect-{{ aspect.pk }}-toggle">{% translate "Recover" %}</button>
        {% else %}
          <button class="btn btn-sm btn-outline-secondary btn-touch" type="submit" name="exhausted" value="1" id="aspect-{{ aspect.pk }}-toggle">{% translate "Exhaust" %}</button>
        {% endif %}
      </form>
    {% endif %}
    {% if can_edit_traits %}
      {% url 'characters:aspect_remove' campaign.pk character.pk aspect.pk as remove_url %}
      {% remove_button remove_url "#sheet-aspects" aspect.text %}
    {% endif %}
  </div>
</li>
"""  # noqa: E501
)
ROW = Template("{% load sheet_controls %}{% aspect_row aspect kind_name %}")
HOSTILE = '<b>Traicioné</b> a "mi" hermano & co'


def _render(template, user, aspect, **rights):
    character = aspect.character
    request = RequestFactory().get(character.get_absolute_url())
    request.user = user
    access = character_access(user, character.campaign_id, character.pk)
    context = {**sheet_context_base(access), **rights, "csrf_token": CSRF_PLACEHOLDER}
    context = Context({**context, "aspect": aspect, "kind_name": kind_name(aspect.kind)})
    context.request = request
    return template.render(context)


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("rights", ["owner", "gm", "reader"])
def test_each_row_is_the_templates_markup(gm, player, language, rights):
    character = hitos_sheet(gm, player)
    hito = Aspect.objects.filter(character=character, kind="hito").first()
    Aspect.objects.filter(pk=hito.pk).update(text=HOSTILE)
    for duration in ("scene", "session"):
        services.aspect_add(
            character=character, user=gm, kind="temporal", text="Cegado", duration=duration
        )
    first = Aspect.objects.filter(character=character).order_by("pk").first()
    services.aspect_set_exhausted(aspect=first, user=gm, exhausted=True)
    user = gm if rights == "gm" else player
    flags = {
        "owner": {"can_edit_story": True, "can_edit_traits": False, "can_recover_aspects": False},
        "gm": {"can_edit_story": True, "can_edit_traits": True, "can_recover_aspects": True},
        "reader": {"can_edit_story": False, "can_edit_traits": False, "can_recover_aspects": False},
    }[rights]
    aspects = list(Aspect.objects.filter(character=character).order_by("pk"))
    assert {a.duration for a in aspects} >= {"", "scene", "session"}
    assert {a.exhausted for a in aspects} == {True, False}
    with translation.override(language):
        for aspect in aspects:
            aspect.character = character
            old = _render(TEMPLATE, user, aspect, **flags)
            new = _render(ROW, user, aspect, **flags)
            assert re.sub(r"\s+", " ", old).strip() == new
            assert "<b>Traicioné" not in new
