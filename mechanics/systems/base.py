from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from mechanics.rules.settings import SettingDef

# The roles a trait plays in a roll, in the order a roll names them ("Fuerza + Pelea").
TRAIT_ROLES = ("attribute", "characteristic", "skill")

# The contract names nothing of the layers above it, not even for types (the campaigns,
# characters and play modules all ask it): the hooks a system plugs in are described here
# by what generic code asks of them, and their bases live above (`mechanics.setup`,
# `mechanics.combat`, `mechanics.forms.roll`). A sheet, a plan, a roll or a model passed to
# a hook is typed `Any` here.


# --- The hooks a system plugs in --------------------------------------------------------------


@runtime_checkable
class RollRules(Protocol):
    """From a sheet and a panel's choices to the engine's rolls and odds; a system
    subclasses `mechanics.setup.RollSetup`, which says what each hook does."""

    opposed_kinds: tuple[str, ...]
    sheet_extras: tuple[str, ...]
    panel_follows_campaign: bool
    reads_scene: bool

    def open_actions(self, character: Any) -> dict[str, Any]: ...

    def plan(self, sheet: Any, data: Mapping, *, open_actions: Any = None) -> Any: ...

    def kept_after_roll(self, stored: Any, kept: Any) -> None: ...

    def opposed(self, a: Any, data_a: Mapping, b: Any, data_b: Mapping) -> Any: ...

    def teamwork(self, main: Any, data: Mapping, helpers: list[tuple[Any, Mapping]]) -> Any: ...


@runtime_checkable
class CombatHooks(Protocol):
    """The combat panel's rules; a system subclasses `mechanics.combat.CombatRules`,
    which says what each hook does."""

    phases: tuple[tuple[int, str], ...]
    default_phase: int
    spends: tuple[str, ...]
    attacks_per_round: int | None
    counts_actions: bool
    initiative_spend: tuple[str, str] | None
    reads_last_shots: bool
    moves: bool

    def initiative_rule(self) -> str: ...

    def roll_initiative(self, sheet: Any, rng: Any) -> Any: ...

    def roll_off(self, sheet: Any, rng: Any) -> int: ...

    def computed_defence(self, attacker: Any, target: Any, data: Mapping) -> Any: ...

    def typed_defence_label(self, data: Mapping) -> str: ...

    def plan_attack(self, attacker: Any, target: Any, data: Mapping, defence: Any) -> Any: ...

    def roll_attack(
        self, attacker: Any, target: Any, data: Mapping, defence: Any, rng: Any
    ) -> Any: ...

    def attack_from_roll(self, side: Any) -> Any: ...

    def attack_fields(self, sheet: Any) -> dict[str, forms.Field]: ...

    def clean_attack(self, form: forms.Form, data: dict) -> None: ...

    def follow_attack_choices(self, form: forms.Form, sheet: Any) -> None: ...

    def write_back(self, writes: Any, user: Any, scene: Any) -> list[str]: ...

    def pending_notes(self, writes: Any, sheets: Mapping[int, Any]) -> list[str]: ...

    def new_round(self, combat: Any, participants: list[Any], user: Any) -> list[str]: ...

    def refuse_attack(self, attack: Any, last_shots: Mapping[str, int], round_: int) -> None: ...

    def move(
        self, sheet: Any, metres: int, attacked: bool, adversity: int | None, rng: Any
    ) -> Any: ...

    def refuse_attack_after_move(self, sheet: Any, moved: int) -> None: ...


