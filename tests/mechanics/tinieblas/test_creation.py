from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanics.rules.tinieblas.catalogue import ATTRIBUTES, MERITS, SKILLS, VICES, VIRTUES
from mechanics.rules.tinieblas.creation import (
    CreationDraft,
    attribute_points,
    best_priorities,
    check_creation,
    points_left,
    skill_points,
)

# Mental primary (5), Physical secondary (4), Social tertiary (3) for attributes and
# for skills (11 / 7 / 4).
VALID = CreationDraft(
    attributes={
        "inteligencia": 3,
        "astucia": 3,
        "aplomo": 2,
        "fuerza": 2,
        "destreza": 3,
        "resistencia": 2,
        "presencia": 2,
        "manipulacion": 2,
        "compostura": 2,
    },
    skills={
        "academicismo": 3,
        "investigacion": 3,
        "informatica": 2,
        "ocultismo": 2,
        "medicina": 1,
        "atletismo": 2,
        "pelea": 2,
        "conducir": 1,
        "sigilo": 2,
        "empatia": 2,
        "persuasion": 2,
    },
    specialties=(
        ("ocultismo", "Leyendas urbanas"),
        ("investigacion", "Escenas del crimen"),
        ("investigacion", "Archivos"),
    ),
    merits=(("recursos", 2), ("contactos", 2), ("idioma", 1), ("sentido_del_peligro", 2)),
    virtue="prudencia",
    vice="orgullo",
    willpower=4,
)


def with_attributes(**changes):
    return replace(VALID, attributes={**VALID.attributes, **changes})


def with_skills(**changes):
    return replace(VALID, skills={**VALID.skills, **changes})


def messages(draft):
    return check_creation(draft).messages


def test_a_valid_starting_character_passes():
    report = check_creation(VALID)
    assert report.ok, report.messages
    assert report.attribute_priorities == ("mental", "physical", "social")
    assert report.skill_priorities == ("mental", "physical", "social")
    assert points_left(VALID) == {
        "attributes": {"mental": 0, "physical": 0, "social": 0},
        "skills": {"mental": 0, "physical": 0, "social": 0},
        "merits": 0,
        "specialties": 0,
    }


def test_the_report_shows_spent_budget_and_left_per_category():
    report = check_creation(with_attributes(inteligencia=4))
    mental = report.attributes[0]
    assert (mental.category, mental.priority, mental.spent, mental.budget, mental.left) == (
        "mental",
        "primary",
        6,
        5,
        -1,
    )
    assert report.to_dict()["attributes"][0]["left"] == -1


def test_overspent_attributes_give_one_message_for_that_category():
    assert messages(with_attributes(inteligencia=4)) == ["Mental attributes: 6 points spent of 5"]


def test_underspent_skills_give_one_message_for_that_category():
    assert messages(with_skills(sigilo=1)) == ["Physical skills: 6 points spent of 7"]


def test_the_fifth_dot_costs_two_points():
    assert [attribute_points(rating) for rating in range(1, 6)] == [0, 1, 2, 3, 5]
    assert [skill_points(rating) for rating in range(0, 6)] == [0, 1, 2, 3, 4, 6]


def test_an_attribute_at_five_fills_a_primary_budget_with_four_dots():
    draft = replace(with_attributes(inteligencia=5, astucia=1, aplomo=1), willpower=3)
    assert check_creation(draft).ok
    draft = replace(with_attributes(inteligencia=5, astucia=2, aplomo=1), willpower=3)
    assert messages(draft) == ["Mental attributes: 6 points spent of 5"]


def test_a_skill_at_five_costs_six_points():
    draft = with_skills(academicismo=5, investigacion=3, informatica=2, ocultismo=1, medicina=0)
    assert points_left(draft)["skills"]["mental"] == 11 - 6 - 3 - 2 - 1
    assert not check_creation(draft).ok


def test_specialty_on_a_skill_with_no_dots():
    draft = replace(
        VALID,
        specialties=(("armamento", "Esgrima"), *VALID.specialties[1:]),
    )
    assert messages(draft) == ["Specialty “Esgrima” is on a skill with no dots"]


def test_specialties_must_be_exactly_three():
    assert messages(replace(VALID, specialties=VALID.specialties[:2])) == [
        "Choose exactly 3 specialties (2 chosen)"
    ]
    four = (*VALID.specialties, ("pelea", "Puñetazos"))
    assert messages(replace(VALID, specialties=four)) == ["Choose exactly 3 specialties (4 chosen)"]


def test_several_specialties_may_sit_on_one_skill():
    three = (("pelea", "Boxeo"), ("pelea", "Cabezazos"), ("pelea", "Bloqueos"))
    assert check_creation(replace(VALID, specialties=three)).ok


def test_a_specialty_needs_a_name_a_known_skill_and_no_twin():
    draft = replace(
        VALID,
        specialties=(("pelea", " "), ("magia", "Conjuros"), ("pelea", "Boxeo")),
    )
    assert messages(draft) == [
        "A specialty needs a name",
        "Specialty “Conjuros” is on an unknown skill",
    ]
    twins = (("pelea", "Boxeo"), ("pelea", "boxeo"), ("pelea", "Judo"))
    assert messages(replace(VALID, specialties=twins)) == ["Specialty “boxeo” is listed twice"]


