"""The chart of XP over time, drawn on the server as SVG geometry (no JavaScript).

`build_chart` turns characters.xp_buckets' points into what the template draws: one step
line per character (XP only changes at entries), a point that groups entries drawn as a box
over their times from the lowest to the highest value they left, and axes with round ticks,
drawn once; the legend is HTML below it, so it wraps on any screen. `Chart.figure` writes
its HTML.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone
from django.utils.dateformat import DateFormat, re_escaped, re_formatchars
from django.utils.dates import MONTHS_3
from django.utils.formats import get_format, localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.markup import esc

# viewBox units. One drawing for every screen; css/xp.css enlarges the tick labels on
# phones, where the drawing is shown at half size.
WIDTH = 720
LEFT, RIGHT, TOP, BOTTOM = 40, 14, 12, 30
# A line's colour (CSS classes xp-series-0 … xp-series-7) and dash pattern (xp-dash-0 …
# xp-dash-3): the first eight lines differ in both, and no two of the first 32 in both.
SERIES_STYLES = 8
DASHES = 4
MIN_SPAN = 3600  # seconds: a chart of one evening still spans an hour


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Series:
    name: str
    style: int  # its colour
    dash: int
    points: str  # the polyline's "x,y x,y …"
    # One circle per point (a box per group of entries) with its value as a tooltip:
    # markup made here, as a template loop over a few hundred of them cost more than the
    # rest of the chart.
    markers: SafeString
    last: int

    @property
    def classes(self) -> str:
        """What the line and its legend swatch wear alike (css/xp.css)."""
        return f"xp-series xp-series-{self.style} xp-dash-{self.dash}"


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]

    @property
    def is_empty(self) -> bool:
        return not self.series

    @property
    def legend(self) -> str:
        """The legend's items, each line's name and last value (localized as a template
        does)."""
        number = integer_text()
        return "".join(
            f'<li class="{line.classes}">'
            '<svg class="xp-legend-swatch" viewBox="0 0 32 6"><line x1="0" y1="3" x2="32" '
            f'y2="3"/></svg>{html.escape(line.name)} · {number(line.last)}</li>'
            for line in self.series
        )

    @property
    def lines(self) -> str:
        """Each series' group of the SVG."""
        return "".join(
            f'<g class="{line.classes}" data-series="{html.escape(line.name)}">'
            f'<polyline points="{line.points}"/>{line.markers}</g>\n'
            for line in self.series
        )

    def figure(self, chart_id: str) -> SafeString:
        """The chart's HTML: the SVG, with its title and description for screen readers,
        and the legend below it (hidden from them: the description says the same). Written
        here, not by a template: its loops over the ticks and lines cost as much as
        drawing them. Numbers are written as Python writes them (dots in every language)."""
        if self.is_empty:
            body = f'<p class="text-body-secondary mb-0">{html.escape(self.description)}</p>'
        else:
            svg_id = html.escape(chart_id)
            grid = [
                f'<line x1="{self.left}" x2="{self.right}" y1="{tick.position}" '
                f'y2="{tick.position}"/><text class="xp-chart-label" x="{self.left - 6}" '
                f'y="{tick.position}" text-anchor="end" dominant-baseline="middle">'
                f"{html.escape(tick.label)}</text>\n"
                for tick in self.y_ticks
            ]
            last = len(self.x_ticks) - 1
            for index, tick in enumerate(self.x_ticks):
                anchor = "start" if index == 0 else "end" if index == last else "middle"
                grid.append(
                    f'<text class="xp-chart-label" x="{tick.position}" y="{self.bottom + 20}" '
                    f'text-anchor="{anchor}">{html.escape(tick.label)}</text>\n'
                )
            body = (
                f'<svg viewBox="0 0 {self.width} {self.height}" role="img" '
                f'aria-labelledby="{svg_id}-title {svg_id}-desc" '
                f'xmlns="http://www.w3.org/2000/svg" data-series-count="{len(self.series)}">\n'
                f'<title id="{svg_id}-title">{html.escape(self.title)}</title>\n'
                f'<desc id="{svg_id}-desc">{html.escape(self.description)}</desc>\n'
                f'<g class="xp-chart-grid" aria-hidden="true">\n{"".join(grid)}</g>\n'
                '<g class="xp-chart-axes" aria-hidden="true">\n'
                f'<line x1="{self.left}" x2="{self.left}" y1="{self.top}" y2="{self.bottom}"/>\n'
                f'<line x1="{self.left}" x2="{self.right}" y1="{self.bottom}" '
                f'y2="{self.bottom}"/>\n</g>\n{self.lines}</svg>\n'
                '<ul class="xp-chart-legend list-unstyled small mb-0 mt-2" aria-hidden="true">'
                f"{self.legend}</ul>"
            )
        # Every name and label escaped above; the rest numbers and escaped markers.
        return mark_safe(
            f'<figure class="xp-chart mb-0" id="{html.escape(chart_id)}">\n{body}\n</figure>'
        )


