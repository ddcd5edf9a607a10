import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.hitos.health import (
    DAY,
    MONTH,
    WEEK,
    HitosHealth,
    activity_test,
    apply_damage,
    end_scene,
    end_session,
    heal,
    healing_period,
    medical_supervision,
    period_table,
    supervision_spec,
    take_drug,
    time_to_full,
)


def test_example_2_aguante_5_health_states(fixed_dice):
    health = HitosHealth(aguante=5)
    assert health.resistencia_max == 15
    assert health.state.name == "Sano"

    # Damage 5 ≥ Aguante 5: the massive-damage test; C 8 → 13 > 12 keeps the character up.
    herido, test = apply_damage(health, 5, fixed_dice(2, 8, 9))
    assert test is not None
    assert test.kind == "massive_damage"
    assert test.result == 5 + 8
    assert herido.lost == 5
    assert (herido.state.name, herido.penalty) == ("Herido", -2)

    incapacitado = HitosHealth(5, lost=10)
    assert (incapacitado.state.name, incapacitado.penalty) == ("Incapacitado", -5)
    moribundo = HitosHealth(5, lost=15)
    assert moribundo.state.name == "Moribundo"
    assert not moribundo.can_act


def test_damage_below_aguante_needs_no_test():
    health, test = apply_damage(HitosHealth(5), 4, rng=None)
    assert test is None
    assert health.lost == 4
    assert health.state.name == "Sano"


def test_failing_the_massive_damage_test_loses_all_remaining_resistencia(fixed_dice):
    health, test = apply_damage(HitosHealth(5), 6, fixed_dice(2, 3, 9))
    assert test.outcome == "failure"
    assert [die.value for die in test.dice] == [2, 3, 9]
    assert health.lost == 15
    assert health.resistencia == 0
    assert health.state.name == "Moribundo"


def test_the_massive_damage_test_follows_the_equal_succeeds_setting(fixed_dice):
    strict, _ = apply_damage(HitosHealth(5), 5, fixed_dice(2, 7, 9))
    assert strict.lost == 15
    lenient, _ = apply_damage(HitosHealth(5), 5, fixed_dice(2, 7, 9), equal_succeeds=True)
    assert lenient.lost == 5


def test_lost_resistencia_stops_at_three_times_aguante():
    health, _ = apply_damage(HitosHealth(5, lost=12), 4)
    assert health.lost == 15


def test_incapacitado_brings_a_temporary_secuela_until_sano():
    health, _ = apply_damage(HitosHealth(5, lost=8), 3)
    assert health.temporary_secuela
    herido = heal(health, 2 * MONTH)
    assert (herido.lost, herido.state.name) == (9, "Herido")
    assert herido.temporary_secuela
    assert not heal(herido, 5 * WEEK).temporary_secuela


def test_recovering_from_moribundo_leaves_a_permanent_secuela():
    health = HitosHealth(5, lost=15, temporary_secuela=True)
    healed = heal(health, MONTH)
    assert healed.lost == 14
    assert healed.permanent_secuelas == 1
    assert healed.temporary_secuela


def test_critical_hit_secuelas_last_a_scene_or_a_session():
    scene, _ = apply_damage(HitosHealth(5), 2, critical="scene")
    assert scene.critical_secuela == "scene"
    assert end_scene(scene).critical_secuela is None
    session, _ = apply_damage(scene, 1, critical="session")
    assert session.critical_secuela == "session"
    assert end_scene(session).critical_secuela == "session"
    assert end_session(session).critical_secuela is None
    # A shorter secuela does not replace a longer one.
    assert apply_damage(session, 1, critical="scene")[0].critical_secuela == "session"


def test_soft_drugs_cancel_two_penalty_points_after_an_hour():
    health = take_drug(HitosHealth(5, lost=5), "suave")
    assert health.penalty == -2
    assert heal(health, Fraction(1, 2)).penalty == -2
    active = heal(health, 1)
    assert active.penalty == 0
    assert active.temporary_aspects == ()
    assert heal(active, 7).penalty == -2
    assert heal(active, 7).drug is None


