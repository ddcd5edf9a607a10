"""3d6 + NdP rolls: a sheet and the panel's choices to checks, attacks and opposed rolls
(docs/rules.md#ndp-rolls)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.rules.dice import RollRecord
from mechanics.rules.ndp import equipment
from mechanics.rules.ndp import odds as engine_odds
from mechanics.rules.ndp import rolls as engine
from mechanics.setup import (
    OddsRow,
    OddsView,
    Plan,
    RollSetup,
    Sheet,
    SideRecord,
    check_can_act,
    named_sides,
    opponent,
    single,
    won,
)
from mechanics.systems.ndp import wounds
from mechanics.systems.ndp.gear import intercepting
from mechanics.templatetags.roll_panel import signed


def desgracia_dice(count: int) -> str:
    """A step of Desgracias as the dice it takes away ("−2d4"), as the roll's summary
    writes them, so it never reads as a bonus."""
    return f"−{count}d4"


def step_words(steps) -> str:
    """A side's steps in one line, for the other side's odds."""
    return " · ".join(f"{label} {signed(value)}" for label, value in steps)


class NdpSetup(RollSetup):
    opposed_kinds = ("opposed",)
    sheet_extras = ("items",)

    def load_desgracias(self, sheet: Sheet, skill: str) -> int:
        weight = float(sum((item.weight_kg for item in sheet.items), Decimal(0)))
        load = equipment.load_state(weight, sheet.rating("fortitud"))
        return equipment.load_desgracias(load, skill)

    def spec(
        self, sheet: Sheet, data: Mapping, *, adversity=None, opposed_total=None
    ) -> tuple[engine.NdpSpec, list]:
        check_can_act(sheet)
        skill = data["skill"]
        steps = [(sheet.name(skill), sheet.rating(skill))]
        load = self.load_desgracias(sheet, skill)
        if load:
            steps.append((_("Desgracias for the load carried"), desgracia_dice(load)))
        # Desgracias the combat panel adds by rule (a second attack, a feint...).
        added = [(label, count) for label, count in data.get("added_desgracias", ()) if count]
        fractured = wounds.fracture_desgracias(sheet, data.get("limb") or "")
        if fractured:
            added.append((_("Desgracias for Fracturado"), fractured))
        steps += [(label, desgracia_dice(count)) for label, count in added]
        bonus = data.get("bonus") or 0
        for label, value in data.get("bonus_steps", ()):
            steps.append((label, value))
        if data.get("quick") and (contused := wounds.quick_adversity(sheet)):
            steps.append((_("Contusionado: quick action, adversity"), contused))
            # Harder to exceed: a higher adversity, or a lower total when the other
            # side's roll is the adversity (two-sided rolls, a combat defence).
            if adversity is not None:
                adversity += contused
            elif opposed_total is not None:
                opposed_total += contused
            else:
                bonus -= contused
        spec = engine.NdpSpec(
            level=sheet.rating(skill),
            dice=int(data.get("dice") or 3),
            gracias=data.get("gracias") or 0,
            desgracias=(data.get("desgracias") or 0) + load + sum(n for _l, n in added),
            adversity=adversity,
            opposed_total=opposed_total,
            defender=opposed_total is not None and bool(data.get("defending")),
            bonus=bonus,
            skill=skill,
        )
        return spec, steps

    def odds(self, spec: engine.NdpSpec, steps, *, attack: bool = False) -> OddsView:
        result = engine_odds.odds(spec)
        rows = []
        if spec.threshold is not None:
            rows.append(OddsRow("success", _("Hit") if attack else _("Success"), result.p_success))
        rows.append(OddsRow("progress", _("Gain 1 PdP"), engine_odds.p_progress(spec)))
        dice = {2: _("2d6 (desventaja)"), 3: "3d6", 4: _("4d6 (ventaja)")}[spec.dice]
        parts = [dice, f"+ {spec.level}"]
        if spec.gracias:
            parts.append(f"+ {spec.gracias}d4")
        if spec.desgracias:
            parts.append(f"− {spec.desgracias}d4")
        if spec.bonus:
            parts.append(f"{'+' if spec.bonus > 0 else '−'} {abs(spec.bonus)}")
        summary = " ".join(parts)
        notes = ()
        if spec.adversity is not None or spec.opposed_total is not None:
            against = spec.adversity if spec.adversity is not None else spec.opposed_total
            summary = _("%(roll)s against %(adversity)s") % {"roll": summary, "adversity": against}
        if spec.opposed_total is not None:
            notes = (
                _("You defend: a tie goes to you.")
                if spec.defender
                else _("The defender wins ties: you need more than their total."),
            )
        return OddsView(rows=tuple(rows), summary=summary, steps=tuple(steps), notes=notes)

    def plan(self, sheet: Sheet, data: Mapping, **kwargs) -> Plan:
        adversity = data.get("adversity")
        if data["kind"] == "attack" and adversity is None:
            raise ValidationError(
                _("An attack needs the adversity to beat (the defence)."), code="adversity"
            )
        opposed = data.get("opposed_total") if data["kind"] == "check" else None
        spec, steps = self.spec(sheet, data, adversity=adversity, opposed_total=opposed)
        if data["kind"] != "attack":
            return Plan(
                kind="check",
                odds=self.odds(spec, steps),
                roll=single(sheet, lambda rng: engine.roll_check(spec, rng), data),
            )
        damage = engine.DamageSpec(
            sides=data["damage_sides"],
            count=data["damage_count"] if data["damage_sides"] else 0,
            fixed=data.get("damage_fixed") or 0,
            damage_type=data["damage_type"],
            rd=data.get("target_rd") or 0,
            pelea=spec.skill == "pelea",
            armour_integrity=data.get("armour_integrity"),
        )
        odds = self.odds(spec, steps, attack=True)
        tiers = engine_odds.damage_odds(damage)
        p_hit = odds.p("success") or 0.0
        rows = odds.rows + tuple(
            OddsRow(f"tier_{tier}", label, p_hit * tiers[tier])
            for tier, label in (
                ("leve", _("Hit: leve wound")),
                ("grave", _("Hit: grave wound")),
                ("letal", _("Hit: letal wound")),
            )
        )

        def roll(rng=None) -> RollRecord:
            check = engine.roll_check(spec, rng)
            if check.outcome != "success":
                return replace(check, kind="attack", details={**check.details, "hit": False})
            hit = engine.roll_damage(damage, rng)
            dice = check.dice + tuple(replace(d, tags=(*d.tags, "damage")) for d in hit.dice)
            return replace(
                check,
                kind="attack",
                dice=dice,
                effects=replace(check.effects, damage=hit.result),
                details={
                    **check.details,
                    "hit": True,
                    "damage_roll": {**hit.details, "dice": f"{damage.count}d{damage.sides}"},
                    "damage": hit.result,
                    "tier": hit.outcome,
                },
            )

        return Plan(
            kind="attack",
            odds=replace(odds, rows=rows),
            roll=single(sheet, roll, data),
        )

    def opposed(self, a: Sheet, data_a: Mapping, b: Sheet, data_b: Mapping) -> Plan:
        # Interceptar: a shield's bonus, and the object takes the blow if it stops it.
        data_a, used_a = intercepting(a, dict(data_a))
        data_b, used_b = intercepting(b, dict(data_b))
        spec_a, steps_a = self.spec(a, data_a)
        spec_b, steps_b = self.spec(b, data_b)
        p_attacker = engine_odds.p_attacker_wins(spec_a, spec_b)
        rows = (
            OddsRow("win", _("%(name)s wins (attacker)") % {"name": a.character.name}, p_attacker),
            OddsRow(
                "lose",
                _("%(name)s wins (defender, wins ties)") % {"name": b.character.name},
                1.0 - p_attacker,
            ),
        )
        summary = (
            f"{a.character.name}: {self.odds(spec_a, ()).summary} · "
            f"{b.character.name}: {self.odds(spec_b, ()).summary}"
        )

        def roll(rng=None) -> list[SideRecord]:
            result = engine.roll_opposed(spec_a, spec_b, rng)
            winner = "a" if result.winner == "attacker" else "b"
            sides = []
            for side, sheet, other, own, theirs, used in (
                ("a", a, b, result.attacker, result.defender, used_a),
                ("b", b, a, result.defender, result.attacker, used_b),
            ):
                outcome = won(winner, side)
                details = {
                    **own.details,
                    "role": "attacker" if side == "a" else "defender",
                    "opponent": opponent(other, theirs.result),
                }
                if used and outcome == "won":
                    details["intercepted_with"] = {"item": used[0].pk, "name": used[0].name}
                sides.append(SideRecord(sheet, replace(own, outcome=outcome, details=details)))
            return named_sides(sides, {a.character.pk: data_a, b.character.pk: data_b})

        notes = tuple(
            _("%(name)s intercepts with %(item)s: it takes the blow if the defence stops it.")
            % {"name": sheet.character.name, "item": used[0].name}
            for sheet, used in ((a, used_a), (b, used_b))
            if used
        )
        if used_b:
            notes = (f"{b.character.name}: {step_words(steps_b)}", *notes)
        return Plan(
            kind="opposed",
            odds=OddsView(rows=rows, summary=summary, steps=tuple(steps_a), notes=notes),
            roll=roll,
            group=uuid.uuid4(),
        )
