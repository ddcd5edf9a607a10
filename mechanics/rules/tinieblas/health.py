"""Health track of Mundo de Tinieblas: damage, wound penalties, healing and first aid.

Marks are a string of "A" (agravado), "L" (letal), "B" (contundente), always sorted A, L,
B from left to right; box i holds marks[i], boxes past the string are empty.

Decisions where the seed is silent (docs/rules.md#tinieblas-decisions):
- Box names are right-aligned: the seven names label the last seven boxes, so any track
  ends in Incapacitado. On a longer track the earlier boxes have no name, no penalty and
  heal like Magullado; on a shorter one (Resistencia + Tamaño < 7) the first names drop.
- Incapacitado: `penalty()` gives −5 (the Tullido penalty, for any roll a GM still allows)
  and `cannot_act()` is True; `pool_wound_penalty()` gives "cannot act", which PoolSpec
  refuses. A dead character also cannot act.
- Unconscious only when the track is full and its last box holds B (the seed: "cae
  Incapacitado por Daño Contundente cae inconsciente"); Incapacitado by L or A is not
  flagged unconscious, but it cannot act and any further level kills.
- Damage to a dead character and healing of a dead character change nothing.
- Time units: 1 day = 24 h, 1 week = 7 days, 1 month = 30 days. Bashing damage before
  Herido heals "in minutes": any advance of time (even 0 h) clears it once it is reached.
- `healing_progress_hours` is the time already spent on the rightmost marked box, so
  healing in pieces equals healing at once. New damage or first aid (anything that
  changes the marks other than healing) restarts it at 0.
- With the setting "aggravated heals as lethal" off, aggravated damage does not heal with
  time: healing stops at the first A box and `heal_time` leaves A boxes out.
- First aid: one roll per wounded character. It needs lethal damage on the track and a
  state of Lesionado, Herido or Malherido; success removes the rightmost L (the state goes
  down one box) and marks first aid as given until new damage arrives. A failure (including
  a dramatic failure, which also adds 1 L) locks first aid until the track is fully healed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mechanics.rules.errors import RuleError, gettext_noop
from mechanics.rules.tinieblas.rolls import CANNOT_ACT

NAMES = ("Magullado", "Lastimado", "Lesionado", "Herido", "Malherido", "Tullido", "Incapacitado")
INCAPACITATED = "Incapacitado"
PENALTIES = {
    "Magullado": 0,
    "Lastimado": -1,
    "Lesionado": -1,
    "Herido": -2,
    "Malherido": -2,
    "Tullido": -5,
    "Incapacitado": -5,
}
DAMAGE_TYPES = ("A", "L", "B")
DEFAULT_BOXES = 7
MAX_BOXES = 30
MAX_LEVELS = 100

HOURS_PER_DAY = 24
DAYS_PER_WEEK = 7
DAYS_PER_MONTH = 30
HOURS_PER_MONTH = DAYS_PER_MONTH * HOURS_PER_DAY

# Time for a box to heal, by its name (None: a nameless box before the seven names).
BASHING_HOURS = {"Herido": 1, "Malherido": 3, "Tullido": 6, "Incapacitado": 12}
LETHAL_HOURS = {
    None: 1 * HOURS_PER_DAY,
    "Magullado": 1 * HOURS_PER_DAY,
    "Lastimado": 3 * HOURS_PER_DAY,
    "Lesionado": DAYS_PER_WEEK * HOURS_PER_DAY,
    "Herido": 1 * HOURS_PER_MONTH,
    "Malherido": 2 * HOURS_PER_MONTH,
    "Tullido": 3 * HOURS_PER_MONTH,
    "Incapacitado": 5 * HOURS_PER_MONTH,
}

# First aid: state -> (successes needed, pool modifier).
FIRST_AID = {"Lesionado": (3, 0), "Herido": (4, -1), "Malherido": (5, -1)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _sorted_marks(a: int, lethal: int, b: int) -> str:
    return "A" * a + "L" * lethal + "B" * b


@dataclass(frozen=True)
class HealthTrack:
    boxes: int = DEFAULT_BOXES
    marks: str = ""
    dead: bool = False
    healing_progress_hours: int = 0
    first_aid_given: bool = False
    first_aid_locked: bool = False

    def __post_init__(self) -> None:
        if not _is_int(self.boxes) or not 1 <= self.boxes <= MAX_BOXES:
            raise RuleError(
                gettext_noop("health boxes must be a whole number from 1 to %(max)s"),
                max=MAX_BOXES,
            )
        marks = self.marks
        if not isinstance(marks, str) or marks != _sorted_marks(
            marks.count("A"), marks.count("L"), marks.count("B")
        ):
            raise RuleError(gettext_noop("health marks must be A, L and B sorted in that order"))
        if len(marks) > self.boxes:
            raise RuleError(gettext_noop("more damage marks than health boxes"))
        for flag in ("dead", "first_aid_given", "first_aid_locked"):
            if not isinstance(getattr(self, flag), bool):
                raise RuleError(gettext_noop("%(field)s must be true or false"), field=flag)
        if self.dead and len(marks) != self.boxes:
            raise RuleError(gettext_noop("a dead character has a full health track"))
        progress = self.healing_progress_hours
        limit = _box_hours(self.boxes, len(marks) - 1, marks[-1]) if marks else 0
        if not _is_int(progress) or progress < 0 or (progress and progress >= limit):
            raise RuleError(gettext_noop("healing progress out of range"))

    def to_dict(self) -> dict:
        return {
            "boxes": self.boxes,
            "marks": self.marks,
            "dead": self.dead,
            "healing_progress_hours": self.healing_progress_hours,
            "first_aid_given": self.first_aid_given,
            "first_aid_locked": self.first_aid_locked,
        }

    @classmethod
    def from_dict(cls, data: dict) -> HealthTrack:
        if not isinstance(data, dict):
            raise RuleError(gettext_noop("a health track must be a mapping"))
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise RuleError(gettext_noop("unknown health field %(field)s"), field=min(unknown))
        return cls(**data)


def track_size(resistencia: int, tamano: int = 5, *, health_from_stamina: bool = False) -> int:
    """Number of boxes: 7, or Resistencia + Tamaño with the campaign setting on."""
    if not health_from_stamina:
        return DEFAULT_BOXES
    return max(1, min(MAX_BOXES, resistencia + tamano))


def box_name(boxes: int, index: int) -> str | None:
    """Name of box `index` (0-based) on a track of `boxes`; None for a nameless box."""
    offset = index - (boxes - len(NAMES))
    return NAMES[offset] if offset >= 0 else None


def _box_hours(boxes: int, index: int, kind: str) -> int:
    name = box_name(boxes, index)
    if kind == "B":
        return BASHING_HOURS.get(name, 0)
    return LETHAL_HOURS[name]


def render(track: HealthTrack) -> str:
    """One character per box, "." for an empty one: "LLLLLBB", "BB....."."""
    return track.marks + "." * (track.boxes - len(track.marks))


def state_name(track: HealthTrack) -> str | None:
    """Name of the rightmost marked box (None when unhurt or when that box has no name)."""
    if not track.marks:
        return None
    return box_name(track.boxes, len(track.marks) - 1)


def dead(track: HealthTrack) -> bool:
    return track.dead


def unconscious(track: HealthTrack) -> bool:
    return not track.dead and len(track.marks) == track.boxes and track.marks[-1] == "B"


def cannot_act(track: HealthTrack) -> bool:
    return track.dead or state_name(track) == INCAPACITATED


def penalty_table(rules: Mapping | None = None) -> dict[str, int]:
    """The penalty per box name under a campaign's settings (`wound_penalty_<box>`).

    Incapacitado (and death) take the Tullido value: no roll is accepted there anyway, and
    a roll a GM still allows should not be easier than at Tullido.
    """
    rules = rules or {}
    table = {
        name: rules.get(f"wound_penalty_{name.lower()}", PENALTIES[name])
        for name in NAMES
        if name != INCAPACITATED
    }
    table[INCAPACITATED] = table["Tullido"]
    return table


def penalty(track: HealthTrack, penalties: Mapping[str, int] | None = None) -> int:
    """Wound penalty of the worst marked box (the Tullido one at Incapacitado: see
    `cannot_act`), from `penalties` (see `penalty_table`) or the seed's table."""
    penalties = penalties or PENALTIES
    if track.dead:
        return penalties[INCAPACITATED]
    return penalties.get(state_name(track), 0)


