"""The server-drawn XP chart: one step line per character, a box for each group of
entries, round ticks, an accessible title and description, and coordinates that survive
Spanish number formatting."""

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone, translation
from django.utils.dateformat import DateFormat
from django.utils.formats import get_format
from django.utils.html import escape

from characters.xp_buckets import LedgerPoint
from characters.xp_chart import WIDTH, _nice_step, build_chart, chart_marks, moment_formatter

START = timezone.make_aware(datetime(2026, 3, 1, 20, 0))


def entry(minutes: int, kind: str, amount: int, balance: int) -> LedgerPoint:
    """The point of one entry."""
    at = START + timedelta(minutes=minutes)
    return LedgerPoint(at, at, balance, balance, balance, 0 if kind == "spend" else amount)


class Named:
    def __init__(self, name):
        self.name = name


LUCIA = Named("Lucía")
MATEO = Named("Mateo")
SERIES = {
    LUCIA: [entry(0, "award", 9, 9), entry(30, "spend", -6, 3), entry(600, "award", 5, 8)],
    MATEO: [entry(0, "award", 7, 7)],
}


def points(series):
    return [tuple(map(float, pair.split(","))) for pair in series.points.split()]


@pytest.mark.parametrize(("maximum", "step"), [(1, 1), (4, 1), (9, 5), (16, 5), (40, 10), (90, 25)])
def test_ticks_use_round_steps(maximum, step):
    assert _nice_step(maximum) == step


def test_one_step_line_per_character_following_the_balance():
    chart = build_chart(chart_marks(SERIES))
    assert [s.name for s in chart.series] == ["Lucía", "Mateo"]
    lucia = points(chart.series[0])
    ys = [y for _x, y in lucia]
    # From 0 up to 9, down to 3, up to 8, then held to the right edge.
    y_of = {tick.label: tick.position for tick in chart.y_ticks}
    assert ys[0] == ys[1] == y_of["0"]
    assert lucia[-1][0] == chart.right
    assert [s.last for s in chart.series] == [8, 7]
    # Each change is vertical: x repeats, only y moves.
    xs = [x for x, _y in lucia]
    assert xs[1] == xs[2]
    assert xs[3] == xs[4]


def test_the_earned_measure_ignores_spends():
    chart = build_chart(chart_marks(SERIES, "earned"), measure="earned")
    assert [s.last for s in chart.series] == [14, 7]
    with translation.override("en"):
        assert (
            build_chart(chart_marks(SERIES, "earned"), measure="earned").title
            == "XP earned over time"
        )


def test_the_description_says_where_each_character_stands():
    with translation.override("en"):
        chart = build_chart(chart_marks(SERIES))
    assert chart.title == "XP balance over time"
    assert chart.description == "Lucía: 8 XP now; Mateo: 7 XP now"


def test_no_entries_draw_no_chart():
    with translation.override("en"):
        chart = build_chart(chart_marks({LUCIA: []}))
    assert chart.is_empty
    assert chart.description == "No XP yet."


def test_the_chart_is_drawn_once_with_an_html_legend_that_wraps():
    chart = build_chart(chart_marks(SERIES))
    html = chart.figure("c")
    assert chart.width == WIDTH
    # One drawing (the legend's swatches are pieces of line, hidden with the legend).
    assert html.count('<svg viewBox="0 0 720 ') == html.count('role="img"') == 1
    legend = html[html.index('class="xp-chart-legend') :]
    assert "Lucía · 8" in legend
    assert "Mateo · 7" in legend


def test_coordinates_render_with_dots_in_spanish():
    chart = build_chart(chart_marks(SERIES))
    with translation.override("es"):
        html = chart.figure("c")
    for value in re.findall(r' (?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', html):
        assert re.fullmatch(r"-?\d+(\.\d+)?", value), value
    assert html.count("<polyline") == 2
    assert '<title id="c-title">' in html
    assert 'aria-labelledby="c-title c-desc"' in html


def test_the_time_axis_ends_now_and_the_lines_hold_their_value_until_then():
    now = START + timedelta(days=10)
    chart = build_chart(chart_marks(SERIES), now=now)
    with translation.override("es"):
        assert chart.x_ticks[-1].label == "11 Mar"
    lucia = points(chart.series[0])
    last_entry_x = lucia[-2][0]
    assert lucia[-1] == (chart.right, lucia[-2][1])
    # The last award (10 hours in) sits near the left: ten days have passed since.
    assert last_entry_x < chart.left + (chart.right - chart.left) * 0.1


def test_entries_of_this_evening_keep_an_axis_of_the_evening():
    chart = build_chart(chart_marks(SERIES), now=START + timedelta(minutes=601))
    assert [tick.label for tick in chart.x_ticks][-1] != "11 Mar"
    assert chart.x_ticks[-1].label.count(":") == 1  # hours, not days


