"""Health track of Mundo de Tinieblas: damage, penalties, healing and first aid."""

import contextlib
import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import health as hp
from mechanics.rules.tinieblas.health import HealthTrack

DAY = 24
WEEK = 7 * DAY
MONTH = 30 * DAY


def damage(track, *hits):
    for hit in hits:
        track = hp.apply(track, hit[-1], int(hit[:-1]))
    return track


# --- Worked examples of seed 000 (docs/rules.md#tinieblas-examples) ----------------------


def test_example_5_barman_track():
    barman = damage(HealthTrack(), "2B", "2L", "3L")
    assert barman.marks == "LLLLLBB"
    assert hp.state_name(barman) == "Incapacitado"
    assert hp.unconscious(barman)
    assert not hp.dead(barman)
    # 12 h + 6 h of bashing, then 3 months 1 week 4 days of lethal.
    assert hp.heal_time(barman) == {"months": 3, "weeks": 1, "days": 4, "hours": 18}
    woken = hp.heal(barman, 12)
    assert woken.marks == "LLLLLB"
    assert not hp.unconscious(woken)
    lethal_only = hp.heal(barman, 18)
    assert lethal_only.marks == "LLLLL"
    assert hp.heal_time(lethal_only) == {"months": 3, "weeks": 1, "days": 4, "hours": 0}
    as_new = hp.heal(barman, 18 + 3 * MONTH + WEEK + 4 * DAY)
    assert as_new.marks == ""
    assert hp.heal(barman, 18 + 3 * MONTH + WEEK + 4 * DAY - 1).marks == "L"


def test_example_6_bashing_to_malherido_heals_in_4_hours():
    track = damage(HealthTrack(), "5B")
    assert hp.state_name(track) == "Malherido"
    assert hp.heal_time(track) == {"months": 0, "weeks": 0, "days": 0, "hours": 4}
    after_three = hp.heal(track, 3)
    assert hp.state_name(after_three) == "Herido"
    assert hp.heal(track, 4).marks == ""
    assert hp.heal(after_three, 1).marks == ""


def test_bashing_before_herido_heals_in_minutes_and_nothing_else_does():
    # Seed: bashing before Herido "desaparece en menos de una hora ... unos minutos".
    assert hp.heals_in_minutes(damage(HealthTrack(), "3B"))
    assert hp.heals_in_minutes(damage(HealthTrack(), "1B"))
    assert not hp.heals_in_minutes(damage(HealthTrack(), "4B"))
    assert not hp.heals_in_minutes(damage(HealthTrack(), "1L"))
    assert not hp.heals_in_minutes(HealthTrack())
    # Aggravated that does not heal with time is not minutes away, however light.
    assert not hp.heals_in_minutes(damage(HealthTrack(), "1A"), aggravated_as_lethal=False)
    assert not hp.heals_in_minutes(damage(HealthTrack(), "1A"))


# --- The track examples (docs/rules.md#tinieblas-damage) ----------------------------------


def test_seven_bashing_then_one_more_turns_the_leftmost_into_lethal():
    track = damage(HealthTrack(), "7B")
    assert hp.unconscious(track)
    track = damage(track, "1B")
    assert track.marks == "LBBBBBB"
    assert hp.unconscious(track)
    assert not hp.dead(track)


def test_seven_lethal_then_one_bashing_kills():
    track = damage(HealthTrack(), "7L")
    assert not hp.dead(track)
    assert not hp.unconscious(track)
    assert hp.cannot_act(track)
    track = damage(track, "1B")
    assert hp.dead(track)
    assert track.marks == "LLLLLLL"


def test_three_bashing_then_two_lethal_reads_malherido():
    track = damage(HealthTrack(), "3B", "2L")
    assert track.marks == "LLBBB"
    assert hp.state_name(track) == "Malherido"
    assert hp.render(track) == "LLBBB.."


# --- More damage rules --------------------------------------------------------------------


