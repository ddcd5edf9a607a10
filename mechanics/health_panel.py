"""What the health section of a sheet shows: the state, the latest health events, and the
forms each user may use (damage, time, the treatments the system declares), in a fixed
number of queries.

Used by the sheet page (through `characters.sheet_panels`) and by the health views
(`mechanics.views.health`), which render pieces of `mechanics/health.html`.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from django import forms
from django.db.models import F, Max
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.fragments import cached_pieces, fragment_key
from campaigns.markup import esc
from campaigns.permissions import CharacterAccess
from characters.sheet_panels import register_sheet_panel
from mechanics import cards
from mechanics.cards import card_names
from mechanics.forms.health import DamageForm, TimeForm
from mechanics.models import HealthEvent, Roll
from mechanics.rules.errors import RuleError
from mechanics.systems.base import GameSystem, HealthView, Treatment, hours_in_words
from mechanics.systems.registry import get_system

# The sheet lists this many events; the health history page has them all.
LATEST_EVENTS = 10
# htmx listens for this event (HX-Trigger) to refresh a character's roll panel.
HEALTH_EVENT = "cronica:health"
# How a treatment shows when its system has no fragment of its own.
TREATMENT_PANEL = "mechanics/health.html#treatment"
TREATMENT_BUTTON = "mechanics/health.html#treatment_button"
# The end of an event's row (`#event` in mechanics/health.html), after its Undo form if any.
EVENT_END = "\n</li>\n"
EVENT_TIMEOUT = 86400


@dataclass(frozen=True)
class TreatmentControl:
    """One treatment as the health section offers it: its form (None while the tool is
    closed: it loads when opened) and where it is drawn."""

    treatment: Treatment
    form: forms.Form | None
    templates: tuple[str, ...]


@dataclass(frozen=True)
class EventRow:
    event: HealthEvent
    state_after: str
    undone: bool
    is_undo_target: bool = False
    # The row's HTML, cached; empty for the Undo's target, which the page renders with
    # its form.
    html: SafeString | str = ""

    @property
    def kind_label(self) -> str:
        return self.event.get_kind_display()

    @property
    def summary(self) -> str:
        """The summary in the reader's language; time passing reads better in days and
        weeks than hours."""
        hours = self.event.inputs.get("hours")
        if self.event.kind == HealthEvent.Kind.TIME and isinstance(hours, int):
            return hours_in_words(hours) or self.event.summary_text
        return self.event.summary_text

    @property
    def head(self) -> SafeString:
        """The row's markup up to the Undo form (`#event` in mechanics/health.html): built
        as a string, as roll cards are (`mechanics.cards.card_html`), since a template's
        lookups cost five times this for each row of a list."""
        event = self.event
        at = timezone.localtime(event.created_at)
        classes = f"health-event kind-{esc(event.kind)}{' undone' if self.undone else ''}"
        html = [
            f'\n<li class="{classes}" id="health-event-{event.pk}">\n  '
            '<div class="health-event-head">\n    <span class="badge health-kind">'
            f'{esc(self.kind_label)}</span>\n    <span class="health-event-summary">'
            f"{esc(self.summary)}</span>\n    "
        ]
        if self.state_after:
            html.append(
                '<span class="health-event-after"><span aria-hidden="true">→</span><span '
                f'class="visually-hidden">{esc(_("leaves"))}</span> {esc(self.state_after)}</span>'
            )
        html.append("\n    ")
        if self.undone:
            html.append(f'<span class="badge text-bg-secondary">{esc(_("undone"))}</span>')
        html.append("\n  </div>\n  ")
        if event.reason:
            html.append(f'<div class="health-event-reason">{esc(event.reason_text)}</div>')
        author = event.author_name if event.created_by_id else _("a deleted account")
        html.append(
            f'\n  <div class="health-event-meta">\n    {esc(author)}\n    · <time datetime="'
            f'{at.isoformat()}">{esc(formats.date_format(at, "DATETIME_FORMAT"))}</time>\n    '
        )
        if event.scene_id:
            html.append(f"· {esc(event.scene_title)}")
        html.append("\n  </div>\n  ")
        if event.roll:
            card = cards.card(event.roll, compact=True)
            html.append(f'<div class="health-event-roll">{card}\n</div>')
        html.append("\n  ")
        return mark_safe("".join(html))  # escaped above, as the template would


def event_html(row: EventRow) -> str:
    """A row of events as the sheet and the history page list it, but for the Undo's
    target (which the page renders with its form)."""
    return row.head + EVENT_END


# A `health_version`, as a poll sends it back.
HEALTH_VERSION = re.compile(r"\d+-[0-9a-f]{8}")


def health_digest(character) -> str:
    """A short digest of the character's stored health (its own column)."""
    return f"{zlib.crc32(json.dumps(character.health, sort_keys=True).encode()):08x}"