def pool_wound_penalty(track: HealthTrack, penalties: Mapping[str, int] | None = None) -> int | str:
    """What PoolSpec.wound_penalty takes: the penalty, or "cannot act"."""
    return CANNOT_ACT if cannot_act(track) else penalty(track, penalties)


def _check_damage_type(damage_type: str) -> str:
    kind = damage_type.upper() if isinstance(damage_type, str) else damage_type
    if kind not in DAMAGE_TYPES:
        raise RuleError(gettext_noop("damage type must be B, L or A"))
    return kind


def apply(track: HealthTrack, damage_type: str, levels: int) -> HealthTrack:
    """Add `levels` of damage of one type ("B", "L" or "A"), one level at a time."""
    kind = _check_damage_type(damage_type)
    if not _is_int(levels) or not 0 <= levels <= MAX_LEVELS:
        raise RuleError(
            gettext_noop("damage levels must be a whole number from 0 to %(max)s"),
            max=MAX_LEVELS,
        )
    if levels == 0 or track.dead:
        return track
    a, lethal, b = track.marks.count("A"), track.marks.count("L"), track.marks.count("B")
    is_dead = False
    for _ in range(levels):
        if a + lethal + b < track.boxes:
            # Sorting places a new L or A before the B marks, pushing them right.
            a += kind == "A"
            lethal += kind == "L"
            b += kind == "B"
        elif b:
            # Full and the last box holds B: the leftmost B worsens.
            b -= 1
            if kind == "A":
                a += 1
            else:
                lethal += 1
        else:
            is_dead = True
            break
    return HealthTrack(
        boxes=track.boxes,
        marks=_sorted_marks(a, lethal, b),
        dead=is_dead,
        healing_progress_hours=0,
        first_aid_given=False,
        first_aid_locked=track.first_aid_locked,
    )