def test_merits_must_add_up_to_seven_dots():
    draft = replace(VALID, merits=(("recursos", 2), ("contactos", 2)))
    assert messages(draft) == ["Merits: 4 dots spent of 7"]


def test_a_merit_rating_must_be_one_it_allows():
    draft = replace(VALID, merits=(("apariencia_llamativa", 3), ("recursos", 4)))
    assert messages(draft) == ["Apariencia Llamativa cannot have 3 dots (allowed: 2, 4)"]


def test_custom_merits_go_from_one_to_five():
    ok = replace(VALID, merits=(("Amigo en la comisaría", 3), ("recursos", 4)))
    assert check_creation(ok).ok
    draft = replace(VALID, merits=(("Amigo en la comisaría", 6), ("recursos", 1)))
    assert messages(draft) == ["Amigo en la comisaría cannot have 6 dots (allowed: 1–5)"]


def test_merits_may_be_named_instead_of_keyed():
    draft = replace(VALID, merits=(("Recursos", 3), ("Gigante", 4)))
    assert check_creation(draft).ok


def test_creation_only_merits_are_allowed_at_creation():
    draft = replace(VALID, merits=(("ambidiestro", 3), ("gigante", 4)))
    assert check_creation(draft).ok


def test_a_merit_that_is_not_repeatable_is_refused_twice():
    draft = replace(VALID, merits=(("recursos", 3), ("recursos", 3), ("idioma", 1)))
    assert messages(draft) == ["Recursos is taken more than once"]
    languages = replace(VALID, merits=(("recursos", 5), ("idioma", 1), ("idioma", 1)))
    assert check_creation(languages).ok


def test_a_merit_needs_a_name():
    draft = replace(VALID, merits=(("", 2), ("recursos", 5)))
    assert messages(draft) == ["A merit needs a name"]


def test_virtue_and_vice_are_required():
    assert messages(replace(VALID, virtue=None)) == ["Choose a Virtue"]
    assert messages(replace(VALID, vice="")) == ["Choose a Vice"]


def test_virtue_and_vice_must_exist():
    assert messages(replace(VALID, virtue="avaricia")) == ["Unknown Virtue “avaricia”"]
    assert messages(replace(VALID, vice="Templanza")) == ["Unknown Vice “Templanza”"]
    assert check_creation(replace(VALID, virtue="Prudencia", vice="Orgullo")).ok


def test_willpower_must_be_aplomo_plus_compostura():
    assert messages(replace(VALID, willpower=5)) == [
        "Willpower must equal Aplomo + Compostura (4), not 5"
    ]
    assert check_creation(replace(VALID, willpower=None)).ok


def test_attribute_ratings_must_be_within_one_and_five():
    draft = with_attributes(fuerza=0, destreza=4)
    assert messages(draft) == ["Fuerza must be between 1 and 5"]


def test_skill_ratings_must_be_within_zero_and_five():
    draft = with_skills(pelea=6)
    assert "Pelea must be between 0 and 5" in messages(draft)


def test_unknown_traits_are_reported():
    assert messages(with_attributes(suerte=2)) == ["Unknown attribute “suerte”"]
    assert messages(with_skills(magia=0)) == ["Unknown skill “magia”"]


def test_auto_priority_picks_the_assignment_that_fits():
    # Physical 5, Social 4, Mental 3 for attributes; Social 11, Mental 7, Physical 4.
    draft = replace(
        VALID,
        attributes={
            "inteligencia": 2,
            "astucia": 2,
            "aplomo": 2,
            "fuerza": 3,
            "destreza": 3,
            "resistencia": 2,
            "presencia": 2,
            "manipulacion": 3,
            "compostura": 2,
        },
        skills={
            "ocultismo": 3,
            "investigacion": 4,
            "pelea": 2,
            "sigilo": 2,
            "empatia": 3,
            "persuasion": 3,
            "subterfugio": 3,
            "callejeo": 2,
        },
        specialties=(("ocultismo", "Vudú"), ("empatia", "Mentiras"), ("pelea", "Boxeo")),
    )
    report = check_creation(draft)
    assert report.ok, report.messages
    assert report.attribute_priorities == ("physical", "social", "mental")
    assert report.skill_priorities == ("social", "mental", "physical")
    assert report.attribute_priorities_auto
    assert report.skill_priorities_auto


def test_explicit_priorities_are_used_and_can_be_broken():
    draft = replace(VALID, attribute_priorities=("social", "physical", "mental"))
    report = check_creation(draft)
    assert report.attribute_priorities == ("social", "physical", "mental")
    assert not report.attribute_priorities_auto
    assert report.messages == [
        "Mental attributes: 5 points spent of 3",
        "Social attributes: 3 points spent of 5",
    ]