def _nice_step(maximum: int, ticks: int = 4) -> int:
    """A round step (1, 2, 5, 10, 20, 25, 50…) giving at most `ticks` intervals."""
    raw = max(maximum, 1) / ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw and float(step).is_integer():
            return int(step)
    return int(10 * magnitude)


# The format codes that read the moment's own fields, written as `DateFormat` writes
# them, as fields of `str.format(day, month, year, hour, minute, second, month's name,
# year % 100)`: the moment's fields read once in Python (a `{0.day}` field of the template
# costs twice as much), PLAIN_ARGUMENTS of them.
PLAIN_FIELDS = {
    "d": "{0:02d}",
    "j": "{0}",
    "m": "{1:02d}",
    "n": "{1}",
    "M": "{6}",
    "Y": "{2:04d}",
    "y": "{7:02d}",
    "H": "{3:02d}",
    "G": "{3}",
    "i": "{4:02d}",
    "s": "{5:02d}",
}
PLAIN_ARGUMENTS = 8


def moment_formatter(format_string: str, *, escaped: bool = False) -> Callable[[datetime], str]:
    """`DateFormat(moment).format(format_string)` for the hundreds of moments of a chart
    or a page of rows: the format is split once, where `Formatter.format` splits it again
    at every call (through a lazy regex), into one `str.format` template, in which the
    plain codes read the moment without `DateFormat` (which checks the moment against its
    time zone first); made once per format and language (the month names are the
    language's). `escaped`: as `html.escape` would write it, the template's words escaped
    once (numbers need nothing), not each moment written."""
    return _formatter(str(format_string), get_language(), escaped)


@lru_cache(maxsize=64)
def _formatter(format_string: str, _language: str, escaped: bool) -> Callable[[datetime], str]:
    words = html.escape if escaped else str
    months = {number: words(str(name).title()) for number, name in MONTHS_3.items()}
    template, others = [], []
    for index, piece in enumerate(re_formatchars.split(format_string)):
        if index % 2 == 0:
            text = words(re_escaped.sub(r"\1", piece))
            template.append(text.replace("{", "{{").replace("}", "}}"))
        elif piece in PLAIN_FIELDS:
            template.append(PLAIN_FIELDS[piece])
        else:  # the codes left to DateFormat follow the plain arguments
            template.append(f"{{{PLAIN_ARGUMENTS + len(others)}}}")
            others.append(piece)
    write = "".join(template).format

    def format_moment(moment: datetime) -> str:
        year, month = moment.year, moment.month
        plain = (moment.day, month, year, moment.hour, moment.minute, moment.second)
        if not others:
            return write(*plain, months[month], year % 100)
        written = DateFormat(moment)
        rest = (words(str(getattr(written, code)())) for code in others)
        return write(*plain, months[month], year % 100, *rest)

    return format_moment


def integer_text() -> Callable[[object], str]:
    """How a template writes a number in the active language (`localize`), escaped, worked
    out once for a list: an integer's digits as they are unless thousands are grouped
    (numberformat's own shortcut), which skips three format look-ups per number."""
    if settings.USE_THOUSAND_SEPARATOR and get_format("NUMBER_GROUPING"):
        return lambda value: esc(localize(value))
    return lambda value: str(value) if type(value) is int else esc(localize(value))


def chart_title(measure: str) -> str:
    return _("XP balance over time") if measure != "earned" else _("XP earned over time")


