"""How rolls read on the page: dice as dice with their states in classes and words."""

import random

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from mechanics.dice_view import die_view
from mechanics.presentation import roll_display
from mechanics.rules.expressions import parse, roll_expression
from mechanics.rules.ndp.rolls import NdpSpec
from mechanics.rules.ndp.rolls import roll_check as ndp_check
from tests.mechanics_web.rolls import hitos_record, store_roll

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _spanish():
    with translation.override("es"):
        yield


def test_a_die_says_what_it_did_in_classes_marks_and_words():
    die = die_view(
        {"sides": 10, "value": 10, "tags": ["success", "exploded", "kept"]}, mark_kept=False
    )
    assert die.classes == "die die-d10 die-success die-exploded"
    assert die.marks == "✓✶"
    assert die.description == "d10: 10, éxito, explota"


def test_the_same_die_reads_in_each_language_and_kept_only_when_marked():
    shown = {"sides": 10, "value": 7, "tags": ["success", "kept"]}
    spanish = die_view(shown, mark_kept=True)
    with translation.override("en"):
        english = die_view(shown, mark_kept=True)
    unmarked = die_view(shown, mark_kept=False)
    assert spanish.description == "d10: 7, éxito, se queda"
    assert english.description == "d10: 7, success, kept"
    assert unmarked.description == "d10: 7, éxito"
    assert str(english) != str(spanish)


def test_a_die_draws_itself_in_a_template_as_every_card_does():
    die = die_view({"sides": 10, "value": 8, "tags": ["success"]}, mark_kept=False)
    plain = die_view({"sides": 6, "value": 2, "tags": []}, mark_kept=False)
    html = Template("{{ die }}{{ plain }}").render(Context({"die": die, "plain": plain}))
    assert html == (
        '<li class="die die-d10 die-success" title="d10: 8, éxito">'
        '<span class="die-value" aria-hidden="true">8</span>'
        '<span class="die-marks" aria-hidden="true">✓</span>'
        '<span class="visually-hidden">d10: 8, éxito</span></li>'
        '<li class="die die-d6" title="d6: 2"><span class="die-value" aria-hidden="true">2</span>'
        '<span class="visually-hidden">d6: 2</span></li>'
    )


def test_dice_added_by_explosions_and_rerolls_are_marked():
    added = die_view({"sides": 10, "value": 3, "tags": ["explosion", "kept"]}, mark_kept=False)
    rerolled = die_view({"sides": 10, "value": 9, "tags": ["reroll", "success"]}, mark_kept=False)
    assert added.marks == "+"
    assert "añadido por una explosión" in added.description
    assert rerolled.marks == "✓↻"
    assert "die-reroll" in rerolled.classes


def test_kept_and_dropped_dice_are_marked_when_some_dice_do_not_count():
    kept = die_view({"sides": 10, "value": 6, "tags": ["kept"]}, mark_kept=True)
    dropped = die_view({"sides": 10, "value": 9, "tags": ["dropped"]}, mark_kept=True)
    assert "die-kept" in kept.classes
    assert kept.description == "d10: 6, se queda"
    assert "die-dropped" in dropped.classes
    assert dropped.description == "d10: 9, no cuenta"


def test_gracias_and_desgracias_are_d4s_and_a_desgracia_subtracts():
    gracia = die_view({"sides": 4, "value": 3, "tags": ["gracia", "kept"]}, mark_kept=False)
    desgracia = die_view(
        {"sides": 4, "value": 2, "tags": ["desgracia", "negative", "kept"]}, mark_kept=False
    )
    assert "die-d4 die-gracia" in gracia.classes
    assert gracia.description == "d4: 3, Gracia"
    assert desgracia.text == "−2"
    assert "die-negative" in desgracia.classes


def test_odd_dice_get_a_round_shape_and_a_broken_die_does_not_break_the_page():
    assert "die-dx" in die_view({"sides": 100, "value": 42, "tags": []}, mark_kept=False).classes
    broken = die_view({"value": "x", "tags": [None]}, mark_kept=False)
    assert broken.text == "0"


def test_a_free_pool_reads_as_successes_and_its_grade(campaign, gm):
    record = roll_expression(parse("5d10 9-again"), random.Random(4))
    shown = roll_display(store_roll(campaign, gm, record=record, label="Percepción"))
    assert shown.result == f"{record.result} éxito{'s' if record.result != 1 else ''}"
    grades = {"failure": "Fallo", "marginal": "Éxito marginal", "success": "Éxito"}
    grades.update(exceptional="Éxito excepcional", dramatic_failure="Fallo dramático")
    assert shown.outcome == grades[record.outcome]
    assert shown.expression == "5d10 9-again"
    assert shown.summary.startswith("alice · Percepción · ")


def test_a_free_sum_reads_as_its_total(campaign, gm):
    record = roll_expression(parse("2d6+3"), random.Random(4))
    shown = roll_display(store_roll(campaign, gm, record=record))
    assert shown.result == f"Total {record.result}"
    assert shown.outcome == ""
    assert shown.summary == f"alice · 2d6+3 · Total {record.result}"


def test_system_rolls_read_as_the_roll_panel_reads_them(campaign, gm):
    hitos = roll_display(store_roll(campaign, gm, record=hitos_record()))
    assert hitos.result.startswith("Total ")
    assert len(hitos.groups[0].dice) == 3
    ndp = ndp_check(NdpSpec(level=3, gracias=1, desgracias=1), random.Random(2))
    shown = roll_display(store_roll(campaign, gm, record=ndp))
    classes = [die.classes for die in shown.groups[0].dice]
    assert sum("die-d6" in c for c in classes) == 3
    assert any("die-gracia" in c for c in classes)
    assert any("die-negative" in c for c in classes)


def test_the_shared_partial_draws_a_roll_with_who_when_and_every_die(campaign, gm, player):
    roll = store_roll(campaign, player, label="Sigilo", dice=6)
    html = render_to_string("mechanics/_roll.html", {"roll": roll})
    assert 'data-roll="%s"' % roll.pk in html
    assert "bob" in html
    assert "Sigilo" in html
    assert html.count('<li class="die die-d10') == len(roll.record["dice"])
    assert '<time class="roll-when" datetime="' in html
    secret = store_roll(campaign, gm, secret=True)
    assert "Secreta" in render_to_string("mechanics/_roll.html", {"roll": secret})
