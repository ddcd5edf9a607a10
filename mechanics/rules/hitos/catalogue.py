"""Hitos catalogues as data, in the seed's Spanish wording (seed 001).

The seed gives no descriptions for the characteristics, the generic skills or the four
aspect types (its list "Existen cuatro tipos de aspectos:" is empty), so those
descriptions stay empty rather than invented; docs/rules.md#hitos-traits lists the names.

Rating ranges (the seed is silent; decided here): characteristics 1–10 and skills 0–10
for player characters. The seed's numbers point there: difficulties run from fácil 10 to
extrema 30 on a kept d10 (mean 5.5), Defensa is Reflejos + Combate + 5 and the
massive-damage test is Aguante + C vs 12, so a competent character has a characteristic
plus skill near 10 and an exceptional one near 20. Rolls accept wider values (0–20 each)
for creatures and non-player characters; see `rolls.RATING_LIMIT`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.catalogue import TraitDef, slug
from mechanics.rules.errors import RuleError, gettext_noop

SYSTEM = "hitos"

CHARACTERISTIC_MIN = 1
CHARACTERISTIC_MAX = 10
SKILL_MIN = 0
SKILL_MAX = 10


def _characteristic(name: str) -> TraitDef:
    return TraitDef(slug(name), name, "caracteristica", "", CHARACTERISTIC_MIN, CHARACTERISTIC_MAX)


def _skill(name: str) -> TraitDef:
    return TraitDef(slug(name), name, "habilidad", "", SKILL_MIN, SKILL_MAX)


CHARACTERISTICS: tuple[TraitDef, ...] = tuple(
    _characteristic(name) for name in ("Fortaleza", "Reflejos", "Voluntad", "Intelecto")
)

# The generic set; campaigns add custom skills (same range, category "habilidad").
SKILLS: tuple[TraitDef, ...] = tuple(
    _skill(name)
    for name in (
        "Forma física",
        "Combate",
        "Percepción",
        "Subterfugio",
        "Interacción",
        "Cultura",
        "Profesión",
    )
)

# An attack is "una acción normal usando siempre Reflejos más combate": no other pair.
ATTACK_CHARACTERISTIC = "reflejos"
ATTACK_SKILL = "combate"


def custom_skill(name: str) -> TraitDef:
    """A campaign-specific skill with the generic skills' range."""
    name = name.strip()
    if not slug(name):
        raise RuleError(gettext_noop("a skill needs a name"))
    return _skill(name)


@dataclass(frozen=True)
class AspectKind:
    """A slot on the sheet: `slots` is how many a character has (None: any number)."""

    key: str
    name: str
    slots: int | None
    description: str = ""


_TEMPORARY_TEXT = (
    "Durante el juego, los personajes pueden ganar aspectos temporales, normalmente como "
    "resultado de críticos o pifias en las tiradas. Estos aspectos pueden prolongarse una "
    "escena (por ejemplo, con un doble 1 o doble 10 en una tirada) o una sesión (con un "
    "triple 1 o triple 10)."
)
_COMPLICATION_TEXT = (
    "Una secuela, como toda complicación, es un mecanismo de ganancia de puntos dramáticos "
    "para el personaje, por lo que si el jugador elige una secuela irrelevante, estará "
    "posiblemente cerrándose a esa ganancia."
)

_SECUELA_TEXT = (
    "Un personaje que ha estado moribundo y se recupera nunca llega a hacerlo del todo. El "
    "daño sufrido le habrá dejado un doloroso e indeleble recuerdo en forma de secuela "
    "permanente, que a todos los efectos es una nueva complicación."
)

ASPECT_KINDS: tuple[AspectKind, ...] = (
    AspectKind("concepto", "Concepto", 1),
    AspectKind("cita", "Cita", 1),
    AspectKind("hito", "Hito", 4),
    AspectKind("complicacion", "Complicación", 1, _COMPLICATION_TEXT),
    AspectKind("libre", "Libre", None),
    AspectKind("temporal", "Temporal", None, _TEMPORARY_TEXT),
    # The permanent secuelas recovering from Moribundo leaves, named by the player.
    AspectKind("secuela", "Secuela", None, _SECUELA_TEXT),
)

# Durations a temporary aspect (or a secuela) can have.
DURATIONS = ("scene", "session")


@dataclass(frozen=True)
class AspectType:
    """Whose aspect it is. Only the player's own aspects can be exhausted by them
    ("Un jugador solo puede agotar los aspectos de su propio personaje"), and an
    implícito never can (docs/rules.md#hitos-aspects)."""

    key: str
    name: str
    can_exhaust: bool
    description: str = ""


ASPECT_TYPES: tuple[AspectType, ...] = (
    AspectType("propio", "Propio", True),
    AspectType("ajeno", "Ajeno", False),
    AspectType("de_situacion", "De situación", False),
    AspectType("implicito", "Implícito", False),
)

