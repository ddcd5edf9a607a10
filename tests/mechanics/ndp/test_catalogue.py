import ast
import pathlib

import pytest

from mechanics.rules.errors import RuleError
from mechanics.rules.ndp import catalogue as cat

# The seed's "Habilidades" section, copied word for word so that a clone tests alone.
SEED_SKILLS = pathlib.Path(__file__).resolve().parents[2] / "data" / "ndp_skills_seed.txt"
PACKAGE = pathlib.Path(cat.__file__).parent


def _seed_skill_groups() -> dict[str, list[str]]:
    """Parse the seed's "Habilidades" section: headings followed by "- name" lines."""
    lines = SEED_SKILLS.read_text(encoding="utf-8").splitlines()
    start = lines.index("Progresión de habilidades:")
    groups: dict[str, list[str]] = {}
    current = None
    for line in lines[start + 2 :]:
        if line.startswith("- "):
            groups[current].append(line[2:])
        else:
            current = line
            groups[current] = []
    return groups


def test_skill_groups_have_the_counts_rules_md_gives():
    counts = {group: len(names) for group, names in cat.SKILL_GROUPS}
    assert counts == {
        "Generales": 12,
        "Conocimiento": 14,
        "Sociales": 8,
        "Atléticas": 5,
        "Artísticas": 5,
        "Combate": 7,
    }
    assert len(cat.SKILLS) == 51


def test_skills_match_the_seed_word_for_word_and_in_order():
    assert _seed_skill_groups() == {group: list(names) for group, names in cat.SKILL_GROUPS}


def test_every_skill_has_its_group_as_category_and_an_open_ended_range():
    for group, names in cat.SKILL_GROUPS:
        for name in names:
            skill = cat.skill(cat.slug(name))
            assert skill.category == group
            assert (skill.minimum, skill.maximum) == (0, 20)
    assert len(cat.SKILLS_BY_KEY) == 51


def test_skill_keys_are_ascii_slugs():
    assert cat.skill("combate_c_a_c").name == "Combate C. a C."
    assert cat.skill("reunir_info").name == "Reunir Info."
    assert cat.skill("linguistica").description.startswith("Cada NdP otorga")
    assert all(s.key.isascii() for s in cat.SKILLS)


def test_unknown_skill_is_a_rule_error():
    with pytest.raises(RuleError, match="unknown skill"):
        cat.skill("telepatia")


def test_athletic_skills_are_the_atleticas_group():
    assert {"acrobacias", "correr", "escalar", "nadar", "saltar"} == cat.ATHLETIC_SKILLS


def test_mastery_names_run_from_ignorante_to_leyenda_and_beyond():
    assert next(m.name for m in cat.MASTERY) == "Ignorante"
    assert cat.mastery(4).name == "Practicante"
    assert cat.mastery(4).description == "Competencia en condiciones normales"
    assert cat.mastery(10).name == "Leyenda"
    assert cat.mastery(15).name == "Leyenda"
    with pytest.raises(RuleError):
        cat.mastery(-1)


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (4, "Fácil"),
        (8, "Fácil"),
        (9, "Intermedia"),
        (13, "Intermedia"),
        (14, "Difícil"),
        (18, "Difícil"),
        (19, "Muy difícil"),
        (23, "Muy difícil"),
        (24, "Extrema"),
        (40, "Extrema"),
    ],
)
def test_adversity_bands(value, name):
    assert cat.adversity_level(value).name == name


@pytest.mark.parametrize("value", [0, 1, 2, 3])
def test_an_adversity_below_facils_4_has_no_band(value):
    # Fácil is 4-8 and Asegurada is no roll at all: 0-3 is in no band of the table.
    assert cat.adversity_level(value) is None


def test_asegurada_means_no_roll():
    assert cat.ADVERSITY_LEVELS[0].name == "Asegurada"
    assert cat.ADVERSITY_LEVELS[0].caption == "No realizar tirada"


def test_body_parts_and_letal_moves_towards_the_torso():
    assert [p.key for p in cat.BODY_PARTS] == [
        "cabeza",
        "torso",
        "brazo_izquierdo",
        "brazo_derecho",
        "pierna_izquierda",
        "pierna_derecha",
    ]
    assert all(cat.body_part(limb).nearer_to_torso == "torso" for limb in cat.LIMBS)


def test_wound_tiers_follow_the_damage_table():
    assert [cat.wound_tier(n) for n in (-2, 0, 1, 3, 4, 7, 8, 30)] == [
        None,
        None,
        "leve",
        "leve",
        "grave",
        "grave",
        "letal",
        "letal",
    ]


def test_states_keep_the_seed_wording():
    assert cat.STATES_BY_KEY["contusionado"].description == (
        "Herida grave en cabeza. +5 Adversidad a acciones rápidas."
    )
    assert cat.STATES_BY_KEY["desmembrado"].description == (
        "Herida letal en extremidad + Hemorragia grave."
    )


@pytest.mark.parametrize(
    ("gdc", "bonus"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (8, 4), (9, 5), (10, 5)]
)
def test_shield_gdc_table(gdc, bonus):
    assert cat.shield_bonus(gdc) == bonus


def test_shield_gdc_out_of_range_is_refused():
    with pytest.raises(RuleError):
        cat.shield_bonus(11)


def test_divine_tiers():
    assert cat.divine_tier(4) is None
    assert [cat.divine_tier(n).name for n in (5, 9, 10, 15, 29, 30, 60, 99)] == [
        "Baja",
        "Baja",
        "Media",
        "Alta",
        "Alta",
        "Muy alta",
        "Extrema",
        "Extrema",
    ]


def test_arcane_gestures_and_summoning_schools():
    assert [(g.name, g.cost_per_prana) for g in cat.ARCANE_GESTURES][-1] == (
        "Complejidad",
        "1d4 Adversidad enemiga",
    )
    assert len(cat.ARCANE_GESTURES) == 6
    assert len(cat.SUMMONING_SCHOOLS) == 7


def test_the_engine_package_never_imports_django():
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "django" for n in names), path
            if path.name != "reference.py":
                assert not any(n.split(".")[0] == "icepool" for n in names), path