def heal(track: HealthTrack, hours: int, *, aggravated_as_lethal: bool = True) -> HealthTrack:
    """Advance `hours` of in-game rest: boxes heal from the rightmost marked one leftwards."""
    if not _is_int(hours) or hours < 0:
        raise RuleError(gettext_noop("hours must be a whole number, 0 or more"))
    if track.dead:
        return track
    marks = track.marks
    progress = track.healing_progress_hours
    left = hours
    while marks:
        kind = marks[-1]
        if kind == "A" and not aggravated_as_lethal:
            progress = 0
            break
        remaining = _box_hours(track.boxes, len(marks) - 1, kind) - progress
        if left < remaining:
            progress += left
            break
        left -= remaining
        marks = marks[:-1]
        progress = 0
    healed = not marks
    return HealthTrack(
        boxes=track.boxes,
        marks=marks,
        dead=False,
        healing_progress_hours=progress,
        first_aid_given=track.first_aid_given and not healed,
        first_aid_locked=track.first_aid_locked and not healed,
    )


def heal_hours(track: HealthTrack, *, aggravated_as_lethal: bool = True) -> int | None:
    """Total hours of rest until the track is clear (A left out with the setting off)."""
    if track.dead:
        return None
    total = 0
    last = len(track.marks) - 1
    for index in range(last, -1, -1):
        kind = track.marks[index]
        if kind == "A" and not aggravated_as_lethal:
            break
        total += _box_hours(track.boxes, index, kind)
        if index == last:
            total -= track.healing_progress_hours
    return total