class RollWords:
    """What a system's stored rolls say (`mechanics.presentation` reads them); each hook's
    default suits a roll that adds dice to a total. A system overrides the hooks it needs
    in its `display.py`."""

    dramatic_failure = pgettext_lazy("roll", "Pifia")

    def headline(self, record: dict) -> str:
        return _("Total %(total)s") % {"total": record["result"]}

    # The outcome of a roll that had nothing to reach.
    no_target = gettext_lazy("No difficulty set")

    def setup_lines(self, details: dict) -> list[str]:
        """What was rolled: by default the traits' names, in the order of their roles."""
        traits = details.get("traits") or {}
        # PostgreSQL's jsonb keeps keys in its own order, so the roles give it back.
        names = [traits[role] for role in TRAIT_ROLES if role in traits]
        names += [name for role, name in traits.items() if role not in TRAIT_ROLES]
        return [" + ".join(names)] if names else []

    def modifier_lines(self, record: dict) -> list[str]:
        """What was added to or taken from the roll, from its spec."""
        return []

    def target_lines(self, record: dict) -> list[str]:
        """What the roll had to reach: the difficulty, or the Defensa of an attack."""
        details = record.get("details", {})
        if details.get("difficulty") is None:
            return []
        if record["kind"] == "attack":
            defensa = details.get("defensa", details["difficulty"])
            return [_("Against Defensa %(defensa)s") % {"defensa": defensa}]
        return [_("Difficulty %(difficulty)s") % {"difficulty": details["difficulty"]}]

    def dice_lines(self, record: dict) -> list[str]:
        """What the dice themselves did, before the difficulty."""
        return []

    def damage_tier(self, record: dict) -> str:
        """Words after the damage: the wound it makes."""
        tier = record.get("details", {}).get("tier")
        return f" ({tier})" if tier else ""

    def closing_lines(self, record: dict) -> list[str]:
        return []

    def applied_text(self, item: dict) -> str | None:
        """An effect on the sheet of this system's own kind, or None for a pool change."""
        return None


@dataclass(frozen=True)
class TraitSpec:
    key: str
    name: str
    kind: str  # attribute / skill / characteristic / advantage
    category: str
    minimum: int
    maximum: int
    description: str = ""
    custom: bool = False


@dataclass(frozen=True)
class TraitRoll:
    """How a click on a trait of the sheet sets up the roll panel: `choices` are roll form
    values the trait sets (the others keep what the panel shows, or their defaults); `ask`
    names the field the player still picks (focused first), or "" when one tap rolls."""

    choices: Mapping[str, str]
    ask: str = ""


@dataclass(frozen=True)
class ResourceSpec:
    key: str
    label: str
    maximum: int | None
    initial: int


@dataclass(frozen=True)
class HealthView:
    """What the sheet shows of a character's health."""

    state: str | None
    penalty: int
    unconscious: bool = False
    dead: bool = False
    cannot_act: bool = False
    # Time to heal fully, in words ("3 meses 1 semana 4 días y 18 h"), or "" if unhurt.
    time_to_heal: str = ""
    # Tinieblas: one mark per box ("A", "L", "B" or ""), with the box names.
    boxes: tuple[tuple[str, str | None], ...] = ()
    # Other systems: (label, value) lines such as Resistencia 7/15 or wounds per part.
    lines: tuple[tuple[str, str], ...] = ()
    states: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class DamageInput:
    """What a GM enters to hurt a character; each system reads the fields it uses.

    `amount`: levels (tinieblas), points (hitos), the weapon roll or net damage (ndp),
    PV (objetivo). `damage_type`: B/L/A (tinieblas), contundente/cortante (ndp).
    `rd`: armour reduction (hitos, ndp). `part`: body part (ndp). `critical`: how long
    a critical hit's secuela lasts, "scene" or "session" (hitos), "" for none.
    """

    amount: int
    damage_type: str = ""
    rd: int = 0
    part: str = ""
    armour_integrity: int | None = None
    critical: str = ""


@dataclass(frozen=True)
class HealthChange:
    """A new health state, a one-line account of what happened, and any roll made."""

    health: dict
    summary: str
    roll: object = None


# --- Health ---


def _always(character) -> bool:
    return True


