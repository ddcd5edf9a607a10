import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas.advancement import (
    SceneAward,
    award_breakdown,
    award_total,
    xp_cost,
    xp_cost_to,
)
from mechanics.rules.tinieblas.catalogue import MERITS


def test_example_7_xp_costs():
    assert xp_cost("attribute", 2) == 10
    assert xp_cost("skill", 2) == 6
    assert xp_cost("skill", 0) == 3
    assert xp_cost("specialty", 0) == 3
    assert xp_cost("merit", 1, merit_key="recursos") == 2
    assert xp_cost("morality", 7) == 24
    assert xp_cost("willpower", 5) == 10


def test_attribute_cost_is_current_times_five():
    assert [xp_cost("attribute", current) for current in range(1, 5)] == [5, 10, 15, 20]


def test_skill_cost_is_current_times_three_and_a_new_skill_costs_three():
    assert [xp_cost("skill", current) for current in range(0, 5)] == [3, 3, 6, 9, 12]


def test_a_new_merit_first_dot_costs_two_then_current_times_two():
    assert [xp_cost("merit", current, merit_key="recursos") for current in range(0, 5)] == [
        2,
        2,
        4,
        6,
        8,
    ]


def test_custom_merits_cost_like_a_one_to_five_merit():
    assert [xp_cost("merit", current) for current in range(0, 5)] == [2, 2, 4, 6, 8]


def test_a_merit_that_skips_ratings_pays_every_dot_in_between():
    # Apariencia Llamativa: 2 or 4 dots.
    assert xp_cost("merit", 0, merit_key="apariencia_llamativa") == 2 + 2
    assert xp_cost("merit", 2, merit_key="apariencia_llamativa") == 4 + 6


def test_a_merit_with_a_single_rating_above_one_pays_every_dot():
    assert xp_cost("merit", 0, merit_key="sentido_comun") == 2 + 2 + 4 + 6


def test_a_merit_cannot_be_raised_from_a_rating_it_cannot_have():
    with pytest.raises(RuleError, match="cannot have 3 dots"):
        xp_cost("merit", 3, merit_key="apariencia_llamativa")


def test_a_merit_at_its_top_rating_cannot_be_raised():
    with pytest.raises(RuleError, match="already at its maximum"):
        xp_cost("merit", 4, merit_key="apariencia_llamativa")
    with pytest.raises(RuleError, match="already at its maximum"):
        xp_cost("merit", 5)


@pytest.mark.parametrize("merit_key", ["ambidiestro", "gigante"])
def test_creation_only_merits_cannot_be_bought_with_xp(merit_key):
    with pytest.raises(RuleError, match="only be taken at character creation"):
        xp_cost("merit", 0, merit_key=merit_key)


def test_an_unknown_merit_key_is_refused():
    with pytest.raises(RuleError, match="Unknown merit"):
        xp_cost("merit", 0, merit_key="volar")


def test_moralidad_costs_the_target_times_three():
    assert xp_cost("morality", 0) == 3
    assert xp_cost("morality", 9) == 30


def test_willpower_costs_current_times_two():
    assert xp_cost("willpower", 1) == 2
    assert xp_cost("willpower", 9) == 18


@pytest.mark.parametrize(
    ("trait", "current"),
    [
        ("attribute", 5),
        ("attribute", 0),
        ("skill", 5),
        ("skill", -1),
        ("morality", 10),
        ("morality", -1),
        ("willpower", 10),
        ("willpower", 0),
        ("specialty", -1),
        ("merit", -1),
    ],
)
def test_ratings_that_cannot_be_raised_are_refused(trait, current):
    with pytest.raises(RuleError):
        xp_cost(trait, current)


def test_an_unknown_kind_of_purchase_is_refused():
    with pytest.raises(RuleError, match="Unknown kind of purchase"):
        xp_cost("virtue", 1)


def test_a_rating_must_be_a_whole_number():
    with pytest.raises(RuleError, match="whole number"):
        xp_cost("attribute", 2.0)
    with pytest.raises(RuleError, match="whole number"):
        xp_cost("attribute", True)