def heal_time(track: HealthTrack, *, aggravated_as_lethal: bool = True) -> dict | None:
    """Time left to heal fully as {months, weeks, days, hours}; None when dead.

    Lethal and aggravated boxes add whole months and days (days carry into months of 30
    days, then into weeks); bashing boxes add hours, which never carry into days. The
    time left on a box already partly healed is split into months, days and hours.
    Example (seed 000): L L L L L B B → 3 months, 1 week, 4 days and 18 hours.
    """
    if track.dead:
        return None
    months = days = hours = 0
    last = len(track.marks) - 1
    for index in range(last, -1, -1):
        kind = track.marks[index]
        if kind == "A" and not aggravated_as_lethal:
            break
        need = _box_hours(track.boxes, index, kind)
        if index == last:
            need -= track.healing_progress_hours
        if kind == "B":
            hours += need
        else:
            box_months, rest = divmod(need, HOURS_PER_MONTH)
            box_days, box_hours = divmod(rest, HOURS_PER_DAY)
            months += box_months
            days += box_days
            hours += box_hours
    # What is left of a month-long box and the days of shorter ones may add up to more
    # than a month: read as one, never as "2 months 5 weeks".
    whole_months, days = divmod(days, DAYS_PER_MONTH)
    weeks, days = divmod(days, DAYS_PER_WEEK)
    return {"months": months + whole_months, "weeks": weeks, "days": days, "hours": hours}


def heals_in_minutes(track: HealthTrack, *, aggravated_as_lethal: bool = True) -> bool:
    """Whether what heals with time is only bashing before Herido, which the seed says
    goes "en menos de una hora ... unos minutos de descanso": its 0 hours are minutes, not
    no time at all."""
    if track.dead or not track.marks:
        return False
    if track.marks[-1] == "A" and not aggravated_as_lethal:
        return False
    return heal_hours(track, aggravated_as_lethal=aggravated_as_lethal) == 0


def first_aid_requirement(track: HealthTrack) -> tuple[int, int]:
    """(successes needed, pool modifier) for first aid on this track, or RuleError."""
    if track.dead:
        raise RuleError(gettext_noop("first aid cannot help the dead"))
    if track.first_aid_locked:
        raise RuleError(gettext_noop("first aid cannot help until the wounds are fully healed"))
    if track.first_aid_given:
        raise RuleError(gettext_noop("first aid was already given for these wounds"))
    requirement = FIRST_AID.get(state_name(track))
    if requirement is None:
        raise RuleError(gettext_noop("first aid only helps from Lesionado to Malherido"))
    if "L" not in track.marks:
        raise RuleError(gettext_noop("first aid only treats lethal damage"))
    return requirement


def first_aid_pool_modifier(track: HealthTrack) -> int:
    """Modifier to Inteligencia + Medicina (0 at Lesionado, −1 at Herido or Malherido).

    The −2 for lacking proper kit is the roller's own modifier.
    """
    return first_aid_requirement(track)[1]


def first_aid(track: HealthTrack, successes: int, dramatic_failure: bool = False) -> HealthTrack:
    """Apply the result of a first-aid roll."""
    needed, _ = first_aid_requirement(track)
    if not _is_int(successes) or successes < 0:
        raise RuleError(gettext_noop("successes must be a whole number, 0 or more"))
    if dramatic_failure and successes:
        raise RuleError(gettext_noop("a dramatic failure has no successes"))
    if dramatic_failure:
        worse = apply(track, "L", 1)
        return HealthTrack(
            boxes=worse.boxes,
            marks=worse.marks,
            dead=worse.dead,
            healing_progress_hours=0,
            first_aid_locked=True,
        )
    if successes < needed:
        return HealthTrack(
            boxes=track.boxes,
            marks=track.marks,
            dead=track.dead,
            healing_progress_hours=track.healing_progress_hours,
            first_aid_given=track.first_aid_given,
            first_aid_locked=True,
        )
    a, lethal, b = track.marks.count("A"), track.marks.count("L"), track.marks.count("B")
    return HealthTrack(
        boxes=track.boxes,
        marks=_sorted_marks(a, lethal - 1, b),
        healing_progress_hours=0,
        first_aid_given=True,
    )
