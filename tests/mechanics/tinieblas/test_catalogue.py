import pytest

from mechanics.rules.catalogue import TraitDef, slug
from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas import catalogue
from mechanics.rules.tinieblas.catalogue import (
    ATTRIBUTES,
    HEALTH_LEVELS,
    MERITS,
    RESISTANCE_ATTRIBUTES,
    SKILL_DOT_LABELS,
    SKILLS,
    VICES,
    VIRTUES,
    WILLPOWER_LABELS,
    XP_DIARIO,
    XP_IDEAS,
    XP_INTERPRETACION,
    XP_OTHERS,
    attribute,
    find_merit,
    merit,
    skill,
    skill_label,
    vice,
    virtue,
    willpower_label,
)


def test_there_are_nine_attributes_three_per_category_and_row():
    assert len(ATTRIBUTES) == 9
    for category in ("mental", "physical", "social"):
        assert len(catalogue.attributes_in(category)) == 3
    for row in ("power", "finesse", "resistance"):
        assert len([item for item in ATTRIBUTES if item.row == row]) == 3


def test_attributes_are_trait_defs_from_one_to_five():
    for item in ATTRIBUTES:
        assert isinstance(item, TraitDef)
        assert (item.minimum, item.maximum) == (1, 5)


def test_attribute_grid_matches_the_rules():
    grid = {(item.category, item.row): item.name for item in ATTRIBUTES}
    assert grid == {
        ("mental", "power"): "Inteligencia",
        ("mental", "finesse"): "Astucia",
        ("mental", "resistance"): "Aplomo",
        ("physical", "power"): "Fuerza",
        ("physical", "finesse"): "Destreza",
        ("physical", "resistance"): "Resistencia",
        ("social", "power"): "Presencia",
        ("social", "finesse"): "Manipulación",
        ("social", "resistance"): "Compostura",
    }


def test_resistance_attributes_are_the_aguante_row():
    assert RESISTANCE_ATTRIBUTES == ("aplomo", "resistencia", "compostura")
    assert {attribute(key).row for key in RESISTANCE_ATTRIBUTES} == {"resistance"}


def test_there_are_24_skills_in_the_seeds_order():
    assert [item.name for item in catalogue.skills_in("mental")] == [
        "Academicismo",
        "Ciencia",
        "Informática",
        "Investigación",
        "Medicina",
        "Ocultismo",
        "Pericias",
        "Política y leyes",
    ]
    assert [item.name for item in catalogue.skills_in("physical")] == [
        "Armamento",
        "Armas de Fuego",
        "Atletismo",
        "Conducir",
        "Fullerías",
        "Pelea",
        "Sigilo",
        "Supervivencia",
    ]
    assert [item.name for item in catalogue.skills_in("social")] == [
        "Callejeo",
        "Empatía",
        "Expresión",
        "Intimidación",
        "Persuasión",
        "Sociedad",
        "Subterfugio",
        "Trato Animal",
    ]
    assert len(SKILLS) == 24


def test_skills_carry_the_seeds_descriptions():
    assert skill("pericias").description == (
        "Trabajos manuales, arreglar motores, construir ingenios mecánicos, electrónica, "
        "pintura,etc."
    )
    assert skill("investigacion").description.startswith("Crimonología. No descifra enigmas")
    assert skill("trato_animal").description.endswith("Interacción con ellos.")
    assert all(item.description for item in SKILLS)
    assert all((item.minimum, item.maximum) == (0, 5) for item in SKILLS)


def test_no_catalogue_text_keeps_non_breaking_or_doubled_spaces():
    texts = [item.description for item in SKILLS]
    for item in VIRTUES + VICES:
        texts += [item.description, item.effect, item.possessed_by]
    texts += [level.caption for rubric in catalogue.XP_RUBRICS for level in rubric.levels]
    texts.append(XP_DIARIO.description)
    for text in texts:
        assert "\xa0" not in text
        assert "  " not in text


def test_keys_are_slugs_of_the_names_and_unique():
    for items in (ATTRIBUTES, SKILLS, MERITS, VIRTUES, VICES):
        keys = [item.key for item in items]
        assert len(set(keys)) == len(keys)
        for item in items:
            assert item.key == slug(item.name)
            assert item.key.isascii()
            assert item.key.isidentifier()


def test_skill_dot_labels_go_from_novato_to_maestro():
    assert SKILL_DOT_LABELS == ("Novato", "Practicante", "Competente", "Experto", "Maestro")
    assert skill_label(3) == "Competente"
    assert skill_label(0) == ""
    with pytest.raises(RuleError):
        skill_label(6)


def test_willpower_labels_go_from_debil_to_implacable():
    assert len(WILLPOWER_LABELS) == 10
    assert willpower_label(1) == "Débil"
    assert willpower_label(5) == "Seguro"
    assert willpower_label(6) == "Confiado"
    assert willpower_label(10) == "Implacable"
    with pytest.raises(RuleError):
        willpower_label(0)


def test_health_levels_are_named_in_order():
    assert HEALTH_LEVELS == (
        "Magullado",
        "Lastimado",
        "Lesionado",
        "Herido",
        "Malherido",
        "Tullido",
        "Incapacitado",
    )