def test_strong_drugs_cancel_five_and_add_the_temporary_aspect():
    health = heal(take_drug(HitosHealth(5, lost=11), "fuerte"), 2)
    assert health.penalty == 0
    assert health.temporary_aspects == ("Bajo el efecto de las drogas",)
    herido = heal(take_drug(HitosHealth(5, lost=6), "fuerte"), 2)
    assert herido.penalty == 0  # drugs never turn a penalty into a bonus


def test_unknown_drug_is_refused():
    with pytest.raises(RuleError, match="unknown drug"):
        take_drug(HitosHealth(5), "cafe")


def test_healing_takes_one_point_per_period_of_the_current_state():
    assert heal(HitosHealth(5, lost=3), DAY).lost == 2
    assert heal(HitosHealth(5, lost=7), WEEK).lost == 6
    assert heal(HitosHealth(5, lost=12), MONTH).lost == 11
    # Herido at lost 5: a week brings it to Sano, then a day per point.
    assert heal(HitosHealth(5, lost=5), WEEK + 2 * DAY).lost == 2


def test_resting_less_than_75_percent_uses_the_next_worse_period():
    assert heal(HitosHealth(5, lost=3), DAY, rest_fraction=0.5).lost == 3
    assert heal(HitosHealth(5, lost=3), WEEK, rest_fraction=0.5).lost == 2
    assert heal(HitosHealth(5, lost=3), DAY, rest_fraction=0.75).lost == 2
    assert heal(HitosHealth(5, lost=7), MONTH, rest_fraction=0.7).lost == 6
    # An active Incapacitado character does not heal; the weekly test applies instead.
    assert heal(HitosHealth(5, lost=12), 12 * MONTH, rest_fraction=0.2).lost == 12
    assert time_to_full(HitosHealth(5, lost=12), rest_fraction=0.2) is None


def test_partial_progress_is_kept_between_calls():
    half = heal(HitosHealth(5, lost=3), 12)
    assert half.lost == 3
    assert half.healing_progress == Fraction(1, 2)
    assert heal(half, 12).lost == 2


def test_time_to_full_for_aguante_5_from_moribundo():
    health = HitosHealth(5, lost=15)
    # L 15..11 heal at a month each (15 is Moribundo, 14..10 Incapacitado: 6 months),
    # L 9..5 at a week, L 4..1 at a day.
    expected = 6 * MONTH + 5 * WEEK + 4 * DAY
    assert time_to_full(health) == expected
    assert heal(health, expected).lost == 0
    assert heal(health, expected - 1).lost == 1


def test_weekly_activity_test_failure_loses_c_or_m_or_m(fixed_dice):
    health = HitosHealth(8, lost=16)
    passed, record = activity_test(health, fixed_dice(2, 9, 10))
    assert record.result == 17
    assert record.outcome == "success"
    assert passed == health
    failed, record = activity_test(health, fixed_dice(2, 6, 8))
    assert record.outcome == "failure"
    assert record.details["loss"] == 6
    assert failed.lost == 22
    positive, _ = activity_test(health, fixed_dice(2, 6, 8), aspect="positive")
    assert positive.lost == 18
    negative, _ = activity_test(health, fixed_dice(2, 6, 8), aspect="negative")
    assert negative.lost == 24
    assert negative.state.name == "Moribundo"


def test_aguante_5_can_never_pass_the_activity_test_when_equal_does_not_succeed(fixed_dice):
    _, record = activity_test(HitosHealth(5, lost=10), fixed_dice(10, 10, 10))
    assert record.result == 15
    assert record.outcome == "failure"
    _, lenient = activity_test(HitosHealth(5, lost=10), fixed_dice(10, 10, 10), equal_succeeds=True)
    assert lenient.outcome == "critical"


def test_weekly_activity_test_is_only_for_incapacitado():
    with pytest.raises(RuleError, match="Incapacitado"):
        activity_test(HitosHealth(5, lost=5))


