import json
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp.catalogue import LIMBS
from mechanics.rules.ndp.health import (
    PART_KEYS,
    HealEstimate,
    NdpHealth,
    Wound,
    apply_wound,
    apply_wounds,
    auxiliar,
    bleed_round,
    heal,
    heal_estimate,
    overload_turn,
    set_unconscious,
    time_to_heal,
)

wounds = st.tuples(
    st.sampled_from(PART_KEYS),
    st.sampled_from(["leve", "grave", "letal"]),
    st.sampled_from([None, "contundente", "cortante"]),
)


def _apply_until_dead(health: NdpHealth, sequence) -> NdpHealth:
    for part, tier, damage_type in sequence:
        if health.dead:
            break
        health = apply_wound(health, part, tier, damage_type)
    return health


def _total_wounds(health: NdpHealth) -> int:
    return sum(len(p.wounds) for p in health.parts)


def test_a_fresh_character_has_no_wounds_or_states():
    health = NdpHealth()
    assert _total_wounds(health) == 0
    assert health.states == ()
    assert not health.dead


def test_grave_wound_on_the_head_is_contusionado():
    health = apply_wound(NdpHealth(), "cabeza", "grave", "contundente")
    assert ("contusionado", "cabeza") in health.states
    assert health.quick_action_adversity == 5


def test_leve_wound_on_the_head_is_not_contusionado():
    assert apply_wound(NdpHealth(), "cabeza", "leve", "contundente").quick_action_adversity == 0


def test_two_grave_contundente_on_a_limb_fracture_it():
    health = apply_wounds(
        NdpHealth(),
        [("brazo_izquierdo", "grave", "contundente"), ("brazo_izquierdo", "grave", "contundente")],
    )
    assert health.fractured_limbs == ("brazo_izquierdo",)
    assert health.desgracias_for(["brazo_izquierdo"]) == 2
    assert health.desgracias_for(["brazo_derecho"]) == 0


def test_grave_contundente_on_two_different_limbs_does_not_fracture():
    health = apply_wounds(
        NdpHealth(),
        [("brazo_izquierdo", "grave", "contundente"), ("brazo_derecho", "grave", "contundente")],
    )
    assert health.fractured_limbs == ()


def test_two_grave_contundente_on_the_torso_is_no_fracture():
    health = apply_wounds(
        NdpHealth(), [("torso", "grave", "contundente"), ("torso", "grave", "contundente")]
    )
    assert health.fractured_limbs == ()


def test_two_grave_cortante_start_hemorragia_leve_that_bleeds_leve_each_round():
    health = apply_wounds(
        NdpHealth(),
        [("pierna_derecha", "grave", "cortante"), ("pierna_derecha", "grave", "cortante")],
    )
    assert ("hemorragia_leve", "pierna_derecha") in health.states
    bled = bleed_round(health)
    assert bled.part("pierna_derecha").count("leve") == 1
    assert bled.part("pierna_derecha").wounds[-1].damage_type is None


def test_letal_on_a_limb_dismembers_it_and_bleeds_grave():
    health = apply_wound(NdpHealth(), "brazo_derecho", "letal", "cortante")
    assert ("desmembrado", "brazo_derecho") in health.states
    assert ("hemorragia_grave", "brazo_derecho") in health.states
    assert not health.dead
    assert bleed_round(health).part("brazo_derecho").count("grave") == 1


def test_desmembrado_replaces_a_hemorragia_leve_on_that_limb():
    health = apply_wounds(
        NdpHealth(),
        [
            ("brazo_derecho", "grave", "cortante"),
            ("brazo_derecho", "grave", "cortante"),
            ("brazo_derecho", "letal", "cortante"),
        ],
    )
    assert health.part("brazo_derecho").bleeding == "hemorragia_grave"
    assert ("hemorragia_leve", "brazo_derecho") not in health.states
    assert "fracturado" not in health.part("brazo_derecho").states


def test_a_letal_on_an_occupied_limb_moves_to_the_torso_and_kills():
    health = apply_wound(NdpHealth(), "pierna_izquierda", "letal", "cortante")
    health = apply_wound(health, "pierna_izquierda", "letal", "cortante")
    assert health.part("pierna_izquierda").count("letal") == 1
    assert health.part("torso").count("letal") == 1
    assert health.dead
    assert ("muerte", None) in health.states


@pytest.mark.parametrize("part", ["cabeza", "torso"])
def test_letal_on_head_or_torso_is_death(part):
    health = apply_wound(NdpHealth(), part, "letal", "contundente")
    assert health.dead


