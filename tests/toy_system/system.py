"""What Django knows about the toy system, like `mechanics/systems/<key>/`: a sheet with one
attribute, a roll set-up and its panel form, hit-point health and a scene award of feats.
Everything else (combat, treatments, sections, advancement) takes the contract's "this
system has none"."""

from __future__ import annotations

from django import forms
from django.template import Template

from mechanics.forms.roll import RollForm
from mechanics.rules.dice import default_rng
from mechanics.setup import OddsRow, OddsView, Plan, RollSetup, single
from mechanics.systems.base import (
    GameSystem,
    HealthChange,
    HealthView,
    RubricLine,
    SceneRubric,
    TraitRoll,
    TraitSpec,
)
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


class ToyRubric(SceneRubric):
    graded = ("feats",)

    @property
    def template(self) -> Template:
        # A system folder would hold this fragment; the toy has no template folder.
        return Template(
            '<fieldset class="toy-feats"><legend>{{ form.feats.label }}</legend>'
            "{{ form.feats }}{{ form.feats.errors }}</fieldset>"
        )

    def fields(self) -> dict[str, forms.Field]:
        choices = [(n, str(n)) for n in range(rules.MAX_FEATS + 1)]
        return {
            "feats": forms.TypedChoiceField(
                label="Hazañas", choices=choices, coerce=int, required=False
            )
        }

    def initial(self, *, has_diary, stored=None):
        return {"feats": (stored or {}).get("feats", 1)}

    def award(self, grades):
        return rules.FeatsAward(grades["feats"])

    def lines(self, award):
        return [RubricLine("feats", "Hazañas", award.feats, "")]


class ToySystem(GameSystem):
    key = rules.SYSTEM
    name = "Dados de juguete"
    scene_rubric = ToyRubric()
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
