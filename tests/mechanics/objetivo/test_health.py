import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.health import (
    ObjetivoHealth,
    apply_damage,
    days_to_heal,
    heal,
    resize,
    rest,
    status,
)


@st.composite
def healths(draw):
    max_pv = draw(st.integers(1, 200))
    return ObjetivoHealth(max_pv, draw(st.integers(-20, max_pv)))


def test_pv_come_from_resistencia():
    health = ObjetivoHealth.for_resistencia(8)
    assert health == ObjetivoHealth(16, 16)
    assert status(health).key == "healthy"


@pytest.mark.parametrize(
    ("pv", "key", "name"),
    [
        (11, "healthy", "Sano"),
        (10, "incapacitated", "Incapacitado"),
        (1, "incapacitated", "Incapacitado"),
        (0, "unconscious", "Inconsciente"),
        (-19, "unconscious", "Inconsciente"),
        (-20, "dead", "Muerto"),
    ],
)
def test_states_follow_the_pv_thresholds(pv, key, name):
    state = status(ObjetivoHealth(20, pv))
    assert (state.key, state.name) == (key, name)
    assert state.incapacitated == (pv <= 10)
    assert state.level_shift == (-1 if pv <= 10 else 0)
    assert state.can_act == (pv > 0)


def test_incapacitated_threshold_is_a_setting():
    assert status(ObjetivoHealth(20, 10), threshold=5).key == "healthy"
    assert status(ObjetivoHealth(20, 12), threshold=12).key == "incapacitated"


def test_damage_stops_at_minus_twenty_and_the_dead_do_not_heal():
    dead = apply_damage(ObjetivoHealth(16, 5), 40)
    assert dead.pv == -20
    assert status(dead).dead
    with pytest.raises(RuleError, match="dead"):
        heal(dead, 3)
    assert days_to_heal(dead) is None


def test_rest_heals_one_pv_per_day_up_to_the_maximum():
    health = ObjetivoHealth(16, -3)
    assert rest(health, 4) == ObjetivoHealth(16, 1)
    assert rest(health, 100) == ObjetivoHealth(16, 16)
    assert days_to_heal(health) == 19
    assert days_to_heal(health, pv_per_day=2) == 10


def test_resize_keeps_the_damage_taken():
    assert resize(ObjetivoHealth(16, 10), 20) == ObjetivoHealth(20, 14)


@pytest.mark.parametrize(
    "data",
    [{"max_pv": 0, "pv": 0}, {"max_pv": 10, "pv": 11}, {"max_pv": 10, "pv": -21}, {"pv": 3}],
)
def test_invalid_health_data_is_refused(data):
    with pytest.raises(RuleError):
        ObjetivoHealth.from_dict(data)


def test_negative_damage_is_refused():
    with pytest.raises(RuleError):
        apply_damage(ObjetivoHealth(10, 10), -1)


@settings(max_examples=200, deadline=None)
@given(health=healths())
def test_health_json_round_trip_is_identity(health):
    assert ObjetivoHealth.from_dict(json.loads(json.dumps(health.to_dict()))) == health


@settings(max_examples=200, deadline=None)
@given(health=healths(), damage=st.integers(0, 100), amount=st.integers(0, 100))
def test_damage_and_healing_stay_within_bounds(health, damage, amount):
    hurt = apply_damage(health, damage)
    assert -20 <= hurt.pv <= health.pv
    assert hurt.max_pv == health.max_pv
    if not hurt.dead:
        healed = heal(hurt, amount)
        assert hurt.pv <= healed.pv <= health.max_pv
        assert heal(hurt, hurt.damage_taken) == ObjetivoHealth(health.max_pv, health.max_pv)


@pytest.mark.parametrize("resistencia", [1, 3, 5])
def test_an_unhurt_character_is_never_incapacitado_whatever_its_resistencia(resistencia):
    unhurt = ObjetivoHealth.for_resistencia(resistencia)
    assert unhurt.pv <= 10
    state = status(unhurt)
    assert (state.key, state.incapacitated, state.level_shift) == ("healthy", False, 0)
    hurt = status(apply_damage(unhurt, 1))
    assert (hurt.key, hurt.incapacitated, hurt.level_shift) == ("incapacitated", True, -1)


@settings(max_examples=300, deadline=None)
@given(health=healths(), threshold=st.integers(-20, 200))
def test_incapacitado_needs_a_wound_and_pv_at_or_below_the_threshold(health, threshold):
    state = status(health, threshold)
    assert state.incapacitated == (health.damage_taken > 0 and health.pv <= threshold)
    assert not status(ObjetivoHealth(health.max_pv, health.max_pv), threshold).incapacitated