def test_aggravated_goes_first_and_turns_a_bashing_box_into_aggravated_when_full():
    track = damage(HealthTrack(), "2L", "1A", "2B")
    assert track.marks == "ALLBB"
    full = damage(HealthTrack(), "7B", "1A")
    assert full.marks == "ABBBBBB"


def test_bashing_keeps_converting_until_the_track_is_lethal_then_kills():
    track = damage(HealthTrack(), "7B", "7B")
    assert track.marks == "LLLLLLL"
    assert not hp.dead(track)
    assert hp.dead(damage(track, "1A"))


def test_dead_character_stays_dead_and_does_not_heal():
    corpse = damage(HealthTrack(), "9L")
    assert hp.dead(corpse)
    assert hp.apply(corpse, "B", 3) == corpse
    assert hp.heal(corpse, 10_000) == corpse
    assert hp.heal_time(corpse) is None
    assert hp.cannot_act(corpse)
    with pytest.raises(RuleError, match="dead"):
        hp.first_aid(corpse, 5)


@pytest.mark.parametrize(
    ("levels", "penalty"), [(0, 0), (1, 0), (2, -1), (3, -1), (4, -2), (5, -2), (6, -5), (7, -5)]
)
def test_wound_penalty_of_the_worst_box(levels, penalty):
    track = hp.apply(HealthTrack(), "B", levels)
    assert hp.penalty(track) == penalty
    assert hp.cannot_act(track) is (levels == 7)


def test_incapacitated_pool_penalty_is_cannot_act():
    assert hp.pool_wound_penalty(damage(HealthTrack(), "7L")) == "cannot act"
    assert hp.pool_wound_penalty(damage(HealthTrack(), "4L")) == -2


def test_longer_track_labels_only_its_last_seven_boxes():
    track = damage(HealthTrack(boxes=9), "2B")
    assert hp.state_name(track) is None
    assert hp.penalty(track) == 0
    track = damage(track, "1B")
    assert hp.state_name(track) == "Magullado"
    # The nameless boxes heal like Magullado: a lethal mark there takes a day.
    assert hp.heal_time(damage(HealthTrack(boxes=9), "1L")) == {
        "months": 0,
        "weeks": 0,
        "days": 1,
        "hours": 0,
    }


def test_shorter_track_still_ends_in_incapacitado():
    track = damage(HealthTrack(boxes=6), "1B")
    assert hp.state_name(track) == "Lastimado"
    assert hp.unconscious(damage(track, "5B"))


def test_track_size_setting():
    assert hp.track_size(4, 5) == 7
    assert hp.track_size(4, 5, health_from_stamina=True) == 9


def test_invalid_damage_is_refused():
    with pytest.raises(RuleError):
        hp.apply(HealthTrack(), "X", 1)
    with pytest.raises(RuleError):
        hp.apply(HealthTrack(), "B", -1)


def test_invalid_tracks_are_refused():
    with pytest.raises(RuleError):
        HealthTrack(marks="BL")
    with pytest.raises(RuleError):
        HealthTrack(boxes=3, marks="BBBB")
    with pytest.raises(RuleError):
        HealthTrack(marks="BB", dead=True)
    with pytest.raises(RuleError):
        HealthTrack(marks="LB", healing_progress_hours=5)  # B on Lastimado heals in no time
    with pytest.raises(RuleError):
        HealthTrack.from_dict({"boxes": 7, "marks": "", "colour": "red"})


# --- Healing ------------------------------------------------------------------------------


def test_healing_runs_from_the_rightmost_box_and_keeps_partial_progress():
    track = damage(HealthTrack(), "2L")  # Lastimado L: 3 days, then Magullado L: 1 day
    halfway = hp.heal(track, 2 * DAY)
    assert halfway.marks == "LL"
    assert halfway.healing_progress_hours == 2 * DAY
    assert hp.heal_time(halfway) == {"months": 0, "weeks": 0, "days": 2, "hours": 0}
    assert hp.heal(halfway, DAY).marks == "L"
    assert hp.heal(halfway, 2 * DAY).marks == ""