def test_cost_to_a_target_sums_each_purchase():
    assert xp_cost_to("attribute", 2, 4) == 10 + 15
    assert xp_cost_to("skill", 0, 3) == 3 + 3 + 6
    assert xp_cost_to("merit", 0, 4, merit_key="apariencia_llamativa") == 4 + 10
    with pytest.raises(RuleError, match="not an allowed rating"):
        xp_cost_to("merit", 0, 3, merit_key="apariencia_llamativa")
    with pytest.raises(RuleError):
        xp_cost_to("skill", 3, 3)
    with pytest.raises(RuleError):
        xp_cost_to("specialty", 0, 1)


@given(st.sampled_from([m for m in MERITS if not m.creation_only]), st.data())
def test_buying_a_merit_rating_costs_the_same_by_any_route(definition, data):
    target = data.draw(st.sampled_from(definition.ratings))
    # The cost of reaching a rating depends only on that rating: 2 + n(n-1).
    assert xp_cost_to("merit", 0, target, merit_key=definition.key) == 2 + target * (target - 1)


# Per-scene award --------------------------------------------------------------------


def test_a_scene_award_adds_one_for_being_in_the_universe():
    award = SceneAward(interpretacion=3, ideas=2, diario=1, constancia=1, sobornos=2)
    assert award_total(award) == 3 + 2 + 1 + 1 + 1 + 2


def test_the_smallest_and_largest_scene_awards():
    assert award_total(SceneAward(interpretacion=1, ideas=1)) == 3
    assert (
        award_total(SceneAward(interpretacion=4, ideas=4, diario=4, constancia=1, sobornos=5)) == 19
    )


def test_the_breakdown_shows_the_seeds_caption_for_each_line():
    award = SceneAward(interpretacion=3, ideas=4, diario=2, constancia=0, sobornos=1)
    rows = award_breakdown(award)
    assert [key for key, _, _ in rows] == [
        "interpretacion",
        "ideas",
        "diario",
        "universo",
        "constancia",
        "sobornos",
    ]
    assert rows[0][1].startswith("Chupi.")
    assert rows[0][2] == 3
    assert rows[1] == ("ideas", "En serio, ¿para qué necesitas Máster?", 4)
    assert rows[3] == ("universo", "1 PX siempre, por estar en el universo.", 1)
    assert rows[4] == ("constancia", "1 PX Constancia (Consistencia).", 0)
    assert rows[5] == ("sobornos", "1-5 PX Sobornos al máster.", 1)


@pytest.mark.parametrize(
    "values",
    [
        {"interpretacion": 0, "ideas": 2},
        {"interpretacion": 5, "ideas": 2},
        {"interpretacion": 2, "ideas": 0},
        {"interpretacion": 2, "ideas": 5},
        {"interpretacion": 2, "ideas": 2, "diario": -1},
        {"interpretacion": 2, "ideas": 2, "diario": 5},
        {"interpretacion": 2, "ideas": 2, "constancia": 2},
        {"interpretacion": 2, "ideas": 2, "sobornos": 6},
        {"interpretacion": 2, "ideas": 2, "sobornos": -1},
        {"interpretacion": "2", "ideas": 2},
    ],
)
def test_a_scene_award_out_of_range_is_refused(values):
    with pytest.raises(RuleError):
        SceneAward(**values)


def test_constancia_accepts_a_checkbox_value():
    assert SceneAward(interpretacion=2, ideas=2, constancia=True).constancia == 1


awards = st.builds(
    SceneAward,
    interpretacion=st.integers(1, 4),
    ideas=st.integers(1, 4),
    diario=st.integers(0, 4),
    constancia=st.integers(0, 1),
    sobornos=st.integers(0, 5),
)


@given(awards)
def test_the_total_is_the_sum_of_the_breakdown(award):
    assert award_total(award) == sum(points for _, _, points in award_breakdown(award))


@given(awards)
def test_a_scene_award_json_round_trip_is_the_identity(award):
    assert SceneAward.from_dict(award.to_dict()) == award
