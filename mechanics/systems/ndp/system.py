from __future__ import annotations

from django.core.exceptions import ValidationError
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaigns.texts import Message
from mechanics.rules.ndp import catalogue, equipment, health, rolls
from mechanics.rules.ndp.settings import SETTINGS
from mechanics.systems.base import (
    GameSystem,
    HealthChange,
    HealthView,
    ResourceSpec,
    TraitRoll,
    TraitSpec,
    hours_in_words,
)
from mechanics.systems.ndp import demo, languages, magic, magic_sheet, sheet, xp
from mechanics.systems.ndp import health as health_ui
from mechanics.systems.ndp.combat import NdpCombat
from mechanics.systems.ndp.forms import NdpSideForm
from mechanics.systems.ndp.gear import wear_interceptor
from mechanics.systems.ndp.magic_forms import NdpMagicRollForm

PRANA = "prana"


class NdpSystem(GameSystem):
    key = "ndp"
    name = "3d6 + NdP"
    house_rules = SETTINGS
    # 51 skills, most at level 0 on any sheet.
    folds_untrained_skills = True
    rating_name = "NdP"
    demo_campaign = demo.DEMO_CAMPAIGN
    demo_characters = demo.DEMO_CHARACTERS
    demo_chronicle = demo.DEMO_CHRONICLE

    # --- Combat ---
    combat = NdpCombat()

    # --- Rolls ---
    # The panel's checks and attacks, and magic (magic.py, magic_forms.py).
    roll_setup = magic.NdpMagicSetup()
    roll_form = NdpMagicRollForm
    side_form = NdpSideForm
    display = magic.NdpMagicWords()

    def after_roll(self, character, user, record) -> list[dict]:
        return magic.after_magic_roll(self, character, user, record) + wear_interceptor(
            character, user, record
        )

    urlpatterns = (*magic_sheet.URLS, *languages.URLS)

    # --- Sheet, creation and advancement ---
    sheet_sections = (
        *sheet.SECTIONS,
        magic_sheet.MagicSection(),
        languages.LanguagesSection(),
    )
    stylesheet = "css/systems/ndp.css"
    detail_labels = sheet.DETAIL_LABELS
    xp_sections = xp.SECTIONS
    add_progress = staticmethod(rolls.add_pdp)
    level_up_effect = "ndp"

    def trait_roll(self, spec: TraitSpec) -> TraitRoll | None:
        """Every NdP trait is a skill: a click rolls it."""
        if spec.kind == "skill":
            return TraitRoll({"kind": "check", "skill": spec.key})
        return None

    def trait_specs(self, campaign) -> tuple[TraitSpec, ...]:
        return _SPECS

    def resource_specs(self, ratings, details, rules) -> tuple[ResourceSpec, ...]:
        prana = equipment.max_prana(ratings.get("vitalidad", 0))
        faith_max = equipment.max_faith_per_deity(ratings.get("voluntad", 0))
        specs = [ResourceSpec(PRANA, "Prana", prana, prana)]
        specs += [
            ResourceSpec(f"fe_{deity}", f"Fe · {name}", faith_max, 0)
            for deity, name in sorted(details.get("deities", {}).items())
        ]
        return tuple(specs)

    def derived(self, ratings, details, rules, items=(), wound_penalty=0) -> list[tuple[str, str]]:
        fortitud = ratings.get("fortitud", 0)
        weight = float(sum(item.weight_kg for item in items))
        load = equipment.load_state(weight, fortitud)
        # Written as the sheet's equipment section writes weights (floatformat:"-2").
        load_text = f"{floatformat(weight, -2)} / {equipment.max_load(fortitud)} kg"
        if load.immobile:
            load_text += " · " + _("immobile")
        elif load.overloaded:
            # Desgracia is the seed's word: a game term, Spanish in every language.
            load_text += " · " + ngettext(
                "half speed, %(count)s Desgracia",
                "half speed, %(count)s Desgracias",
                load.athletic_desgracias,
            ) % {"count": load.athletic_desgracias}
        return [
            (_("Load"), load_text),
            (_("Maximum Prana"), str(equipment.max_prana(ratings.get("vitalidad", 0)))),
            (_("Gestures known (max.)"), str(equipment.max_gestures(ratings.get("arcano", 0)))),
            (_("Deities (max.)"), str(equipment.max_deities(ratings.get("religion", 0)))),
        ]

    def rating_label(self, spec: TraitSpec, rating: int) -> str:
        return catalogue.mastery(rating).name if rating >= 0 else ""

    def new_health(self, ratings, details, rules) -> dict:
        return health.NdpHealth().to_dict()

    def clean_details(self, details, campaign) -> dict:
        cleaned = dict(details)
        deities = cleaned.get("deities", {})
        if not isinstance(deities, dict) or not all(
            isinstance(key, str) and isinstance(name, str) and 0 < len(name) <= 80
            for key, name in deities.items()
        ):
            raise ValidationError(
                _("Deities must map a key to a name of at most 80 characters."),
                code="bad_deities",
            )
        if not languages.valid_languages(cleaned.get(languages.LANGUAGES, [])):
            raise ValidationError(
                _(
                    "Languages must be a list of a language (at most 60 characters) and what "
                    "it grants: comprension, habla or escritura."
                ),
                code="bad_languages",
            )
        return cleaned

    def clean_health(self, stored, ratings, details, rules) -> dict:
        if not stored:
            return self.new_health(ratings, details, rules)
        return health.NdpHealth.from_dict(dict(stored)).to_dict()

    def max_progress(self) -> int:
        return catalogue.PDP_PER_LEVEL - 1

    def clean_item(self, kind, name, weight_kg, data) -> dict:
        engine_class = _ITEM_CLASSES.get(kind)
        if engine_class is None:
            raise ValidationError(_("Unknown kind of item: %(kind)s.") % {"kind": kind})
        try:
            stats = engine_class.from_dict({**data, "name": name, "weight_kg": weight_kg})
        except TypeError:
            raise ValidationError(
                _("%(name)s: these stats do not fit its kind of item.") % {"name": name},
                code="bad_item",
            ) from None
        stored = stats.to_dict()
        stored.pop("name")
        stored.pop("weight_kg")
        return stored

    def health_view(self, stored, ratings, details, rules) -> HealthView:
        state = self.state(stored)
        summary = state.summary()
        healing = summary["healing"]
        lines = tuple(
            (
                part["name"],
                f"leve {part['leve']} · grave {part['grave']} · letal {part['letal']}",
            )
            for part in summary["parts"].values()
            if part["leve"] or part["grave"] or part["letal"]
        )
        names = tuple(
            s["name"] + (f" ({catalogue.body_part(s['part']).name})" if s["part"] else "")
            for s in summary["states"]
        )
        return HealthView(
            state=names[0] if names else None,
            penalty=0,
            unconscious=summary["unconscious"],
            dead=summary["dead"],
            # "Heals fully in" only when it does; otherwise `health_notes` says why not.
            time_to_heal=(hours_in_words(healing["hours"]) if healing["heals_fully"] else ""),
            lines=lines,
            states=names,
        )

    def damage_types(self) -> tuple[tuple[str, str], ...]:
        return tuple((t.key, t.name) for t in catalogue.DAMAGE_TYPES)

    def state(self, stored) -> health.NdpHealth:
        return health.NdpHealth.from_dict(dict(stored)) if stored else health.NdpHealth()

    def apply_damage(self, stored, ratings, details, rules, damage, rng=None) -> HealthChange:
        result = rolls.damage_result(
            damage.amount,
            damage.rd,
            damage.damage_type,
            armour_integrity=damage.armour_integrity,
        )
        state = self.state(stored)
        part = catalogue.body_part(damage.part).name
        if result.tier is None:
            # Stored in the history: translated when read (campaigns.texts.Message).
            summary = Message(
                gettext_noop("%(part)s: %(net)s → no wound"), part=part, net=result.net
            )
        else:
            summary = f"{part}: {result.net} → {result.tier}"
            landed = health.wound_part(state, damage.part, result.tier)
            state = health.apply_wound(state, damage.part, result.tier, damage.damage_type)
            if landed != damage.part:
                summary = Message(
                    gettext_noop("%(wound)s, moved to %(part)s"),
                    wound=summary,
                    part=catalogue.body_part(landed).name,
                )
        return HealthChange(state.to_dict(), summary, result)

    def advance_time(self, stored, ratings, details, rules, hours, rested=True) -> HealthChange:
        return HealthChange(health.heal(self.state(stored), hours).to_dict(), f"{hours} h")

    # --- Health ---
    treatments = health_ui.TREATMENTS
    after_time_passes = health_ui.regain_prana
    damage_label = health_ui.DAMAGE_LABEL
    damage_range = health_ui.DAMAGE_RANGE
    damage_fields = health_ui.damage_fields
    is_wounded = health_ui.is_wounded
    health_notes = health_ui.health_notes


_SPECS = tuple(
    TraitSpec(s.key, s.name, "skill", s.category, s.minimum, s.maximum, s.description)
    for s in catalogue.SKILLS
)
_ITEM_CLASSES = {
    "item": equipment.Item,
    "armour": equipment.ArmourPiece,
    "weapon": equipment.Weapon,
    "shield": equipment.Shield,
}
