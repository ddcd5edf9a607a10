"""How odds read on every panel (`percent`, the one place that formats them): rounded to a
tenth in the reader's language, never "0 %" for what can happen nor "100 %" for what may not."""

import pytest
from django.utils import translation

from mechanics.templatetags.roll_panel import percent


@pytest.mark.parametrize(
    ("p", "spanish", "english"),
    [
        (0.91765, "91,8 %", "91.8 %"),
        (0.91749, "91,7 %", "91.7 %"),
        (0.62345, "62,3 %", "62.3 %"),
        (0.0015, "0,2 %", "0.2 %"),
        (0.001, "0,1 %", "0.1 %"),
        (0.5, "50,0 %", "50.0 %"),
        (0.999, "99,9 %", "99.9 %"),
        (0.0, "0,0 %", "0.0 %"),
        (1.0, "100,0 %", "100.0 %"),
    ],
)
def test_odds_are_rounded_to_a_tenth_not_truncated(p, spanish, english):
    with translation.override("es"):
        assert percent(p) == spanish
    with translation.override("en"):
        assert percent(p) == english


@pytest.mark.parametrize("p", [1e-9, 0.0004, 0.0005, 0.00099])
def test_odds_under_a_tenth_of_a_percent_show_as_less_than_it(p):
    with translation.override("es"):
        assert percent(p) == "< 0,1 %"
    with translation.override("en"):
        assert percent(p) == "< 0.1 %"


@pytest.mark.parametrize("p", [0.99901, 0.9995, 0.99999])
def test_odds_just_under_certain_show_as_more_than_99_9(p):
    with translation.override("es"):
        assert percent(p) == "> 99,9 %"


def test_no_odds_show_nothing():
    assert percent(None) == ""