@dataclass(frozen=True)
class Treatment:
    """A health treatment a system declares; one generic view serves them all.

    `key` names it everywhere: the URL `mechanics:health_<key>` at `.../health/<slug>/`
    and the form `<key>_form` of the health section. `form` is a
    `mechanics.forms.health.TreatmentForm`; `perform` is the service that gives it, called
    as `perform(character=, user=, scene=, **form.arguments())`, returning the health
    event. `permission` names the `campaigns.permissions.CharacterAccess` property a user
    needs. A treatment is a panel of its own (`label`, `help_text`, a `submit` button), or
    a `button` among the section's one-click actions, whose refusal shows as the section's
    message; either is offered while `offered(character)` (always, by default). A
    system's fragment `systems/<system>/health_<key>.html` replaces the generic one.
    """

    key: str
    form: type
    perform: Callable[..., Any]
    label: str = ""
    help_text: str = ""
    submit: str = ""
    permission: str = "can_heal"
    button: bool = False
    offered: Callable[[Any], bool] = _always

    @property
    def slug(self) -> str:
        return self.key.replace("_", "-")

    @property
    def url_name(self) -> str:
        return f"mechanics:health_{self.key}"


@dataclass(frozen=True)
class PoolAction:
    """A one-click action on one of the sheet's pools that a system declares (the GM hands
    a destiny point back); one generic view serves them all, at
    `characters:pool_action`. `perform(character=, user=)` is its service, returning the
    message to show; `permission` names the `campaigns.permissions.CharacterAccess`
    property a user needs. While `pending(character)` is true the sheet shows
    `pending_label` by the pool instead of the button.
    """

    key: str
    pool: str
    label: str
    perform: Callable[..., str]
    pending: Callable[[Any], bool]
    pending_label: str
    permission: str = "can_raise_open_pools"


# The time panel's quick choices: (hours, label).
TIME_PRESETS = (
    (8, gettext_lazy("Rest 8 h")),
    (24, gettext_lazy("1 day")),
    (7 * 24, gettext_lazy("1 week")),
)
MAX_DAMAGE_POINTS = 999

# --- Sheet, creation and advancement ---


class SheetSection:
    """A part of a system's sheet beyond traits, pools, health and derived values (the
    merits, the aspects, the equipment…). The generic sheet renders every section its
    system declares; the sheet's list URLs answer 404 for a section it does not declare.
    """

    # Its name; the list URLs of the sheet say which section they edit ("merits", ...).
    key: str = ""
    # The fragment, rendered with the sheet's context plus what `context` returns.
    template: str = ""
    # Where it goes: "status" (the narrow column), "top" (above the traits) or "main".
    place: str = "main"
    # The character's related rows it reads ("merits", "items", ...), prefetched once.
    reads: tuple[str, ...] = ()
    # Rendered again, out of band, when a rating changes (what it offers depends on them).
    follows_traits: bool = False
    # Shows what the character's health holds: the sheet's grid then follows every
    # health write (`Character.version`), not only the rest (`grid_version`).
    reads_health: bool = False
    # Its forms are drawn by `{% gm_form %}` alone: a plain sheet shows them as closed
    # panels that load them when opened, and does not build them.
    closed_forms: bool = False

    def context(self, character, ratings: Mapping[str, int], names: Mapping[str, str]) -> dict:
        """What the fragment shows; `names` are the sheet's trait names by key."""
        return {}

    def forms(self, character, ratings: Mapping[str, int], data=None) -> dict:
        """The GM's edit forms by context name, bound to `data` when it is given."""
        return {}

    def row_context(self, row) -> dict:
        """What the fragment's partial for one of its rows shows (after a change to it)."""
        return {}


class XpSection:
    """A part of a character's XP page that only a system has (the PdP rolls gained)."""

    template: str = ""

    def context(self, access, character) -> dict:
        return {}


@dataclass(frozen=True)
class RubricLine:
    """One line of a graded scene award as the ledger reads it: label, points, the caption
    of the level given (a tooltip) and a `note` shown beside the points ("" for none)."""

    key: str
    label: str
    points: int
    caption: str
    note: str = ""