def test_the_dead_take_no_more_wounds_and_do_not_bleed():
    health = apply_wound(NdpHealth(), "torso", "letal", "cortante")
    with pytest.raises(RuleError, match="dead"):
        apply_wound(health, "cabeza", "leve")
    assert bleed_round(health) == health


def test_auxiliar_stops_every_bleeding_and_wakes_the_character():
    health = apply_wound(NdpHealth(), "brazo_derecho", "letal", "cortante")
    health = apply_wounds(health, [("torso", "grave", "cortante"), ("torso", "grave", "cortante")])
    health = set_unconscious(health)
    assert ("inconsciencia", None) in health.states
    helped = auxiliar(health)
    assert helped.bleeding_parts == ()
    assert not helped.unconscious
    assert ("desmembrado", "brazo_derecho") in helped.states
    assert bleed_round(helped) == helped


def test_auxiliar_on_one_part_leaves_the_others_bleeding():
    health = apply_wound(NdpHealth(), "brazo_derecho", "letal", "cortante")
    health = apply_wound(health, "brazo_izquierdo", "letal", "cortante")
    assert auxiliar(health, "brazo_derecho").bleeding_parts == ("brazo_izquierdo",)


def test_wounds_heal_with_rest_leve_in_a_day_and_grave_in_a_week():
    health = apply_wounds(
        NdpHealth(), [("torso", "leve", "cortante"), ("cabeza", "grave", "contundente")]
    )
    assert time_to_heal(health) == 168
    day = heal(health, 24)
    assert day.part("torso").wounds == ()
    assert day.part("cabeza").wounds[0].rest_hours == 24
    assert day.quick_action_adversity == 5
    week = heal(day, 144)
    assert _total_wounds(week) == 0
    assert week.states == ()
    assert time_to_heal(week) == 0


def test_a_lost_limb_never_heals():
    health = auxiliar(apply_wound(NdpHealth(), "brazo_izquierdo", "letal", "cortante"))
    healed = heal(health, 10_000)
    assert healed.dismembered_limbs == ("brazo_izquierdo",)
    assert time_to_heal(healed) == 0


def test_no_healing_while_bleeding_or_dead():
    bleeding = apply_wound(NdpHealth(), "brazo_izquierdo", "letal", "cortante")
    with pytest.raises(RuleError, match="bleeding"):
        heal(bleeding, 24)
    with pytest.raises(RuleError, match="dead"):
        heal(apply_wound(NdpHealth(), "cabeza", "letal"), 24)
    with pytest.raises(RuleError):
        heal(NdpHealth(), -1)


def test_the_estimate_of_a_bleeding_character_heals_nothing_until_the_bleeding_stops():
    health = apply_wounds(NdpHealth(), [("torso", "grave", "cortante")] * 2)
    estimate = heal_estimate(health)
    # A week's wounds, but no rest counts while the torso bleeds (heal refuses).
    assert (estimate.hours, estimate.bleeding, estimate.lost) == (168, ("torso",), ())
    assert not estimate.heals_fully
    with pytest.raises(RuleError, match="bleeding"):
        heal(health, estimate.hours)
    stopped = heal_estimate(auxiliar(health))
    assert stopped.heals_fully
    assert stopped.hours == 168
    assert _total_wounds(heal(auxiliar(health), 168)) == 0


def test_the_estimate_of_a_lost_limb_says_it_never_heals_and_when_the_rest_does():
    # Sigrid: a grave wound three days into its week, then a letal on the left leg.
    health = NdpHealth(
        parts=tuple(
            replace(p, wounds=(Wound("grave", "cortante", rest_hours=72),))
            if p.part == "torso"
            else p
            for p in NdpHealth().parts
        )
    )
    health = apply_wound(health, "pierna_izquierda", "letal", "cortante")
    estimate = heal_estimate(health)
    assert estimate.bleeding == ("pierna_izquierda",)
    assert estimate.lost == ("pierna_izquierda",)
    assert estimate.hours == 96
    assert not estimate.heals_fully
    stopped = auxiliar(health)
    assert heal_estimate(stopped).bleeding == ()
    assert heal_estimate(stopped).lost == ("pierna_izquierda",)
    assert not heal_estimate(stopped).heals_fully
    rested = heal(stopped, 96)
    assert [(p.part, w.tier) for p in rested.parts for w in p.wounds] == [
        ("pierna_izquierda", "letal")
    ]
    assert heal_estimate(rested) == HealEstimate(hours=0, lost=("pierna_izquierda",))