def test_medical_supervision_difficulty_depends_on_the_patient(fixed_dice):
    assert supervision_spec(HitosHealth(5, lost=1), 5, 3).difficulty == 10
    assert supervision_spec(HitosHealth(5, lost=5), 5, 3).difficulty == 15
    assert supervision_spec(HitosHealth(5, lost=10), 5, 3).difficulty == 20
    patient = HitosHealth(5, lost=7)
    supervised, record = medical_supervision(
        patient, supervision_spec(patient, 5, 3), fixed_dice(4, 8, 9)
    )
    assert record.succeeded
    assert supervised.medical_supervision
    assert "Bajo supervisión médica" in supervised.temporary_aspects
    unsupervised, _ = medical_supervision(
        supervised, supervision_spec(supervised, 5, 3), fixed_dice(1, 2, 9)
    )
    assert not unsupervised.medical_supervision


def test_invalid_health_is_refused():
    with pytest.raises(RuleError, match="Aguante"):
        HitosHealth(0)
    with pytest.raises(RuleError, match="lost Resistencia"):
        HitosHealth(5, lost=16)
    with pytest.raises(RuleError, match="damage"):
        apply_damage(HitosHealth(5), -1)
    with pytest.raises(RuleError, match="rest fraction"):
        heal(HitosHealth(5, lost=2), 5, rest_fraction=1.5)


healths = st.builds(
    lambda aguante, lost_share, progress, temporary, permanent, critical, drug, drug_hours, sup: (
        HitosHealth(
            aguante,
            lost=lost_share % (3 * aguante + 1),
            healing_progress=progress,
            temporary_secuela=temporary,
            permanent_secuelas=permanent,
            critical_secuela=critical,
            drug=drug,
            drug_hours=drug_hours,
            medical_supervision=sup,
        )
    ),
    st.integers(1, 30),
    st.integers(0, 200),
    st.fractions(min_value=0, max_value=Fraction(99, 100)),
    st.booleans(),
    st.integers(0, 5),
    st.sampled_from([None, "scene", "session"]),
    st.sampled_from([None, "suave", "fuerte"]),
    st.fractions(min_value=0, max_value=8),
    st.booleans(),
)


@given(healths)
def test_health_json_round_trip_is_identity(health):
    assert HitosHealth.from_dict(json.loads(json.dumps(health.to_dict()))) == health


@given(healths, st.integers(0, 2000), st.integers(0, 2000), st.sampled_from([1.0, 0.8, 0.5]))
def test_healing_in_pieces_equals_healing_at_once(health, first, second, rest):
    assert heal(heal(health, first, rest), second, rest) == heal(health, first + second, rest)


@given(healths, st.fractions(min_value=0, max_value=200), st.fractions(min_value=0, max_value=200))
def test_healing_in_fractional_pieces_equals_healing_at_once(health, first, second):
    assert heal(heal(health, first), second) == heal(health, first + second)


@given(healths, st.integers(0, 60), st.integers(0, 2**32))
def test_damage_never_heals_and_never_exceeds_three_times_aguante(health, damage, seed):
    damaged, _ = apply_damage(health, damage, random.Random(seed))
    assert health.lost <= damaged.lost <= 3 * health.aguante
    assert damaged.penalty <= 0


@given(healths)
def test_resting_for_time_to_full_heals_completely(health):
    needed = time_to_full(health)
    healed = heal(health, needed)
    assert healed.lost == 0
    assert healed.healing_progress == 0
    if health.lost:
        assert heal(health, needed - Fraction(1, 3600)).lost == 1


@given(healths, st.integers(0, 5000))
def test_healing_never_raises_the_lost_resistencia(health, hours):
    assert heal(health, hours).lost <= health.lost


def test_a_campaign_table_of_healing_periods_replaces_the_defaults():
    periods = period_table({"healing_days_herido": 2})
    assert periods == {"sano": 24, "herido": 48, "incapacitado": 720, "moribundo": 720}
    assert healing_period("herido", 1, periods) == 48
    assert healing_period("sano", 0, periods) == 48
    assert healing_period("herido") == 168