@runtime_checkable
class SceneAward(Protocol):
    """One player's graded award for a scene, as a rubric's engine checked it."""

    @property
    def total(self) -> int: ...

    def to_dict(self) -> dict[str, int]: ...


class SceneRubric:
    """The scales a GM grades each player on at a scene's end, as a seed defines them.

    The award panel (`characters.views.xp`) adds `fields()` to each character's row and
    renders `template` with the row's `form` and this `rubric`; an awarded row must choose
    every field in `graded`. The ledger stores `award(...).to_dict()`.
    """

    template: str = ""
    graded: tuple[str, ...] = ()
    # What the demo's first scene gives its first players (`award`'s grades, in order).
    demo_grades: tuple[Mapping[str, Any], ...] = ()

    def fields(self) -> dict[str, forms.Field]:
        """The row's form fields, by the award's keys (not required: a row may be left out)."""
        raise NotImplementedError

    def initial(self, *, has_diary: bool, stored: Mapping | None = None) -> dict[str, Any]:
        """What a row shows first: what was `stored`, else the defaults (a published diary
        entry may raise them)."""
        raise NotImplementedError

    def award(self, grades: Mapping[str, Any]) -> SceneAward:
        """The engine's award from a row's cleaned values or a stored award; raises the
        engine's RuleError (KeyError, TypeError for a malformed one)."""
        raise NotImplementedError

    def lines(self, award: SceneAward) -> list[RubricLine]:
        """Every line of the rubric with what `award` gives it, in the seed's order."""
        raise NotImplementedError


class Advancement:
    """What a sheet may buy between sessions and at what price; `characters.advancement`
    asks it. Prices come from the system's engine."""

    # The purchase kinds it prices (`XpPurchase.Kind` values).
    kinds: frozenset[str] = frozenset()
    # The heading and the purchase forms on the XP page (rendered with `purchase_context`).
    title: str = ""
    template: str = ""

    def available(self, campaign) -> bool:
        """Whether this campaign's settings allow the purchases."""
        return True

    def trait_kind(self, character, key: str) -> str | None:
        """The purchase kind that raises trait `key`, or None if none does."""
        return None

    def quote(self, character, spec, *, ratings: Mapping[str, int] | None = None):
        """`spec` checked against the sheet and priced (a `characters.advancement.Quote`);
        raises ValidationError with a message for the player."""
        raise NotImplementedError

    def purchase_context(self, character, traits) -> dict:
        """What the purchase forms offer, with prices; {} when nothing can be bought."""
        return {}