class Marks(NamedTuple):
    """What a character's line shows whatever the axes: its points' moments (their last
    entry's, in local wall-clock time, in microseconds since 1970, as the axis measures
    them), values and tooltips (escaped), and for each point that groups entries (by its
    index) its first entry's moment and the lowest and highest value in the group. Kept
    apart from the axes, which move at every new entry: a chart drawn again reads these
    for the characters whose ledger did not change."""

    moments: list[int]
    values: list[int]
    titles: list[str]
    ranges: dict[int, tuple[int, int, int]]

    @property
    def first(self) -> int:
        """The moment of the line's first entry."""
        return self.ranges[0][0] if 0 in self.ranges else self.moments[0]


# The axis measures local wall-clock time: aware moments of one zone subtract as such.
WALL_EPOCH = datetime(1970, 1, 1)
EPOCH_DAY = WALL_EPOCH.toordinal()
MICROSECOND = timedelta(microseconds=1)


def _microseconds(moment: datetime) -> int:
    """A local moment as wall-clock microseconds since 1970: in integers, as a timedelta's
    floor division by a microsecond costs four times this (hundreds of moments a chart)."""
    seconds = (moment.toordinal() - EPOCH_DAY) * 86400
    seconds += moment.hour * 3600 + moment.minute * 60 + moment.second
    return seconds * 1000000 + moment.microsecond


def _wall(microseconds: int, zone) -> datetime:
    return (WALL_EPOCH + microseconds * MICROSECOND).replace(tzinfo=zone)


def chart_marks(series_points: dict, measure: str = "balance", *, dates: bool = False) -> dict:
    """{character: Marks} for {character: [xp_buckets.LedgerPoint oldest first]}; with
    `dates`, the points' moments written as dates (points that group weeks of entries)."""
    zone = timezone.get_current_timezone()
    # The sentences escaped once, and each name and date: what escaping each tooltip
    # would write (numbers need none), for a fraction of its cost.
    marker_title = html.escape(_("%(name)s: %(value)s XP on %(date)s"))
    group_title = html.escape(
        _("%(name)s: %(value)s XP on %(date)s (between %(low)s and %(peak)s XP since %(start)s)")
    )
    # Once per chart, not per point (DateFormat is what date_format calls for each).
    written = get_format("SHORT_DATE_FORMAT" if dates else "SHORT_DATETIME_FORMAT")
    moment_text = moment_formatter(written, escaped=True)
    found = {}
    earned = measure == "earned"
    for character, points in series_points.items():
        name = html.escape(character.name)
        running = 0
        moments, values, titles, ranges = [], [], [], {}
        for index, (first_at, last_at, low, peak, balance, gained) in enumerate(points):
            before = running
            running = running + gained if earned else balance
            moment = last_at.astimezone(zone)
            moments.append(_microseconds(moment))
            values.append(running)
            date = moment_text(moment)
            if first_at != last_at or low != peak:  # LedgerPoint.is_group
                first = first_at.astimezone(zone)
                # The summary keeps the balance's range alone; XP earned only falls with
                # a correction, so its range is most often what it was before and after.
                if earned:
                    low, peak = (before, running) if before <= running else (running, before)
                ranges[index] = (_microseconds(first), low, peak)
                start = moment_text(first)
                titles.append(
                    group_title
                    % {
                        "name": name,
                        "value": running,
                        "date": date,
                        "low": low,
                        "peak": peak,
                        "start": start,
                    }
                )
            else:
                titles.append(marker_title % {"name": name, "value": running, "date": date})
        found[character] = Marks(moments, values, titles, ranges)
    return found