def test_an_evening_shorter_than_an_hour_takes_its_hour_before_and_never_reaches_the_future():
    """Entries minutes old: the axis spans the hour before them, and no tick lies after
    now (the QA pass saw ticks a quarter and half an hour ahead)."""
    minutes_old = {LUCIA: [entry(0, "award", 9, 9), entry(2, "spend", -6, 3)]}
    now = START + timedelta(minutes=5)
    chart = build_chart(chart_marks(minutes_old), now=now)
    with translation.override("es"):
        labels = [tick.label for tick in chart.x_ticks]
    assert labels[-1] <= "20:05", labels
    assert labels[0] <= "19:15", labels  # the hour before the first entry


def test_each_point_has_a_circle_whose_tooltip_escapes_the_name():
    sly = Named("<b>Sly</b>")
    with translation.override("en"):
        chart = build_chart(chart_marks({sly: SERIES[LUCIA]}))
        html = chart.figure("c")
    assert html.count("<circle") == 3
    assert "<b>" not in html
    assert "<title>&lt;b&gt;Sly&lt;/b&gt;: 9 XP on 1 Mar 2026, 20:00</title>" in html


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize(
    "format_string",
    [
        "SHORT_DATETIME_FORMAT",
        r"l j \d\e F Y, H:i \h",
        "D, N jS P e",
        # Every code written without DateFormat, and one written with it.
        "d/m/y j-n-Y M G:H:i:s a",
        # Words that markup escapes.
        "<\\b>M</\\b> & 'y' a",
    ],
)
def test_a_moments_tooltip_reads_as_djangos_dateformat_writes_it(language, format_string):
    # Every month, and days, hours, minutes and seconds of one and two digits.
    moments = [START + timedelta(days=31 * n, minutes=97 * n, seconds=7 * n) for n in range(13)]
    with translation.override(language):
        format_string = get_format(format_string) if format_string.isupper() else format_string
        written = moment_formatter(format_string)
        escaped = moment_formatter(format_string, escaped=True)
        for moment in map(timezone.localtime, moments):
            assert written(moment) == DateFormat(moment).format(format_string)
            assert escaped(moment) == escape(DateFormat(moment).format(format_string))


def test_a_group_of_entries_shows_the_range_of_balances_it_left():
    """+9 at 20:02, +9 at 20:05 and -9 at 20:06, grouped: the line enters a box at the
    first entry, which reaches the 18 the ledger showed, and leaves it at 9 at the last."""
    group = LedgerPoint(START + timedelta(minutes=2), START + timedelta(minutes=6), 9, 18, 9, 18)
    with translation.override("en"):
        chart = build_chart(chart_marks({LUCIA: [group]}), now=START + timedelta(minutes=10))
        html = chart.figure("c")
    y_of = {tick.label: tick.position for tick in chart.y_ticks}
    assert max(y_of, key=int) == "20"  # the axis reaches the peak, not only the last balance

    def height(value: int) -> float:
        return y_of["0"] - value * (y_of["0"] - y_of["20"]) / 20

    [rect] = re.findall(r"<rect ([^>]*)>", html)
    box = {name: float(value) for name, value in re.findall(r'(\w+)="([^"]*)"', rect)}
    assert (box["y"], box["y"] + box["height"]) == pytest.approx((height(18), height(9)))
    assert "Lucía: 9 XP on 1 Mar 2026, 20:06 (between 9 and 18 XP since 1 Mar 2026, 20:02)" in html
    assert "<circle" not in html
    # Along at 0 to the first entry, up into the box, across it to 9 at the last entry.
    _origin, first, entered, last, edge = points(chart.series[0])
    assert first[1] == height(0)
    assert first[0] == entered[0] < last[0]
    assert entered[1] == height(9)
    assert last[1] == edge[1] == height(9)
    assert box["x"] < first[0] < last[0] < box["x"] + box["width"]


def test_no_two_of_the_first_32_lines_look_alike_and_the_first_eight_differ_in_both():
    """A table of many characters: a line shares its colour with the line eight after it,
    never its dash pattern as well, and its legend swatch wears both."""
    characters = [Named(f"PJ {number:02d}") for number in range(32)]
    chart = build_chart(chart_marks({c: [entry(0, "award", 5, 5)] for c in characters}))
    looks = [(line.style, line.dash) for line in chart.series]
    assert len(set(looks)) == 32
    assert len({style for style, _dash in looks[:8]}) == 8
    assert [dash for _style, dash in looks[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]
    html = chart.figure("c")
    for character, (style, dash) in zip(characters, looks, strict=True):
        classes = f"xp-series xp-series-{style} xp-dash-{dash}"
        assert f'<g class="{classes}" data-series="{character.name}">' in html
        assert f'<li class="{classes}"><svg class="xp-legend-swatch"' in html
