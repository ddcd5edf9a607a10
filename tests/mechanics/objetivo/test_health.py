import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.health import (
    ObjetivoHealth,
    apply_damage,
    heal,
    hours_to_heal,
    resize,
    rest,
    status,
)


@st.composite
def healths(draw):
    max_pv = draw(st.integers(1, 200))
    pv = draw(st.integers(-20, max_pv))
    rest_hours = draw(st.integers(0, 23)) if pv < max_pv else 0
    return ObjetivoHealth(max_pv, pv, rest_hours)


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
    assert hours_to_heal(dead) is None


def test_rest_heals_one_pv_per_day_up_to_the_maximum():
    health = ObjetivoHealth(16, -3)
    assert rest(health, 4 * 24) == ObjetivoHealth(16, 1)
    assert rest(health, 100 * 24) == ObjetivoHealth(16, 16)
    assert hours_to_heal(health) == 19 * 24
    assert hours_to_heal(health, pv_per_day=2) == 10 * 24


def test_resize_keeps_the_damage_taken():
    assert resize(ObjetivoHealth(16, 10), 20) == ObjetivoHealth(20, 14)


@pytest.mark.parametrize(
    "data",
    [
        {"max_pv": 0, "pv": 0},
        {"max_pv": 10, "pv": 11},
        {"max_pv": 10, "pv": -21},
        {"pv": 3},
        {"max_pv": 10, "pv": 5, "rest_hours": 24},
        {"max_pv": 10, "pv": 5, "rest_hours": -1},
        {"max_pv": 10, "pv": 10, "rest_hours": 8},
    ],
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


def test_three_8_hour_rests_heal_like_one_day():
    wounded = ObjetivoHealth(10, 4)
    in_pieces = rest(rest(rest(wounded, 8), 8), 8)
    assert in_pieces == rest(wounded, 24) == ObjetivoHealth(10, 5)
    # The pieces short of a day are kept, through JSON as the sheet stores them.
    two_pieces = rest(rest(wounded, 8), 8)
    assert two_pieces == ObjetivoHealth(10, 4, rest_hours=16)
    stored = json.loads(json.dumps(two_pieces.to_dict()))
    assert stored == {"max_pv": 10, "pv": 4, "rest_hours": 16}
    assert rest(ObjetivoHealth.from_dict(stored), 8) == ObjetivoHealth(10, 5)
    assert hours_to_heal(two_pieces) == 6 * 24 - 16


def test_a_new_wound_restarts_the_rest_and_an_unhurt_character_keeps_none():
    resting = ObjetivoHealth(10, 4, rest_hours=20)
    assert apply_damage(resting, 2) == ObjetivoHealth(10, 2)
    assert rest(ObjetivoHealth(10, 9, rest_hours=20), 10) == ObjetivoHealth(10, 10)
    assert rest(ObjetivoHealth(10, 10), 10) == ObjetivoHealth(10, 10)
    assert heal(resting, 6) == ObjetivoHealth(10, 10)


@settings(max_examples=300, deadline=None)
@given(
    health=healths(),
    pieces=st.lists(st.integers(0, 100), max_size=6),
    pv_per_day=st.integers(1, 3),
)
def test_rest_in_pieces_heals_like_rest_in_one_go(health, pieces, pv_per_day):
    assume(not health.dead)
    in_pieces = health
    for hours in pieces:
        in_pieces = rest(in_pieces, hours, pv_per_day)
    assert in_pieces == rest(health, sum(pieces), pv_per_day)