def build_chart(
    marks: dict,
    *,
    measure: str = "balance",
    width: int = WIDTH,
    now: datetime | None = None,
) -> Chart:
    """{character: its line's `chart_marks`} → the chart; `measure` "balance" or "earned".

    The time axis runs from the first entry to now (`now`, the current time by default),
    at least an hour; each line then holds its last value to the right edge: a balance
    unchanged for a month shows a month long.
    """
    values = {character: line for character, line in marks.items() if line.moments}
    title = chart_title(measure)
    plot_height = 240
    height = TOP + plot_height + BOTTOM
    if not values:
        return Chart(
            title, _("No XP yet."), width, height, LEFT, width - RIGHT, TOP, TOP, (), (), ()
        )
    zone = timezone.get_current_timezone()
    start = _wall(min(m.first for m in values.values()), zone)
    end = _wall(max(m.moments[-1] for m in values.values()), zone)
    # Entries of one evening still get an hour's width, taken before them (a chart never
    # reaches into the future); a margin keeps the first and last steps off the axes.
    missing = timedelta(seconds=max(MIN_SPAN - (end - start).total_seconds(), 0))
    margin = timedelta(seconds=max((end - start).total_seconds(), MIN_SPAN) * 0.04)
    start, end = start - missing - margin, end + margin
    end = max(end, timezone.localtime(now or timezone.now()))
    span = (end - start).total_seconds()
    # Every value a line reaches: its points' and its groups' lowest and highest.
    shown = {v for m in values.values() for v in m.values}
    shown.update(v for m in values.values() for r in m.ranges.values() for v in r[1:])
    top_value = max(shown)
    step = _nice_step(top_value)
    y_max = max(step * math.ceil(max(top_value, 1) / step), step)
    plot_left, plot_right = LEFT, width - RIGHT
    plot_top, plot_bottom = TOP, TOP + plot_height
    start_at = _microseconds(start)

    def x_of(moment: datetime) -> float:
        return round(
            plot_left + (moment - start).total_seconds() / span * (plot_right - plot_left), 1
        )

    def y_of(value: int) -> float:
        return round(plot_bottom - value / y_max * (plot_bottom - plot_top), 1)

    short = span < 2 * 24 * 3600
    intervals = 4
    x_ticks = []
    tick_text = moment_formatter("H:i" if short else "j M")
    for index in range(intervals + 1):
        moment = start + timedelta(seconds=span * index / intervals)
        label = tick_text(moment)
        x_ticks.append(Tick(x_of(moment), label))
    y_ticks = tuple(Tick(y_of(value), str(value)) for value in range(0, y_max + 1, step))
    # The hot loop: as x_of and y_of, from a point's microseconds (/ 10**6 is what
    # timedelta.total_seconds() divides), in one pass over a line's points; each value's
    # height worked out and written once.
    x_scale = plot_right - plot_left
    bottom = str(y_of(0))
    levels = {value: y_of(value) for value in shown}
    heights = {value: str(level) for value, level in levels.items()}
    series = []
    for index, (character, line) in enumerate(values.items()):
        ranges = line.ranges
        steps, markers = [], []
        before, value_before, origin = bottom, 0, None
        points = zip(line.moments, line.values, line.titles, strict=True)
        for at, (moment, value, tooltip) in enumerate(points):
            x = round(plot_left + (moment - start_at) / 1000000 / span * x_scale, 1)
            y = heights[value]
            group = ranges.get(at)
            if group is None:
                # A step: along at the height before it, then up or down to its own.
                steps.append(f"{x},{before} {x},{y}")
                markers.append(
                    f'<circle cx="{x}" cy="{y}" r="3.5"><title>{tooltip}</title></circle>'
                )
                if origin is None:
                    origin = x
            else:
                # A group: a box over its entries' times from its lowest value to its
                # highest (3 units wider, so entries of one moment show), entered at its
                # first entry and left at its last.
                first, low, peak = group
                x_first = round(plot_left + (first - start_at) / 1000000 / span * x_scale, 1)
                entered = heights[min(max(value_before, low), peak)]
                steps.append(f"{x_first},{before} {x_first},{entered} {x},{y}")
                # Written to a tenth as round() and str() would write them, in one step.
                markers.append(
                    f'<rect x="{x_first - 1.5:.1f}" y="{heights[peak]}" '
                    f'width="{x - x_first + 3:.1f}" '
                    f'height="{levels[low] - levels[peak]:.1f}">'
                    f"<title>{tooltip}</title></rect>"
                )
                if origin is None:
                    origin = x_first
            before, value_before = y, value
        series.append(
            Series(
                name=character.name,
                style=index % SERIES_STYLES,
                dash=(index + index // SERIES_STYLES) % DASHES,
                points=f"{origin},{bottom} {' '.join(steps)} {plot_right},{before}",
                markers=mark_safe("".join(markers)),  # each title escaped by chart_marks
                last=line.values[-1],
            )
        )
    now_text = _("%(name)s: %(value)s XP now")
    description = "; ".join(now_text % {"name": s.name, "value": s.last} for s in series)
    return Chart(
        title,
        description,
        width,
        height,
        plot_left,
        plot_right,
        plot_top,
        plot_bottom,
        tuple(x_ticks),
        y_ticks,
        tuple(series),
    )
