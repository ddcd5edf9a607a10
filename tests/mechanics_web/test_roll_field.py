"""`{% roll_field %}` builds a roll set-up field as a string: its label, choices, help and
errors reach the page escaped, once, in each of its three shapes."""

from __future__ import annotations

from django import forms

from mechanics.templatetags.roll_panel import roll_field
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
