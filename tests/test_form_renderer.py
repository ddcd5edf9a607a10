"""The fast form renderer writes exactly the markup of Django's widget templates."""

import datetime
from decimal import Decimal

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from campaigns.services import scene_create
from config.form_renderer import FastWidgetRenderer
from mechanics.forms.roll import RollSceneForm
from mechanics.setup import load_sheet
from tests.factories import campaign_with, make_character

CHOICES = [
    ("", "---------"),
    (1, "Uno"),
    ("dos", 'Dos <b>"negrita"</b> & más'),
    ("tres", mark_safe("<em>Tres</em>")),
    ("Grupo & co", [("a", "A"), ("b", 1234567)]),
    (-2, gettext_lazy("Menos <dos> & co")),
]
WIDGETS = [
    (forms.TextInput(), "Fred <the> \"Kid\" & 'co'"),
    (forms.TextInput(attrs={"placeholder": "Nombre", "required": True, "x": False}), None),
    (forms.TextInput(), mark_safe("<i>ya seguro</i>")),
    (forms.NumberInput(attrs={"min": 0, "max": 10, "step": "any"}), 3),
    (forms.NumberInput(), Decimal("1.50")),
    (forms.NumberInput(), 1.5),
    (forms.NumberInput(), ""),
    (forms.HiddenInput(), 7),
    (forms.EmailInput(), "a@b.es"),
    (forms.PasswordInput(render_value=True), "s3cr<t"),
    (forms.DateInput(), datetime.date(2026, 12, 1)),
    (forms.CheckboxInput(), True),
    (forms.CheckboxInput(), False),
    (forms.CheckboxInput(attrs={"hx-post": "/x/?a=1&b=2"}), "on"),
    (forms.Select(choices=CHOICES), "dos"),
    (forms.Select(choices=CHOICES, attrs={"disabled": True, "aria-label": "Rasgo"}), 1),
    (forms.Select(choices=CHOICES), "b"),
    (forms.Select(choices=[]), None),
    (forms.SelectMultiple(choices=CHOICES), ["a", 1]),
    (forms.NullBooleanSelect(), True),
    (forms.RadioSelect(choices=CHOICES), "tres"),
    (forms.RadioSelect(choices=CHOICES, attrs={"id": "id_kind", "class": "btn-check"}), 1),
    (forms.CheckboxSelectMultiple(choices=CHOICES, attrs={"id": "id_many"}), ["dos", "a"]),
]


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize(("widget", "value"), WIDGETS, ids=lambda item: repr(item)[:40])
def test_each_widget_renders_as_django_templates_do(widget, value, language):
    attrs = {"id": "id_campo"}
    with translation.override(language):
        django = widget.render("campo", value, attrs=attrs, renderer=DjangoTemplates())
        fast = widget.render("campo", value, attrs=attrs, renderer=FastWidgetRenderer())
    assert fast == django


def test_the_site_renders_its_forms_with_the_fast_renderer():
    assert isinstance(get_default_renderer(), FastWidgetRenderer)


class OwnOption(forms.Select):
    option_template_name = "django/forms/widgets/input_option.html"


def test_a_select_with_options_of_another_template_goes_to_django():
    widget = OwnOption(choices=[("a", "A")])
    django = widget.render("campo", "a", renderer=DjangoTemplates())
    assert widget.render("campo", "a", renderer=FastWidgetRenderer()) == django


class Choices(forms.Form):
    kind = forms.ChoiceField(choices=CHOICES[1:4], widget=forms.RadioSelect, initial="dos")
    many = forms.MultipleChoiceField(
        choices=CHOICES[1:4], widget=forms.CheckboxSelectMultiple, initial=[1]
    )


@pytest.mark.parametrize("name", ["kind", "many"])
def test_each_radio_and_checkbox_option_renders_as_django_templates_do(name):
    """Crispy's layouts render the options one by one, through the renderer."""
    django = Choices(renderer=DjangoTemplates())[name]
    fast = Choices(renderer=FastWidgetRenderer())[name]
    pairs = list(zip(fast.subwidgets, django.subwidgets, strict=True))
    assert len(pairs) == 3
    for mine, theirs in pairs:
        assert mine.tag() == theirs.tag()
        assert mine.tag(wrap_label=True) == theirs.tag(wrap_label=True)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
def test_every_field_of_each_roll_panel_renders_as_django_templates_do(system, language, gm):
    """The roll panels' forms are what the fast renderer mostly draws: each of their
    fields, untouched and with errors, and the scene the roll goes to."""
    campaign = campaign_with(system, gm)
    character = make_character(campaign, gm, name="Rocío & <co>")
    scene = scene_create(campaign=campaign, title="La <cripta> & co", participants=[character])
    sheet = load_sheet(character, campaign, with_scene=False)
    open_actions = sheet.system.roll_setup.open_actions(character)
    with translation.override(language):
        for data in (None, {"kind": "?", "attribute": "?", "label": "x" * 300, "scene": "0"}):
            (django, django_scene), (fast, fast_scene) = (
                (
                    sheet.system.roll_form(
                        data, sheet=sheet, is_gm=True, open_actions=open_actions, renderer=renderer
                    ),
                    RollSceneForm(
                        data, campaign=campaign, scenes=[scene], default=scene, renderer=renderer
                    ),
                )
                for renderer in (DjangoTemplates(), FastWidgetRenderer())
            )
            fields = [(django[name], fast[name]) for name in django.fields]
            fields.append((django_scene["scene"], fast_scene["scene"]))
            for theirs, mine in fields:
                assert str(mine) == str(theirs)
                for their_option, my_option in zip(theirs.subwidgets, mine.subwidgets, strict=True):
                    assert my_option.tag() == their_option.tag()
