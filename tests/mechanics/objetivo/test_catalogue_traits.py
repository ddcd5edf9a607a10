import ast
import pathlib

import pytest

from mechanics.rules.catalogue import slug
from mechanics.rules.errors import RuleError
from mechanics.rules.objetivo.catalogue import (
    ATTRIBUTES,
    DIFFICULTIES,
    DIFFICULTY_BY_KEY,
    HEALTH_STATES,
    RANGE_BANDS,
    SKILL_ALIASES,
    SKILLS,
    WEAPON_BY_KEY,
    WEAPONS,
)
from mechanics.rules.objetivo.traits import (
    defensa,
    initiative_base,
    pv,
    ranged_difficulty,
    ready_to_fire,
)
from mechanics.rules.settings import resolve_settings

PACKAGE = pathlib.Path(__file__).parents[3] / "mechanics" / "rules" / "objetivo"


def test_starter_lists_hold_every_trait_the_seed_and_rules_name():
    assert [a.name for a in ATTRIBUTES] == [
        "Fuerza",
        "Destreza",
        "Resistencia",
        "Percepción",
        "Inteligencia",
        "Carisma",
    ]
    assert [s.name for s in SKILLS] == [
        "Armas CC",
        "Armas Dist",
        "Pelea",
        "Buscar",
        "Juegos de azar",
        "Atletismo",
        "Sigilo",
    ]
    assert all(t.key == slug(t.name) for t in (*ATTRIBUTES, *SKILLS))
    assert {(a.minimum, a.maximum) for a in ATTRIBUTES} == {(1, 10)}
    assert {(s.minimum, s.maximum) for s in SKILLS} == {(0, 10)}
    assert SKILL_ALIASES["combate"] in {s.key for s in SKILLS}


def test_difficulty_labels_and_range_bands():
    assert [(d.name, d.value) for d in DIFFICULTIES] == [
        ("fácil", 10),
        ("media", 15),
        ("difícil", 20),
        ("insólito", 25),
        ("imposible", 30),
    ]
    assert DIFFICULTY_BY_KEY["insolito"].value == 25
    assert [b.difficulty for b in RANGE_BANDS] == [15, 20, 25]


def test_weapons_carry_the_seed_values():
    assert str(WEAPON_BY_KEY["pelea"].damage) == "1d6-2"
    assert str(WEAPON_BY_KEY["espada"].damage) == "1d10"
    assert WEAPON_BY_KEY["hacha"].precision == -1
    assert str(WEAPON_BY_KEY["mandoble"].damage) == "2d6"
    assert WEAPON_BY_KEY["revolver"].ranges == (35, 60, 120)
    assert len({w.key for w in WEAPONS}) == len(WEAPONS)
    assert [s.name for s in HEALTH_STATES] == ["Sano", "Incapacitado", "Inconsciente", "Muerto"]


def test_derived_values():
    assert pv(7) == 14
    assert defensa(6, 4) == 15
    hard = resolve_settings("objetivo", {"defense_base": 6})["defense_base"]
    assert defensa(6, 4, hard) == 16
    assert initiative_base(5, 7) == 12
    with pytest.raises(RuleError, match="between 1 and 10"):
        pv(0)
    with pytest.raises(RuleError):
        defensa(6, 11)


def test_cover_raises_the_range_difficulty_one_step():
    ranges = (35, 60, 120)
    assert ranged_difficulty(35, ranges, cover=True) == 20
    assert ranged_difficulty(60, ranges, cover=True) == 25
    assert ranged_difficulty(120, ranges, cover=True) == 30
    assert ranged_difficulty(0, ranges) == 15
    assert ranged_difficulty(35.5, ranges) == 20


def test_a_weapon_that_takes_a_turn_to_reload_cannot_fire_in_two_consecutive_rounds():
    revolver = WEAPON_BY_KEY["revolver"]
    assert revolver.reload_turns == 1
    assert ready_to_fire(revolver.reload_turns, None, 1)
    assert not ready_to_fire(revolver.reload_turns, 1, 2)
    assert ready_to_fire(revolver.reload_turns, 1, 3)
    # Melee weapons need no reloading.
    assert WEAPON_BY_KEY["espada"].reload_turns == 0
    assert ready_to_fire(0, 1, 2)
    assert ready_to_fire(0, 1, 1)
    with pytest.raises(RuleError):
        ready_to_fire(-1, None, 1)


@pytest.mark.parametrize(
    ("distance", "ranges"),
    [(-1, (35, 60, 120)), (10, (35, 60)), (10, (60, 35, 120)), (10, (0, 60, 120))],
)
def test_bad_distances_and_ranges_are_refused(distance, ranges):
    with pytest.raises(RuleError):
        ranged_difficulty(distance, ranges)


def test_engine_modules_import_neither_django_nor_global_random():
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
        assert "django" not in imported, path.name
        if path.name != "cli.py":  # the CLI builds a seeded random.Random for --seed
            assert "random" not in imported, path.name
