"""What Django knows about the toy system, like `mechanics/systems/<key>/`: a sheet with one
attribute, a roll set-up and its panel form, and hit-point health. Everything else (combat,
treatments, sections, advancement) takes the contract's "this system has none"."""

from __future__ import annotations

from django import forms

from mechanics.forms.roll import RollForm
from mechanics.rules.dice import default_rng
from mechanics.setup import OddsRow, OddsView, Plan, RollSetup, single
from mechanics.systems.base import GameSystem, HealthChange, HealthView, TraitRoll, TraitSpec
from tests.toy_system import rules

BODY = TraitSpec("cuerpo", "Cuerpo", "attribute", "Atributos", 1, 5)


class ToySetup(RollSetup):
    def plan(self, sheet, data, *, open_actions=None):
        dice = sheet.rating(data["attribute"])
        odds = OddsView(
            rows=(OddsRow("success", "Acierto", rules.chance_of_a_hit(dice)),),
            summary=f"{dice}d6",
        )
        return Plan(
            kind="pool",
            odds=odds,
            roll=single(sheet, lambda rng: rules.roll_pool(dice, rng or default_rng()), data),
        )


class ToyRollForm(RollForm):
    kinds = (("pool", "Reserva"),)
    layout = ((None, None, ["attribute", "label", "secret"]),)
    attribute = forms.ChoiceField(label="Atributo")

    def setup_fields(self):
        self.fields["attribute"].choices = self.sheet.trait_choices("attribute")


class ToySystem(GameSystem):
    key = rules.SYSTEM
    name = "Dados de juguete"
    roll_setup = ToySetup()
    roll_form = ToyRollForm

    def trait_specs(self, campaign):
        return (BODY,)

    def trait_roll(self, spec):
        return TraitRoll({"kind": "pool", "attribute": spec.key})

    def new_health(self, ratings, details, rules_):
        return {"lost": 0}

    def _maximum(self, ratings) -> int:
        return rules.hit_points(ratings.get(BODY.key, BODY.minimum))

    def health_view(self, health, ratings, details, rules_):
        left = self._maximum(ratings) - health.get("lost", 0)
        return HealthView(
            state=None,
            penalty=0,
            lines=(("PV", f"{left}/{self._maximum(ratings)}"),),
            dead=left <= 0,
        )

    def apply_damage(self, health, ratings, details, rules_, damage, rng=None):
        lost = rules.after_damage(health.get("lost", 0), damage.amount, self._maximum(ratings))
        return HealthChange({"lost": lost}, f"−{damage.amount} PV")

    def advance_time(self, health, ratings, details, rules_, hours, rested=True):
        return HealthChange({"lost": rules.after_rest(health.get("lost", 0), hours)}, f"{hours} h")