def health_version(character, latest_event_id: int | None) -> str:
    """What a poll compares: the newest event and the stored health itself (so a change
    made without an event, an import or an admin edit, shows too)."""
    return f"{latest_event_id or 0}-{health_digest(character)}"


def latest_event_id(character) -> int | None:
    return HealthEvent.objects.filter(character=character).aggregate(latest=Max("pk"))["latest"]


def state_label(shown: HealthView, system: GameSystem) -> str:
    """The state's name; without one, whether the character has any wound at all (a
    wound without a state, a mark in a nameless box of a long track)."""
    if shown.state:
        return shown.state
    return _("Wounded") if system.is_wounded(shown) else _("Unhurt")


# A badge after a state that names the condition would repeat the word (3d6 + NdP
# "Muerte muerto", Dado objetivo "Inconsciente inconsciente").
# Enough letters to tell "muerte"/"muerto" and "inconsciente" apart from other states.
STEM = 5


def condition_word(health, label: str) -> str:
    """The word "dead" or "unconscious" (translated) for `health`, or "" when there is no such
    condition or the state `label` shown beside it already names it."""
    if getattr(health, "dead", False):
        word = _("dead")
    elif getattr(health, "unconscious", False):
        word = _("unconscious")
    else:
        return ""
    said = any(
        part[:STEM].casefold() == word[:STEM].casefold() for part in str(label or "").split()
    )
    return "" if said else word


def _state_text(shown: HealthView, system: GameSystem) -> str:
    """One line: the state and what it costs ("Herido · −2", "muerto")."""
    if shown.dead:
        return _("dead")
    label = state_label(shown, system)
    extra = []
    if condition := condition_word(shown, label):
        extra.append(condition)
    # A penalty to rolls says nothing of one who cannot roll (unconscious, dead).
    if shown.penalty and not shown.cannot_act and (penalty := system.state_penalty(shown.penalty)):
        extra.append(penalty)
    return " · ".join([label, *extra])


# How a health track draws each kind of damage in its boxes and its legend.
MARK_SYMBOLS = {"B": "/", "L": "X", "A": "✱"}


def _damage_words(system: GameSystem) -> dict[str, str]:
    """Each kind of damage in the system's own words (`damage_types`, from its
    catalogue), as a track writes them within its text."""
    return {key: name.lower() for key, name in system.damage_types()}


def track_boxes(shown: HealthView, system: GameSystem) -> tuple[tuple[str, str, str, str], ...]:
    """Each box of a health track as drawn: its mark (lower case, "" when empty), the
    mark's symbol, the box's name and the damage it holds ("" when empty)."""
    words = _damage_words(system)
    return tuple(
        (mark.lower(), MARK_SYMBOLS.get(mark, ""), name or "", words.get(mark, ""))
        for mark, name in shown.boxes
    )


def track_legend(system: GameSystem) -> tuple[tuple[str, str], ...]:
    """The symbol and the words of each kind of damage a track shows."""
    return tuple((MARK_SYMBOLS.get(key, ""), word) for key, word in _damage_words(system).items())