class GameSystem:
    """Base adapter; each system overrides what it has.

    Labels are game terms, in Spanish as the catalogues give them (docs/rules.md#game-terms).
    """

    key: str = ""
    name: str = ""
    # The house-rule settings a campaign of this system may change (mechanics.rules.settings).
    house_rules: tuple[SettingDef, ...] = ()
    # The per-scene XP rubric its seed defines; None: it defines none (its campaigns may
    # still use another system's, `registry.scene_rubric_for`).
    scene_rubric: SceneRubric | None = None
    # Whether a campaign awards per-scene XP with a rubric unless its GM says.
    xp_rubric_default: bool = False
    # Demo data for `seed_demo`: the campaign's (name, description) and sheets to create.
    demo_campaign: tuple[str, str] = ("", "")
    demo_characters: tuple[dict, ...] | list[dict] = ()
    # A played chronicle for the demo campaign (mechanics/demo.py: seed_chronicle).
    demo_chronicle: dict | None = None
    # Whether a GM edits the campaign's attribute and skill lists (CampaignTrait rows).
    editable_trait_lists: bool = False
    # Pages of this system's own (Django `path`s), served under
    # /campaigns/<campaign_id>/<key>/ in the URL namespace `<key>`; () = none.
    urlpatterns: tuple = ()
    # Links the scene page shows to those pages: (URL name, label), the URL taking the
    # campaign and the scene; () = none.
    scene_pages: tuple[tuple[str, str], ...] = ()
    # Whether the sheet offers to fold its untrained skills (rating 0): a long skill list.
    folds_untrained_skills: bool = False
    # What a rating drawn as a number (not dots) is called, read to screen readers after
    # the trait's name ("Combate: NdP"); "" reads the name alone.
    rating_name: str = ""

    # --- Combat ---
    # The combat panel's hooks (initiative, phases, the attack form, defence, attack and
    # damage); None: no combat, the panel answers 404.
    combat: CombatHooks | None = None

    # --- Rolls ---
    # From a sheet and a panel's choices to the engine's rolls and odds; None: no rolls.
    roll_setup: RollRules | None = None
    # The roll panel's form for one character (a `mechanics.forms.roll.RollForm`), and the
    # GM's form for one side of a two-sided roll (a `SideForm`: only a system whose set-up
    # has `opposed_kinds` needs one).
    roll_form: type[forms.Form] | None = None
    side_form: type[forms.Form] | None = None
    # This system's words for a stored roll (outcomes, lines, effects); None: the generic ones.
    display: RollWords | None = None
    # Whether the GM's free roller reads "5d10" as a pool counting successes.
    free_roll_pools: bool = False

    # --- Sheet, creation and advancement ---
    # The sheet's parts beyond traits, pools, health and derived values, in page order.
    sheet_sections: tuple[SheetSection, ...] = ()
    # Its stylesheet (a static path in its folder): its accent on every page of its
    # campaigns, and what its sheet sections need; "" = none.
    stylesheet: str = ""
    # Readers' names of the values a sheet keeps in `details` (the sheet history shows them).
    detail_labels: Mapping[str, str] = MappingProxyType({})
    # The creation form (a `characters.forms.creation.CreationBaseForm`); None: the generic
    # one, every trait a number within its range.
    creation_form: type | None = None
    # The aspect kind that is the character's concept (Hitos' Concepto): asked once at
    # creation, and each follows the other afterwards; None: the concept is only a text.
    concept_aspect: str | None = None
    # Purchases with XP or with a pool's points; None: the sheet buys nothing.
    advancement: Advancement | None = None
    # Parts of the XP page only this system has.
    xp_sections: tuple[XpSection, ...] = ()
    # One sentence on the XP page of a system whose XP buys nothing, saying so: a balance
    # with no way to spend it and no word why reads as a fault.
    xp_without_purchases: str = ""
    # The pool a character regains a point of when, at a scene's end, the GM says they
    # acted by their nature; None: no such award.
    scene_end_pool: str | None = None
    # Campaign settings (model fields) only this system reads, with their help text.
    campaign_options: Mapping[str, str] = MappingProxyType({})
    # Whether a roll's specialization can be used once per scene (the scene is recorded).
    specialization_once_per_scene: bool = False
    # How a roll's record of applied effects names a rating that progress raised (the roll
    # log reads it; stored rolls keep the name).
    level_up_effect: str = "level"

    def detail_fields(self, campaign) -> dict:
        """Form fields for the values a GM may change in `details` ({} = none)."""
        return {}

    def add_progress(self, rating: int, progress: int, gained: int) -> tuple[int, int]:
        """A trait's (rating, progress) after a roll gains it progress points; a system
        that keeps no progress leaves them as they are."""
        return rating, progress

    def template(self, name: str) -> list[str]:
        """A fragment of this system's, or the generic one: `{% include system.template… %}`
        takes the first that exists. A system's own live in
        `mechanics/systems/<key>/templates/systems/<key>/`."""
        return [f"systems/{self.key}/{name}.html", f"systems/generic/{name}.html"]

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        raise NotImplementedError

    def trait_roll(self, spec: TraitSpec) -> TraitRoll | None:
        """The roll panel set-up a click on this trait opens; None: the trait is not rolled."""
        return None

    def trait_groups(self, campaign) -> list[tuple[str, tuple[TraitSpec, ...]]]:
        """Traits grouped for display, in catalogue order."""
        groups: dict[str, list[TraitSpec]] = {}
        for spec in self.trait_specs(campaign):
            groups.setdefault(spec.category, []).append(spec)
        return [(label, tuple(specs)) for label, specs in groups.items()]

    def trait_spec(self, campaign, key: str) -> TraitSpec | None:
        return next((s for s in self.trait_specs(campaign) if s.key == key), None)

    def initial_ratings(self, campaign, chosen: Mapping[str, int] | None = None) -> dict[str, int]:
        """Every trait at its minimum, overlaid with the chosen ratings."""
        ratings = {spec.key: spec.minimum for spec in self.trait_specs(campaign)}
        ratings.update(chosen or {})
        return ratings

    def resource_specs(
        self, ratings: Mapping[str, int], details: Mapping, rules: Mapping
    ) -> tuple[ResourceSpec, ...]:
        return ()

    def derived(
        self,
        ratings: Mapping[str, int],
        details: Mapping,
        rules: Mapping,
        items=(),
        wound_penalty: int = 0,
    ) -> list[tuple[str, str]]:
        """(label, value) rows the sheet shows; `wound_penalty` is the health view's."""
        return []

    def rating_label(self, spec: TraitSpec, rating: int) -> str:
        """The catalogue's word for a rating ("Competente", "Débil"), or ""."""
        return ""

    def merit_ratings(self, key: str) -> tuple[int, ...]:
        """Ratings a merit may have (catalogue key, or "" for a custom merit); () = no merits."""
        return ()

    def new_health(self, ratings: Mapping[str, int], details: Mapping, rules: Mapping) -> dict:
        return {}

    # Checks for data that arrives whole (an imported file, an admin edit) rather than
    # through the sheet's own forms. Each raises ValidationError (or the engine's
    # RuleError) naming the problem, and returns the value to store.

    def clean_details(self, details: Mapping, campaign) -> dict:
        """This system's detail values checked (virtue, specialization, ...)."""
        return dict(details)

    def clean_health(
        self, stored: Mapping, ratings: Mapping[str, int], details: Mapping, rules: Mapping
    ) -> dict:
        """A stored health state parsed by the engine's state class and serialised again."""
        return dict(stored) if stored else self.new_health(ratings, details, rules)

    def creation_problems(
        self,
        ratings: Mapping[str, int],
        details: Mapping,
        specialties: Sequence[tuple[str, str]],
        merits: Sequence[tuple[str, str, int]],
    ) -> list[str]:
        """How a finished sheet breaks the creation rules, in words; [] if it has none
        (or the system has no creation budgets)."""
        return []

    def max_progress(self) -> int:
        """Highest progress a trait may hold toward its next rating (PdP); 0 = none kept."""
        return 0

    def aspect_slots(self) -> dict[str, int | None]:
        """Aspect kinds a sheet has, with how many of each (None: any); {} = no aspects."""
        return {}

    def clean_item(self, kind: str, name: str, weight_kg: float, data: Mapping) -> dict:
        """An item's stats checked by the engine; returns what `Item.data` stores."""
        if kind != "item" or data:
            raise ValidationError(
                _("%(system)s sheets only keep plain items.") % {"system": self.name},
                code="item_kind",
            )
        return {}

    def health_view(
        self, health: Mapping, ratings: Mapping[str, int], details: Mapping, rules: Mapping
    ) -> HealthView:
        raise NotImplementedError

    def damage_types(self) -> tuple[tuple[str, str], ...]:
        """(key, label) choices for the damage form; empty when the system has none."""
        return ()

    def apply_damage(
        self, health: Mapping, ratings, details, rules, damage: DamageInput, rng=None
    ) -> HealthChange:
        raise NotImplementedError

    def advance_time(
        self, health: Mapping, ratings, details, rules, hours: int, rested: bool = True
    ) -> HealthChange:
        """`rested`: the GM's answer to `rest_question` (True when the system asks none)."""
        raise NotImplementedError

    # --- Health ---
    # What the health section shows and offers (mechanics.health_panel): the defaults are
    # no treatments, an amount of damage (with its type when the system has types), the
    # usual time presets, and a wound penalty shown as a number.

    treatments: tuple[Treatment, ...] = ()
    time_presets: tuple[tuple[int, str], ...] = TIME_PRESETS
    pool_actions: tuple[PoolAction, ...] = ()
    # A question the time advance asks when rest changes what time does (a checkbox, on by
    # default); None asks nothing.
    rest_question: str | None = None
    damage_label: str = gettext_lazy("Damage")
    # (lowest, highest) amount of damage the form takes.
    damage_range: tuple[int, int] = (1, MAX_DAMAGE_POINTS)

    def damage_fields(self, character) -> dict[str, forms.Field]:
        """The damage form's inputs in order, named after `DamageInput`'s fields. A system
        adding its own (RD, a body part) puts them around these."""
        low, high = self.damage_range
        fields: dict[str, forms.Field] = {
            "amount": forms.IntegerField(
                label=self.damage_label,
                min_value=low,
                max_value=high,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        }
        if types := self.damage_types():
            fields["damage_type"] = forms.ChoiceField(
                label=_("Type of damage"),
                choices=types,
                widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
                initial=types[0][0],
            )
        return fields

    def health_notes(self, health: Mapping, ratings, details, rules) -> tuple[str, ...]:
        """Lines the health card adds under the state ("first aid cannot help yet")."""
        return ()

    def is_wounded(self, shown: HealthView) -> bool:
        """Whether a health without a named state still has a wound (a marked box)."""
        return any(mark for mark, _name in shown.boxes)

    def penalty_words(self, penalty: int) -> str:
        """The wound penalty as the health card shows it."""
        return _("penalty %(penalty)s") % {"penalty": penalty}

    def state_penalty(self, penalty: int) -> str:
        """The wound penalty in a one-line state ("Herido · −2"); "" leaves it out."""
        return str(penalty).replace("-", "−")

    def after_health_change(self, character, user) -> None:
        """What else on the sheet follows a new health state (nothing by default)."""

    def after_roll(self, character, user, record) -> list[dict]:
        """What a stored roll changes beyond its own sheet (in the roll's transaction), as
        `roll_apply_effects` reports it: dicts of what, label, old, new."""
        return []

    def end_scene(self, scene, user) -> list[str]:
        """What expires when a scene closes, in its transaction; one line per change."""
        return []

    def end_session(self, campaign, user) -> list[str]:
        """What expires when the GM ends a play session; one line per change."""
        return []

    def after_time_passes(self, character, user, hours: int, rested: bool) -> str:
        """What else on the sheet follows game time (nothing by default), in words for the
        event's summary ("" when nothing changed)."""
        return ""


def duration_in_words(*, months: int = 0, weeks: int = 0, days: int = 0, hours: int = 0) -> str:
    parts = []
    if months:
        parts.append(ngettext("%d month", "%d months", months) % months)
    if weeks:
        parts.append(ngettext("%d week", "%d weeks", weeks) % weeks)
    if days:
        parts.append(ngettext("%d day", "%d days", days) % days)
    if hours:
        parts.append(ngettext("%d hour", "%d hours", hours) % hours)
    return " ".join(parts)


def hours_in_words(hours: int | None) -> str:
    """Whole hours as months, weeks, days and hours (a month is 30 days)."""
    if not hours:
        return ""
    months, rest = divmod(int(hours), 30 * 24)
    weeks, rest = divmod(rest, 7 * 24)
    days, hours = divmod(rest, 24)
    return duration_in_words(months=months, weeks=weeks, days=days, hours=hours)