def test_partial_progress_on_a_long_box_shows_days_and_hours():
    track = hp.heal(damage(HealthTrack(), "4L"), 100)  # Herido L: one month
    # 620 h left on Herido (25 days 20 h) + 11 days on the three boxes before it: 36 days,
    # a month of 30 and 6 days (docs/rules.md#tinieblas-heal-time-display).
    assert hp.heal_time(track) == {"months": 1, "weeks": 0, "days": 6, "hours": 20}
    assert hp.heal_hours(track) == MONTH - 100 + WEEK + 3 * DAY + DAY


def test_time_to_heal_reads_five_weeks_and_more_as_a_month():
    """Two days healed on the barman's lethal boxes (seed 000, example 5): 2 days fewer
    than 3 months, 1 week and 4 days, not "2 months, 5 weeks and 4 days"."""
    barman = damage(HealthTrack(), "5L")
    assert hp.heal_time(barman) == {"months": 3, "weeks": 1, "days": 4, "hours": 0}
    assert hp.heal_time(hp.heal(barman, 2 * DAY)) == {
        "months": 3,
        "weeks": 1,
        "days": 2,
        "hours": 0,
    }


def test_aggravated_heals_as_lethal_unless_the_setting_is_off():
    track = damage(HealthTrack(), "1A", "1B")
    assert hp.heal(track, DAY).marks == ""
    stuck = hp.heal(track, 10 * MONTH, aggravated_as_lethal=False)
    assert stuck.marks == "A"
    assert hp.heal_time(track, aggravated_as_lethal=False) == {
        "months": 0,
        "weeks": 0,
        "days": 0,
        "hours": 0,
    }


def test_new_damage_restarts_the_healing_progress():
    track = hp.heal(damage(HealthTrack(), "3L"), 2 * DAY)
    assert track.healing_progress_hours == 2 * DAY
    assert hp.apply(track, "B", 1).healing_progress_hours == 0


def test_negative_hours_are_refused():
    with pytest.raises(RuleError):
        hp.heal(HealthTrack(), -1)


# --- First aid ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "needed", "modifier", "after"),
    [(3, 3, 0, "Lastimado"), (4, 4, -1, "Lesionado"), (5, 5, -1, "Herido")],
)
def test_first_aid_table(levels, needed, modifier, after):
    track = hp.apply(HealthTrack(), "L", levels)
    assert hp.first_aid_requirement(track) == (needed, modifier)
    assert hp.first_aid_pool_modifier(track) == modifier
    treated = hp.first_aid(track, needed)
    assert hp.state_name(treated) == after
    assert treated.first_aid_given
    with pytest.raises(RuleError, match="already given"):
        hp.first_aid(treated, 5)


def test_first_aid_failure_locks_until_fully_healed():
    track = damage(HealthTrack(), "4L")
    failed = hp.first_aid(track, 3)
    assert failed.marks == track.marks
    assert failed.first_aid_locked
    worse = damage(failed, "1L")
    with pytest.raises(RuleError, match="fully healed"):
        hp.first_aid(worse, 5)
    healed = hp.heal(worse, hp.heal_hours(worse))
    assert healed == HealthTrack()


def test_first_aid_dramatic_failure_adds_a_lethal_level_and_locks():
    track = damage(HealthTrack(), "3L")
    botched = hp.first_aid(track, 0, dramatic_failure=True)
    assert botched.marks == "LLLL"
    assert botched.first_aid_locked