def test_invalid_explicit_priorities_fall_back_to_auto_with_a_message():
    draft = replace(VALID, skill_priorities=("mental", "mental", "social"))
    report = check_creation(draft)
    assert report.skill_priorities == ("mental", "physical", "social")
    assert report.skill_priorities_auto
    assert report.messages == ["Skill priorities must list Mental, Physical and Social once each"]


def test_auto_priority_prefers_fewest_broken_budgets_then_least_overspend():
    assert best_priorities({"mental": 6, "physical": 4, "social": 3}, (5, 4, 3)) == (
        "mental",
        "physical",
        "social",
    )
    assert best_priorities({"mental": 3, "physical": 0, "social": 9}, (11, 7, 4)) == (
        "social",
        "mental",
        "physical",
    )


def test_on_a_half_filled_form_the_fullest_category_is_primary():
    draft = CreationDraft(skills={"pelea": 2, "sigilo": 1, "empatia": 1})
    report = check_creation(draft)
    assert report.skill_priorities[0] == "physical"
    assert points_left(draft)["skills"] == {"mental": 4, "physical": 8, "social": 6}


def test_an_empty_draft_has_every_budget_left():
    assert points_left(CreationDraft()) == {
        "attributes": {"mental": 5, "physical": 4, "social": 3},
        "skills": {"mental": 11, "physical": 7, "social": 4},
        "merits": 7,
        "specialties": 3,
    }


def test_problems_have_keys_for_form_fields_and_translate():
    report = check_creation(replace(VALID, virtue=None, willpower=9))
    assert [problem.key for problem in report.problems] == ["virtue", "willpower"]
    spanish = {
        "Willpower must equal Aplomo + Compostura (%(expected)s), not %(willpower)s": (
            "La Voluntad debe ser Aplomo + Compostura (%(expected)s), no %(willpower)s"
        )
    }
    text = report.problems[1].translated(lambda msgid: spanish.get(msgid, msgid))
    assert text == "La Voluntad debe ser Aplomo + Compostura (4), no 9"
    assert report.problems[0].translated(lambda msgid: msgid) == "Choose a Virtue"


def test_a_draft_is_frozen_and_hashable():
    assert hash(VALID) == hash(replace(VALID))
    assert replace(VALID, attributes=dict(VALID.attributes)) == VALID
    with pytest.raises(TypeError):
        VALID.attributes["fuerza"] = 5


keys = st.one_of(
    st.sampled_from([item.key for item in ATTRIBUTES + SKILLS]),
    st.text(max_size=6),
)
ratings = st.integers(-3, 8)
drafts = st.builds(
    CreationDraft,
    attributes=st.dictionaries(keys, ratings, max_size=12),
    skills=st.dictionaries(keys, ratings, max_size=26),
    specialties=st.lists(
        st.tuples(
            st.one_of(st.sampled_from([s.key for s in SKILLS]), st.text(max_size=4)),
            st.text(max_size=8),
        ),
        max_size=5,
    ).map(tuple),
    merits=st.lists(
        st.tuples(
            st.one_of(st.sampled_from([m.key for m in MERITS]), st.text(max_size=8)),
            ratings,
        ),
        max_size=6,
    ).map(tuple),
    virtue=st.one_of(st.none(), st.sampled_from([v.key for v in VIRTUES]), st.text(max_size=5)),
    vice=st.one_of(st.none(), st.sampled_from([v.key for v in VICES]), st.text(max_size=5)),
    attribute_priorities=st.one_of(
        st.none(),
        st.permutations(["mental", "physical", "social"]).map(tuple),
        st.lists(st.text(max_size=3), max_size=4).map(tuple),
    ),
    skill_priorities=st.one_of(
        st.none(), st.permutations(["mental", "physical", "social"]).map(tuple)
    ),
    willpower=st.one_of(st.none(), st.integers(-2, 12)),
)


@settings(max_examples=300)
@given(drafts)
def test_points_left_never_crashes_on_random_partial_drafts(draft):
    left = points_left(draft)
    assert set(left) == {"attributes", "skills", "merits", "specialties"}
    report = check_creation(draft)
    assert report.left() == left
    for item in report.attributes + report.skills:
        assert item.spent >= 0
    assert report.ok == (not report.problems)
    for problem in report.problems:
        assert problem.message


@given(
    st.sampled_from(["attributes", "skills"]),
    st.data(),
    st.sampled_from([-1, 1]),
)
def test_one_dot_more_or_less_on_a_valid_sheet_breaks_a_budget(group, data, change):
    ratings = dict(getattr(VALID, group))
    catalogue = ATTRIBUTES if group == "attributes" else SKILLS
    key = data.draw(st.sampled_from([item.key for item in catalogue]))
    low = 1 if group == "attributes" else 0
    current = ratings.get(key, low)
    if not low <= current + change <= 5:
        change = -change
    ratings[key] = current + change
    draft = replace(VALID, **{group: ratings})
    report = check_creation(draft)
    assert not report.ok
    assert any(problem.key.startswith(f"{group}.") for problem in report.problems)
