"""Turn order from initiative (pure engine, no database)."""

import random

from mechanics.rules.initiative import MAX_ROLL_OFFS, Entry, break_ties, order
from mechanics.rules.ndp.combat import PHASES, phase_name
from mechanics.rules.tinieblas.combat import roll_initiative


class Scripted:
    def __init__(self, *values):
        self.values = list(values)

    def randint(self, low, high):
        return self.values.pop(0)


def test_tinieblas_initiative_adds_one_d10_to_destreza_plus_compostura():
    record = roll_initiative(3, 2, Scripted(7))
    assert record.result == 12
    assert record.details["base"] == 5
    assert [d.value for d in record.dice] == [7]
    assert record.kind == "initiative"


def test_order_is_phase_then_total_then_base_then_tiebreak():
    entries = [
        Entry("a", total=10, base=4, phase=3),
        Entry("b", total=10, base=6, phase=3),
        Entry("c", total=3, base=1, phase=2),
        Entry("d", total=12, base=4, phase=3, tiebreak=None),
        Entry("e", total=12, base=4, phase=3, tiebreak=9),
    ]
    assert [e.key for e in order(entries)] == ["c", "e", "d", "b", "a"]


def test_ties_roll_off_until_they_differ_and_keep_earlier_values():
    entries = [
        Entry("a", 10, 4),
        Entry("b", 10, 4, tiebreak=6),
        Entry("c", 10, 4),
        Entry("d", 9, 4),
    ]
    rolls = iter([6, 6, 2, 8])
    values = break_ties(entries, lambda entry: next(rolls))
    # "a" rolls 6 (taken by "b"), then 6 again, then 2; "c" rolls 8; "d" is not tied.
    assert values == {"a": 2, "c": 8}


def test_a_roll_off_that_never_differs_stops():
    entries = [Entry("a", 10, 4), Entry("b", 10, 4)]
    values = break_ties(entries, lambda entry: 5)
    assert values == {"a": 5, "b": 5}
    assert MAX_ROLL_OFFS > 1


def test_random_roll_offs_always_give_a_strict_order():
    rng = random.Random(7)
    entries = [Entry(n, 10, 4) for n in range(6)]
    values = break_ties(entries, lambda entry: rng.randint(1, 10))
    assert len(set(values.values())) == 6


def test_ndp_phases_follow_the_seed():
    assert [number for number, _name in PHASES] == [1, 2, 3, 4]
    assert phase_name(2) == "Tiradores"