def test_seven_virtues_and_seven_vices_in_the_seeds_order():
    assert [item.name for item in VIRTUES] == [
        "Caridad",
        "Esperanza",
        "Fe",
        "Fortaleza",
        "Justicia",
        "Prudencia",
        "Templanza",
    ]
    assert [item.name for item in VICES] == [
        "Avaricia",
        "Envidia",
        "Gula",
        "Ira",
        "Lujuria",
        "Orgullo",
        "Pereza",
    ]


def test_virtues_and_vices_carry_effect_and_possessed_by_texts():
    caridad = virtue("caridad")
    assert caridad.description.startswith("Compasión, Misericordia. Implica compartir")
    assert caridad.effect.startswith("Recupera Voluntad siempre que ayudar a otros")
    assert caridad.possessed_by_label == "Poseída por"
    assert caridad.possessed_by == "Filántropos, santos, trabajadores sociales."
    pereza = vice("pereza")
    assert pereza.possessed_by_label == "Poseído por"
    assert pereza.possessed_by == 'Vagos, pasotas, "culos de sillón".'
    for item in VIRTUES + VICES:
        assert item.description
        assert item.effect.startswith("Recupera Voluntad")


def test_merits_keep_their_allowed_ratings():
    assert merit("apariencia_llamativa").ratings == (2, 4)
    assert merit("recursos").ratings == (1, 2, 3, 4, 5)
    assert merit("reflejos_rapidos").ratings == (1, 2)
    assert merit("gigante").ratings == (4,)
    assert merit("apariencia_llamativa").allows(4)
    assert not merit("apariencia_llamativa").allows(3)
    assert merit("apariencia_llamativa").next_rating(2) == 4
    assert merit("apariencia_llamativa").next_rating(4) is None
    assert merit("apariencia_llamativa").ratings_text == "2, 4"
    assert merit("recursos").ratings_text == "1–5"


def test_only_ambidiestro_and_gigante_are_creation_only():
    assert {item.key for item in MERITS if item.creation_only} == {"ambidiestro", "gigante"}


def test_every_merit_has_a_category_and_a_sorted_rating_set_within_one_to_five():
    for item in MERITS:
        assert item.category in ("mental", "physical", "social")
        assert item.ratings == tuple(sorted(set(item.ratings)))
        assert 1 <= item.minimum <= item.maximum <= 5
        assert item.description


def test_find_merit_accepts_a_key_or_a_name_and_returns_none_for_custom_merits():
    assert find_merit("recursos") is merit("recursos")
    assert find_merit("Sentido Común") is merit("sentido_comun")
    assert find_merit("Amigo en la comisaría") is None


@pytest.mark.parametrize("lookup", [attribute, skill, merit, virtue, vice])
def test_lookups_raise_rule_error_for_unknown_keys(lookup):
    with pytest.raises(RuleError):
        lookup("no_such_thing")


def test_unknown_skill_message_names_the_key():
    with pytest.raises(RuleError, match="Unknown skill “magia”"):
        skill("magia")


def test_interpretacion_captions_are_the_seeds():
    # The seed's words, but for its typos ("libro?." and "a tí"), mended.
    assert [level.points for level in XP_INTERPRETACION.levels] == [1, 2, 3, 4]
    assert XP_INTERPRETACION.caption(1) == (
        "Escasa. Pocas descripciones y breves; desmanes ortográficos o semánticos."
    )
    assert XP_INTERPRETACION.caption(2) == "Normal. Lo habitual."
    assert XP_INTERPRETACION.caption(3) == (
        "Chupi. Descripciones largas, logradas, evocadoras. Si no fuera porque un DJ no "
        "tiene sentimientos lloraría."
    )
    assert XP_INTERPRETACION.caption(4) == (
        "¿Qué haces jugando al rol cuando deberías estar escribiendo un libro?"
    )
    assert XP_INTERPRETACION.levels[2].short == "Chupi"


def test_ideas_captions_are_the_seeds():
    assert [level.points for level in XP_IDEAS.levels] == [1, 2, 3, 4]
    assert XP_IDEAS.caption(1) == "Pocas. Deja de dejarte llevar por el Máster."
    assert XP_IDEAS.caption(2) == "Normales. A veces tiras bien, a veces hay que empujarte."
    assert XP_IDEAS.caption(3) == "Cienes y cienes. La partida fluye gracias a ti."
    assert XP_IDEAS.caption(4) == "En serio, ¿para qué necesitas Máster?"


def test_diario_goes_from_zero_to_four_with_the_seeds_explanation():
    assert [level.points for level in XP_DIARIO.levels] == [0, 1, 2, 3, 4]
    assert XP_DIARIO.description.startswith("El diario, escena personal")
    assert XP_DIARIO.description.endswith("que no afectará en absoluto al resto de jugadores.")


def test_other_xp_lines_are_the_seeds():
    assert [(item.key, item.caption, item.minimum, item.maximum) for item in XP_OTHERS] == [
        ("universo", "1 PX siempre, por estar en el universo.", 1, 1),
        ("constancia", "1 PX Constancia (Consistencia).", 0, 1),
        ("sobornos", "1-5 PX Sobornos al máster.", 0, 5),
    ]


def test_a_caption_outside_the_rubric_is_refused():
    with pytest.raises(RuleError, match="Interpretación must be between 1 and 4"):
        XP_INTERPRETACION.caption(0)