def test_the_dead_heal_nothing_whatever_wounds_they_have():
    health = apply_wounds(
        NdpHealth(), [("brazo_derecho", "grave", None), ("cabeza", "letal", None)]
    )
    estimate = heal_estimate(health)
    assert estimate == HealEstimate(dead=True)
    assert not estimate.heals_fully


@given(st.lists(wounds, max_size=25))
def test_the_estimate_says_what_rest_does(sequence):
    health = _apply_until_dead(NdpHealth(), sequence)
    estimate = heal_estimate(health)
    assert estimate.heals_fully == (
        not health.dead and not health.bleeding_parts and not health.dismembered_limbs
    )
    if health.dead or health.bleeding_parts:
        with pytest.raises(RuleError):
            heal(health, max(estimate.hours, 1))
        if health.dead:
            return
        # What the estimate promises once Auxiliar has stopped the bleeding.
        health = auxiliar(health)
        assert heal_estimate(health) == replace(estimate, bleeding=())
    rested = heal(health, estimate.hours)
    assert {p.part for p in rested.parts if p.wounds} == set(estimate.lost)
    assert all(w.tier == "letal" for p in rested.parts for w in p.wounds)
    if estimate.hours:
        assert any(
            w.tier != "letal" for p in heal(health, estimate.hours - 1).parts for w in p.wounds
        )


def test_overload_gives_each_leg_a_grave_wound_per_turn():
    health = overload_turn(overload_turn(NdpHealth()))
    assert [
        health.part(leg).count("grave", "contundente")
        for leg in ("pierna_izquierda", "pierna_derecha")
    ] == [2, 2]
    assert set(health.fractured_limbs) == {"pierna_izquierda", "pierna_derecha"}


def test_invalid_wounds_are_refused():
    with pytest.raises(RuleError, match="unknown body part"):
        apply_wound(NdpHealth(), "cola", "leve")
    with pytest.raises(RuleError, match="unknown wound tier"):
        apply_wound(NdpHealth(), "torso", "mortal")
    with pytest.raises(RuleError, match="unknown damage type"):
        apply_wound(NdpHealth(), "torso", "leve", "fuego")


def test_malformed_health_records_are_refused():
    with pytest.raises(RuleError):
        NdpHealth.from_dict({"parts": [{"part": "torso"}]})
    with pytest.raises(RuleError):
        NdpHealth.from_dict({"parts": [{"wounds": []}]})
    assert NdpHealth.from_dict({}) == NdpHealth()


def test_summary_names_the_states():
    health = apply_wound(NdpHealth(), "cabeza", "grave", "contundente")
    summary = health.summary()
    assert summary["states"] == [{"key": "contusionado", "name": "Contusionado", "part": "cabeza"}]
    assert summary["parts"]["cabeza"]["grave"] == 1
    assert json.loads(json.dumps(summary)) == summary


@given(st.lists(wounds, max_size=25), st.integers(0, 400))
def test_health_json_round_trip_is_the_identity(sequence, hours):
    health = _apply_until_dead(NdpHealth(), sequence)
    if not health.dead:
        health = heal(auxiliar(health), hours)
    assert NdpHealth.from_dict(json.loads(json.dumps(health.to_dict()))) == health


@given(st.lists(wounds, max_size=25))
def test_health_invariants_hold_after_any_wounds(sequence):
    health = NdpHealth()
    for part, tier, damage_type in sequence:
        if health.dead:
            break
        before = _total_wounds(health)
        health = apply_wound(health, part, tier, damage_type)
        assert _total_wounds(health) == before + 1
    for limb in LIMBS:
        p = health.part(limb)
        assert p.count("letal") <= 1
        assert ("desmembrado" in p.states) == (p.count("letal") == 1)
    assert health.dead == any(health.part(k).count("letal") for k in ("cabeza", "torso"))
    assert all(p.bleeding is None for p in auxiliar(health).parts)


@given(st.lists(wounds, max_size=25), st.integers(0, 400))
def test_healing_never_adds_wounds_and_full_rest_leaves_only_lost_limbs(sequence, hours):
    health = _apply_until_dead(NdpHealth(), sequence)
    assume(not health.dead)
    health = auxiliar(health)
    rested = heal(health, hours)
    assert _total_wounds(rested) <= _total_wounds(health)
    healed = heal(rested, time_to_heal(rested))
    assert all(w.tier == "letal" for p in healed.parts for w in p.wounds)
    assert time_to_heal(healed) == 0
