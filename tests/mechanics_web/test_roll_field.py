"""`{% roll_field %}` builds a roll set-up field as a string: its label, choices, help and
errors reach the page escaped, once, in each of its three shapes."""

from __future__ import annotations

import pytest
from django import forms
from django.template import Context, Template
from django.utils import translation

from mechanics.setup import load_sheet
from mechanics.templatetags.roll_panel import roll_field, roll_fieldsets
from tests.factories import campaign_with, make_character
from tests.html import parse


class _Form(forms.Form):
    trait = forms.ChoiceField(
        label='Pelea & <b>"Garras"</b>',
        choices=[("a", "Uñas <i>afiladas</i>"), ("b", "Dientes & más")],
        help_text="Lo que <u>hiere</u>",
    )
    side = forms.ChoiceField(
        label="<s>Lado</s>", choices=[("x", "<x>"), ("y", "Y & Z")], widget=forms.RadioSelect
    )
    secret = forms.BooleanField(label="Secreta <em>", required=False)


def test_each_shape_escapes_what_it_shows():
    form = _Form({"trait": "zzz", "side": "x"}, auto_id="roll7_%s")
    form.add_error("side", "Elige <otro>")
    html = "".join(str(roll_field(form[name])) for name in ("trait", "side", "secret"))
    assert not any(tag in html for tag in ("<b>", "<i>", "<u>", "<s>", "<x>", "<em>", "<otro>"))
    assert "&amp;amp;" not in html
    page = parse(f"<div>{html}</div>")
    assert page.one("label", for_="roll7_trait").text() == 'Pelea & <b>"Garras"</b>'
    assert page.one("div", id="roll7_trait_helptext").text() == "Lo que <u>hiere</u>"
    assert [o.text() for o in page.find_all("option")] == ["Uñas <i>afiladas</i>", "Dientes & más"]
    radios = page.one("div", role="radiogroup")
    assert radios.attrs["aria-labelledby"] == "roll7_side_label"
    assert [label.text() for label in radios.find_all("label")] == ["<x>", "Y & Z"]
    errors = [e.text() for e in page.find_all("div", class_="invalid-feedback")]
    assert "Elige <otro>" in errors
    assert len(errors) == 2  # the refused choice, and the error added
    check = page.one("div", class_="roll-check")
    assert check.one("input", type="checkbox").attrs["id"] == "roll7_secret"
    assert check.one("label").text() == "Secreta <em>"


# What `{% roll_fieldsets %}` replaced: an include of this template per group.
FIELDSET = Template(
    "{% load roll_panel %}\n"
    '<fieldset class="mb-3{% if kinds %} for-kind{% for kind in kinds %} k-{{ kind }}'
    '{% endfor %}{% endif %}">\n'
    '  {% if legend %}<legend class="h6 mb-2">{{ legend }}</legend>{% endif %}\n'
    '  <div class="roll-fields">\n'
    "    {% for field, css in fields %}\n"
    '      <div class="{{ css }}">{% roll_field field %}</div>\n'
    "    {% endfor %}\n"
    "  </div>\n"
    "</fieldset>\n"
)


@pytest.mark.django_db
@pytest.mark.parametrize("system", ["tinieblas", "hitos", "ndp", "objetivo"])
def test_the_fieldsets_are_what_an_include_per_group_drew(system, gm):
    campaign = campaign_with(system, gm)
    character = make_character(campaign, gm, name="Rocío & <co>")
    sheet = load_sheet(character, campaign, with_scene=False)
    open_actions = sheet.system.roll_setup.open_actions(character)
    with translation.override("es"):
        for data in (None, {"kind": "?", "attribute": "?", "label": "x" * 300}):
            form = sheet.system.roll_form(data, sheet=sheet, is_gm=True, open_actions=open_actions)
            shown = list(form.fieldsets())
            assert shown
            for groups in (shown, list(form.folded_fieldsets())):
                included = "".join(
                    FIELDSET.render(Context({"legend": legend, "kinds": kinds, "fields": fields}))
                    for legend, kinds, fields in groups
                )
                assert roll_fieldsets(groups) == included