def test_first_aid_only_treats_lethal_damage_between_lesionado_and_malherido():
    with pytest.raises(RuleError, match="lethal"):
        hp.first_aid_requirement(damage(HealthTrack(), "4B"))
    with pytest.raises(RuleError, match="Lesionado to Malherido"):
        hp.first_aid_requirement(damage(HealthTrack(), "2L"))
    with pytest.raises(RuleError, match="Lesionado to Malherido"):
        hp.first_aid_requirement(damage(HealthTrack(), "6L"))


def test_first_aid_on_lethal_under_bashing_removes_the_lethal_mark():
    track = damage(HealthTrack(), "2L", "2B")
    assert hp.first_aid(track, 4).marks == "LBB"


def test_new_wounds_allow_first_aid_again_after_a_success():
    treated = hp.first_aid(damage(HealthTrack(), "3L"), 3)
    assert hp.first_aid_requirement(damage(treated, "2L")) == (4, -1)


# --- Properties ---------------------------------------------------------------------------

hits = st.lists(st.tuples(st.sampled_from(["A", "L", "B"]), st.integers(0, 9)), max_size=6)


@st.composite
def tracks(draw):
    track = HealthTrack(boxes=draw(st.integers(1, 12)))
    for kind, levels in draw(hits):
        track = hp.apply(track, kind, levels)
    if draw(st.booleans()):
        track = hp.heal(track, draw(st.integers(0, 3 * MONTH)))
    if draw(st.booleans()):
        successes = draw(st.integers(0, 6))
        with contextlib.suppress(RuleError):  # not every track admits first aid
            track = hp.first_aid(track, successes)
    return track


@given(tracks())
def test_track_stays_sorted_and_within_its_boxes(track):
    marks = track.marks
    assert marks == "".join(sorted(marks, key="ALB".index))
    assert len(marks) <= track.boxes
    assert not track.dead or len(marks) == track.boxes


@given(tracks(), st.sampled_from(["A", "L", "B"]), st.integers(0, 20))
def test_damage_never_heals_and_keeps_the_track_valid(track, kind, levels):
    after = hp.apply(track, kind, levels)
    assert len(after.marks) >= len(track.marks)
    # Lethal and aggravated marks never turn back into bashing.
    assert len(after.marks.replace("B", "")) >= len(track.marks.replace("B", ""))
    assert after.marks.count("A") >= track.marks.count("A")
    assert len(after.marks) <= after.boxes
    assert hp.dead(after) >= hp.dead(track)


@given(tracks())
def test_json_round_trip_is_identity(track):
    assert HealthTrack.from_dict(json.loads(json.dumps(track.to_dict()))) == track


@given(tracks(), st.integers(0, 4 * MONTH), st.integers(0, 4 * MONTH), st.booleans())
def test_healing_in_pieces_equals_healing_at_once(track, first, second, aggravated_as_lethal):
    in_pieces = hp.heal(
        hp.heal(track, first, aggravated_as_lethal=aggravated_as_lethal),
        second,
        aggravated_as_lethal=aggravated_as_lethal,
    )
    assert in_pieces == hp.heal(track, first + second, aggravated_as_lethal=aggravated_as_lethal)


@given(tracks())
def test_heal_time_is_exactly_the_time_to_heal(track):
    assume(not track.dead)
    total = hp.heal_hours(track)
    time = hp.heal_time(track)
    assert (time["months"] * 30 + time["weeks"] * 7 + time["days"]) * 24 + time["hours"] == total
    assert time["days"] < 7
    assert hp.heal(track, total).marks == ""
    if total:
        assert hp.heal(track, total - 1).marks != ""


def test_a_campaign_table_of_wound_penalties_replaces_the_seeds():
    table = hp.penalty_table({"wound_penalty_herido": -1, "wound_penalty_tullido": -4})
    assert hp.penalty(damage(HealthTrack(), "4L"), table) == -1
    assert hp.penalty(damage(HealthTrack(), "5L"), table) == -2
    assert hp.penalty(damage(HealthTrack(), "7L"), table) == -4
    assert hp.penalty(damage(HealthTrack(), "4L")) == -2