def track_html(shown: HealthView, system: GameSystem) -> SafeString:
    """A health track's boxes and legend as `#health_live` in mechanics/health.html places
    them; built as a string, as event rows are (a loop of lookups per box in the
    template costs several times this on each poll). Empty without boxes."""
    if not shown.boxes:
        return mark_safe("")
    empty = esc(_("empty"))
    html = [f'\n    <ol class="health-boxes" aria-label="{esc(_("Health track"))}">\n      ']
    for mark, symbol, name, damage in track_boxes(shown, system):
        marked = f" marked mark-{esc(mark)}" if mark else ""
        label = f"{esc(name)}: " if name else ""
        html.append(
            f'\n        <li class="health-box{marked}">\n          <span class="health-mark" '
            f'aria-hidden="true">{esc(symbol)}</span>\n          <span class="visually-hidden">'
            f"{label}{esc(damage) if damage else empty}</span>\n          "
            f'<span class="health-box-name" aria-hidden="true">{esc(name)}</span>'
            "\n        </li>\n      "
        )
    legend = " · ".join(f"{esc(symbol)} {esc(word)}" for symbol, word in track_legend(system))
    html.append(f'\n    </ol>\n    <p class="small text-body-secondary mb-1">{legend}</p>\n  ')
    return mark_safe("".join(html))  # escaped above, as the template would


# The order the card and the history page list events in.
NEWEST_FIRST = ("-created_at", "-pk")


# What an event's row shows of it (`#event` in mechanics/health.html): not its hash chain
# nor the state before it, which make most of its row; its author's and scene's names
# come as `author_name` and `scene_title` (`events_of`).
ROW_FIELDS = (
    "kind", "inputs", "summary", "reason", "health_after", "created_at", "character",
    "created_by", "scene", "roll",
)  # fmt: skip


def events_of(character):
    """A character's health events, newest first, with what their rows show (`undone_by_pk`:
    the Undo that took one back, or None; `author_name` and `scene_title`, read when their
    link is set; the rolls of those that have one come with `event_rows`)."""
    return _events_with_row_fields().filter(character_id=character.pk)


@cache
def _events_with_row_fields():
    """The query of `events_of` but for its character, built once (as `campaigns.permissions`
    builds the access check's): building it took a quarter of the latest events' Python."""
    # Joins, rather than a subquery per row for the undoing (an event is undone at most
    # once: `undoes` is one-to-one) and whole rows for the two names: half the query's
    # Python.
    return HealthEvent.objects.only(*ROW_FIELDS).annotate(**_LINKED).order_by(*NEWEST_FIRST)


# What an event's row shows of the rows it links to, read with it.
_LINKED = {
    "undone_by_pk": F("undone_by__pk"),
    "author_name": F("created_by__username"),
    "scene_title": F("scene__title"),
}


# What `latest_events` reads of each row: its columns in the model's order (as
# `Model.from_db` takes them), then what `events_of` annotates.
_LATEST_COLUMNS = tuple(
    field.attname
    for field in HealthEvent._meta.concrete_fields
    if field.primary_key or field.name in ROW_FIELDS
)


@cache
def _latest_values():
    """`events_of` as plain values, built once: rows made from them cost less than the
    ORM's own (`latest_events`)."""
    return _events_with_row_fields().values_list(*_LATEST_COLUMNS, *_LINKED)


def latest_events(character) -> list[HealthEvent]:
    """What `events_of` gives, the newest `LATEST_EVENTS` and one more (to tell there are
    older ones): the rows the sheet's health section lists."""
    found = _latest_values().filter(character_id=character.pk)[: LATEST_EVENTS + 1]
    events = []
    split = len(_LATEST_COLUMNS)
    for values in found:
        event = HealthEvent.from_db(found.db, _LATEST_COLUMNS, values[:split])
        for name, value in zip(_LINKED, values[split:], strict=True):
            setattr(event, name, value)
        events.append(event)
    return events