EXHAUSTION_TEXT = (
    "Si se desea activar un aspecto sin utilizar puntos dramáticos o no se disponen de más "
    "puntos en la reserva, debe agotarse dicho aspecto. En ese caso, en lugar de utilizar "
    "puntos dramáticos para activarlo, el aspecto agotado no puede volver a ser utilizado "
    "por el jugador hasta pasado un cierto tiempo: la siguiente sesión de juego o la "
    "siguiente historia, según la naturaleza del aspecto y el criterio el director de juego. "
    "Un aspecto agotado, en todo caso, sigue pudiendo ser activado por otros jugadores o por "
    "el director de juego en contra del personaje. Un jugador solo puede agotar los aspectos "
    "de su propio personaje."
)

# Activation purposes: improve a roll (M), hinder an opponent's (m), or declare a narrative
# fact (logged, no dice). See docs/rules.md#hitos-activating-aspects.
ASPECT_PURPOSES = ("improve", "hinder", "fact")


@dataclass(frozen=True)
class Difficulty:
    key: str
    name: str
    value: int


DIFFICULTIES: tuple[Difficulty, ...] = tuple(
    Difficulty(slug(name), name, value)
    for name, value in (
        ("Fácil", 10),
        ("Media", 15),
        ("Difícil", 20),
        ("Muy difícil", 25),
        ("Extrema", 30),
    )
)


@dataclass(frozen=True)
class DamageCategory:
    """A weapon category: the sum of some of the attack's sorted dice (0 = m, 1 = C,
    2 = M). `name` is the seed's notation; `key` is the slug of its Spanish reading."""

    key: str
    name: str
    label: str
    dice: tuple[int, ...]


# In order: an activated aspect moves a weapon one step along this tuple.
DAMAGE_CATEGORIES: tuple[DamageCategory, ...] = tuple(
    DamageCategory(slug(label), name, label, dice)
    for name, label, dice in (
        ("m", "menor", (0,)),
        ("C", "central", (1,)),
        ("M", "mayor", (2,)),
        ("m+C", "menor + central", (0, 1)),
        ("C+M", "central + mayor", (1, 2)),
        ("m+C+M", "menor + central + mayor", (0, 1, 2)),
    )
)


@dataclass(frozen=True)
class HealthState:
    """A band of lost Resistencia, in multiples of Aguante: from `low` × A (inclusive)
    to `high` × A (exclusive; None = no upper bound)."""

    key: str
    name: str
    low: int
    high: int | None
    penalty: int
    can_act: bool


# Moribundo's penalty is not in the seed; -5 is kept so that any roll the GM still
# allows (e.g. the massive-damage test of a later blow) is no easier than Incapacitado.
HEALTH_STATES: tuple[HealthState, ...] = (
    HealthState("sano", "Sano", 0, 1, 0, True),
    HealthState("herido", "Herido", 1, 2, -2, True),
    HealthState("incapacitado", "Incapacitado", 2, 3, -5, True),
    HealthState("moribundo", "Moribundo", 3, None, -5, False),
)


@dataclass(frozen=True)
class DrugKind:
    key: str
    name: str
    cancels: int
    aspect: str | None
    description: str


DRUG_ASPECT = "Bajo el efecto de las drogas"
MEDICAL_SUPERVISION_ASPECT = "Bajo supervisión médica"

DRUG_KINDS: tuple[DrugKind, ...] = (
    DrugKind(
        "suave",
        "Droga suave",
        2,
        None,
        "Anulan 2 puntos de la penalización del personaje, pero apenas tienen efectos secundarios.",
    ),
    DrugKind(
        "fuerte",
        "Droga fuerte",
        5,
        DRUG_ASPECT,
        "Anulan 5 puntos de la penalización, pero un personaje que las tome gana el aspecto "
        "temporal «Bajo el efecto de las drogas» u otro apropiado a la sustancia en concreto.",
    ),
)

DRUG_TIMING_TEXT = (
    "En cualquiera de los dos casos, estos medicamentos tardan aproximadamente una hora en "
    "hacer efecto y actúan durante seis u ocho horas."
)


def _index(items: tuple, what: str) -> dict:
    table = {item.key: item for item in items}
    assert len(table) == len(items), f"duplicate {what} key"
    return table


CHARACTERISTICS_BY_KEY = _index(CHARACTERISTICS, "characteristic")
SKILLS_BY_KEY = _index(SKILLS, "skill")
ASPECT_KINDS_BY_KEY = _index(ASPECT_KINDS, "aspect kind")
ASPECT_TYPES_BY_KEY = _index(ASPECT_TYPES, "aspect type")
DIFFICULTIES_BY_KEY = _index(DIFFICULTIES, "difficulty")
DAMAGE_CATEGORIES_BY_KEY = _index(DAMAGE_CATEGORIES, "damage category")
HEALTH_STATES_BY_KEY = _index(HEALTH_STATES, "health state")
DRUG_KINDS_BY_KEY = _index(DRUG_KINDS, "drug kind")


def damage_category(name_or_key: str) -> DamageCategory:
    """Look a category up by notation ("m+C", spaces ignored) or by key ("menor_central")."""
    text = name_or_key.replace(" ", "")
    for category in DAMAGE_CATEGORIES:
        if text == category.name or text == category.key:
            return category
    raise RuleError(
        gettext_noop("unknown weapon damage category %(category)s"), category=name_or_key
    )