def _with_rolls(events: list[HealthEvent]) -> None:
    """The rolls of the events that have one, in one query, only when some do."""
    ids = {event.roll_id for event in events if event.roll_id}
    if ids:
        rolls = Roll.objects.select_related("user", "character", "scene").in_bulk(ids)
        for event in events:
            if event.roll_id in rolls:
                event.roll = rolls[event.roll_id]


def event_rows(
    access: CharacterAccess, events, ratings: Mapping[str, int], *, undo_target: int | None = None
) -> list[EventRow]:
    """Each event with the state it left, and for GMs the one their Undo takes back:
    `undo_target`, or else the newest listed event still in force."""
    rows = []
    target_found = False
    events = list(events)
    _with_rolls(events)
    for event in events:
        undone = event.undone_by_pk is not None
        if undo_target is not None:
            is_target = event.pk == undo_target
        else:
            in_force = event.kind != HealthEvent.Kind.UNDO and not undone
            is_target = in_force and not target_found
            target_found = target_found or is_target
        is_target = is_target and access.can_manage_health
        rows.append(EventRow(event=event, state_after="", undone=undone, is_undo_target=is_target))
    return _with_html(access.character, rows, ratings)


def _with_state(character, row: EventRow, ratings: Mapping[str, int]) -> EventRow:
    """The row with the state its event left, read with today's ratings and rules."""
    campaign = character.campaign
    system = get_system(campaign.system)
    try:
        shown = system.health_view(
            row.event.health_after, ratings, character.details, campaign.rules
        )
        after = _state_text(shown, system)
    except (RuleError, KeyError, TypeError, ValueError):
        after = ""
    return replace(row, state_after=after)


def _row_key(character, row: EventRow) -> str:
    """A row's key: its event's id and what the row shows that can change: the state it
    left, read with the character's ratings and details (its grid version: a wound leaves
    it) and the campaign's rules (its version), so that a cached row computes no state;
    whether it was undone; the names it shows. An event itself never changes but for
    links that become empty (`campaigns.history`)."""
    event = row.event
    roll = event.roll if event.roll_id else None
    return fragment_key(
        "health-event",
        event.pk,
        (character.pk, character.grid_version, character.campaign.version),
        row.undone,
        event.author_name if event.created_by_id else None,
        event.scene_title if event.scene_id else None,
        roll and (roll.pk, *card_names(roll)),
    )


def _with_html(character, rows: list[EventRow], ratings: Mapping[str, int]) -> list[EventRow]:
    """The rows with their HTML, from the cache in one `get_many` or rendered now: a
    sheet re-rendered after a wound renders only the new event's row. The Undo's target
    is rendered by the page, with its form."""
    keys = {n: _row_key(character, row) for n, row in enumerate(rows) if not row.is_undo_target}

    def render(missing: list[int]) -> dict[int, str]:
        return {n: event_html(_with_state(character, rows[n], ratings)) for n in missing}

    html = cached_pieces(keys, render, timeout=EVENT_TIMEOUT)
    # Rendered by our template, which escaped it.
    return [
        replace(row, html=mark_safe(html[n])) if n in html else _with_state(character, row, ratings)
        for n, row in enumerate(rows)
    ]


def undo_target_id(character) -> int | None:
    """The event the GM's Undo takes back: the newest one still in force."""
    return (
        HealthEvent.objects.filter(character=character, undone_by__isnull=True)
        .exclude(kind=HealthEvent.Kind.UNDO)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )


def treatment_controls(
    access: CharacterAccess, *, bound: Mapping[str, forms.Form], opened: str = ""
) -> list[TreatmentControl]:
    """The treatments of the character's system this user may give now, each with its
    form when it is shown: the bound one of a failed attempt (named `<key>_form` in
    `bound`), or an empty one for the tool `opened`."""
    character = access.character
    system = get_system(character.campaign.system)
    controls = []
    for treatment in system.treatments:
        if not getattr(access, treatment.permission) or not treatment.offered(character):
            continue
        form = bound.get(f"{treatment.key}_form")
        if form is None and opened == treatment.key:
            form = treatment.form(character=character)
        fallback = TREATMENT_BUTTON if treatment.button else TREATMENT_PANEL
        templates = (*system.template(f"health_{treatment.key}"), fallback)
        controls.append(TreatmentControl(treatment=treatment, form=form, templates=templates))
    return controls


def health_forms(access: CharacterAccess, *, opened: str = "", **bound: Any) -> dict[str, Any]:
    """The forms of the tools shown open: a bound form in `bound`, or an empty one for the
    tool `opened` that this user may use; closed tools load theirs when opened."""
    character = access.character
    system = get_system(character.campaign.system)
    context: dict[str, Any] = {}
    if access.can_apply_damage and "damage_form" not in bound and opened == "damage":
        context["damage_form"] = DamageForm(system=system, character=character)
    if access.can_manage_health and "time_form" not in bound and opened == "time":
        context["time_form"] = TimeForm(
            presets=system.time_presets, rest_question=system.rest_question
        )
    controls = treatment_controls(access, bound=bound, opened=opened)
    context["health_treatments"] = [c for c in controls if not c.treatment.button]
    context["health_buttons"] = [c for c in controls if c.treatment.button]
    return {**context, **bound}


def health_context(
    access: CharacterAccess,
    *,
    ratings: Mapping[str, int],
    health: HealthView | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Everything `mechanics/health.html` needs besides the sheet's own values."""
    character = access.character
    campaign = character.campaign
    system = get_system(campaign.system)
    if health is None:
        health = system.health_view(character.health, ratings, character.details, campaign.rules)
    events = latest_events(character)
    more = len(events) > LATEST_EVENTS
    rows = event_rows(access, events[:LATEST_EVENTS], ratings)
    newest = max((row.event.pk for row in rows), default=None)
    context = {
        "health": health,
        "health_events": rows,
        # The rows joined, when none is drawn by the template (the Undo's target, with its
        # form): a loop of lookups per row costs more than the rows' own markup.
        "health_events_html": (
            mark_safe("".join(row.html for row in rows))  # each row escaped when built
            if all(row.html for row in rows)
            else ""
        ),
        "health_events_more": more,
        # What the poll sends back (`mechanics.views.health.health`): the character's
        # version it was drawn at, which answers an unchanged poll without a query, and
        # the health's own, which tells a change of health from any other.
        "health_version": f"{character.version}.{health_version(character, newest)}",
        "can_apply_damage": access.can_apply_damage,
        "can_heal": access.can_heal,
        "can_manage_health": access.can_manage_health,
        "time_presets": system.time_presets,
        # When everything listed was undone, the Undo button is on the history page.
        "health_undo_shown": any(row.is_undo_target for row in rows),
        "health_track": track_html(health, system),
        "health_state_text": _state_text(health, system),
        "health_label": state_label(health, system),
        "health_penalty": (
            system.penalty_words(health.penalty) if health.penalty and not health.cannot_act else ""
        ),
        "health_notes": system.health_notes(
            character.health, ratings, character.details, campaign.rules
        ),
    }
    bound = {k: v for k, v in extra.items() if k.endswith("_form")}
    context.update(health_forms(access, opened=extra.get("health_open") or "", **bound))
    context.update({k: v for k, v in extra.items() if not k.endswith("_form")})
    return context


@register_sheet_panel
def health_panel(access: CharacterAccess, ratings: Mapping[str, int], context: dict) -> dict:
    """The sheet's health card: its controls, for those who may use them, with the tool
    the answer to a refused form shows open and that form."""
    asked = {k: v for k, v in context.items() if k == "health_open" or k.endswith("_form")}
    return health_context(access, ratings=ratings, health=context["health"], **asked)
