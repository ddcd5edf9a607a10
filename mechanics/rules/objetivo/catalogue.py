"""Starter catalogue for Dado objetivo: traits, difficulties, ranges, weapons, health states.

Attributes and skills are GM-defined per campaign; these are the starter lists
(docs/rules.md#objetivo-traits). The seed has no trait descriptions as such, so a
description quotes, verbatim, the seed's sentences that use the trait; traits the seed
does not mention (Carisma, Atletismo, Sigilo) have none.

Rating ranges (the seed gives no scale; decided from its numbers): attributes 1–10,
skills 0–10. The seed's examples use Fuerza 8, Destreza 8, Armas CC 6, Armas Dist 4 and
"Fuerza+Combate (suma 19)", and its difficulty table tops out at 30 = 10 + 10 + a die
of 10, which fits a 1–10 scale. A skill at 0 is "sin puntos": rolls one level down.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.catalogue import TraitDef, slug

ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 10
SKILL_MIN, SKILL_MAX = 0, 10

ATTRIBUTE_CATEGORY = "Atributos"
SKILL_CATEGORY = "Habilidades"


def _attribute(name: str, description: str = "") -> TraitDef:
    return TraitDef(slug(name), name, ATTRIBUTE_CATEGORY, description, ATTRIBUTE_MIN, ATTRIBUTE_MAX)


def _skill(name: str, description: str = "") -> TraitDef:
    return TraitDef(slug(name), name, SKILL_CATEGORY, description, SKILL_MIN, SKILL_MAX)


ATTRIBUTES: tuple[TraitDef, ...] = (
    _attribute(
        "Fuerza",
        "Ataque: Fuerza + Armas CC/Pelea + 1o3d10. Un personaje desea usar su Fuerza para "
        "romper unas esposas de buena calidad",
    ),
    _attribute(
        "Destreza",
        "Iniciativa: Destreza + Percepción + 1o3d10. Defensa: Destreza + Armas CC/Pelea + 5 "
        "(+6 si se quieren partidas más duras/realistas). Distancia: Destreza + Armas Dist "
        "+ 1o3d10",
    ),
    _attribute("Resistencia", "Puntos de Vida: Resistencia x 2"),
    _attribute(
        "Percepción",
        "Iniciativa: Destreza + Percepción + 1o3d10. El jugador debe tirar Percepción + "
        "Buscar + 1o3d10 y obtener 20 o más para encontrarla.",
    ),
    _attribute(
        "Inteligencia",
        "El ganador de una partida de poker entre dos personajes sería aquel que consiguiera "
        "una tirada mayor sumando Inteligencia + Juegos de azar + dado objetivo.",
    ),
    _attribute("Carisma"),
)

SKILLS: tuple[TraitDef, ...] = (
    _skill(
        "Armas CC",
        "Armas cuerpo a cuerpo. Ataque: Fuerza + Armas CC/Pelea + 1o3d10",
    ),
    _skill("Armas Dist", "Armas a distancia. Distancia: Destreza + Armas Dist + 1o3d10"),
    _skill(
        "Pelea",
        "En caso de utilizar Pelea el daño es 1d6-2. El daño negativo significa que el "
        "enemigo no recibe daño alguno, no que se cure.",
    ),
    _skill(
        "Buscar",
        "Un personaje está buscando una puerta secreta. El Master le da una dificultad 20 "
        "(difícil) para encontrarla. El jugador debe tirar Percepción + Buscar + 1o3d10 y "
        "obtener 20 o más para encontrarla.",
    ),
    _skill(
        "Juegos de azar",
        "El ganador de una partida de poker entre dos personajes sería aquel que consiguiera "
        "una tirada mayor sumando Inteligencia + Juegos de azar + dado objetivo.",
    ),
    _skill("Atletismo"),
    _skill("Sigilo"),
)

# The seed's crítico example says "Fuerza+Combate": read as Armas CC (its attack formula).
SKILL_ALIASES: dict[str, str] = {"combate": "armas_cc"}

SPECIALIZATION_TEXT = (
    "Cada personaje elige una habilidad en la que especializarse. Esto permitirá que una vez "
    "por escena (para el personaje) puedan guardar el dado mayor en una tirada de dicha "
    "especialidad."
)
DESTINY_POINTS_TEXT = (
    "Dicho jugador puede decidir hacer uso de un punto de destino antes de cualquier tirada. "
    "Tras anunciarlo al director, puede realizar su tirada y disfrutar de un dado objetivo "
    "mayor al que tenia (¡solo durante esa tirada!). Por otra parte, el master puede decidir "
    "(¡en cualquier momento!) devolvérselo al jugador, obligándolee a bajar su dado objetivo "
    "un nivel."
)


@dataclass(frozen=True)
class Difficulty:
    key: str
    name: str
    value: int


DIFFICULTIES: tuple[Difficulty, ...] = tuple(
    Difficulty(slug(name), name, value)
    for name, value in (
        ("fácil", 10),
        ("media", 15),
        ("difícil", 20),
        ("insólito", 25),
        ("imposible", 30),
    )
)
DIFFICULTY_BY_KEY: dict[str, Difficulty] = {d.key: d for d in DIFFICULTIES}

# Crítico: a final total of 30 or more ("Se consigue al sacar 30 o más en la tirada").
CRITICAL_TOTAL = 30


@dataclass(frozen=True)
class RangeBand:
    key: str
    name: str
    difficulty: int


RANGE_BANDS: tuple[RangeBand, ...] = (
    RangeBand("corta", "Corta", 15),
    RangeBand("media", "Media", 20),
    RangeBand("larga", "Larga", 25),
)
# Cover ("escondido en una trinchera") raises the difficulty one step: the next band's
# difficulty; at long range that is 30 (imposible), still reachable by an explosion.
COVER_STEP = 5


@dataclass(frozen=True)
class DamageDice:
    """Weapon damage: `count` dice of `sides`, each exploding on its maximum, + modifier."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if not self.modifier:
            return f"{self.count}d{self.sides}"
        return f"{self.count}d{self.sides}{self.modifier:+d}"


MELEE = "cuerpo a cuerpo"
RANGED = "distancia"


@dataclass(frozen=True)
class Weapon:
    """A weapon from the seed. `assumed` names the fields the seed does not give
    (we chose them; a GM may override per campaign)."""

    key: str
    name: str
    kind: str
    skill: str
    damage: DamageDice
    precision: int = 0
    ranges: tuple[int, int, int] | None = None  # metres: short / medium / long
    # Rounds the weapon needs after a shot before it fires again (seed: "Tarda un turno en
    # recargar tras cada disparo").
    reload_turns: int = 0
    notes: str = ""
    assumed: tuple[str, ...] = ()


WEAPONS: tuple[Weapon, ...] = (
    Weapon(
        "pelea",
        "Pelea",
        MELEE,
        "pelea",
        DamageDice(1, 6, -2),
        notes="El daño negativo significa que el enemigo no recibe daño alguno, no que se cure.",
        assumed=("precision",),
    ),
    Weapon("espada", "Espada", MELEE, "armas_cc", DamageDice(1, 10), assumed=("precision",)),
    Weapon("hacha", "Hacha", MELEE, "armas_cc", DamageDice(1, 10), -1, assumed=("damage",)),
    Weapon("mandoble", "Mandoble", MELEE, "armas_cc", DamageDice(2, 6), assumed=("precision",)),
    Weapon(
        "revolver",
        "Revolver",
        RANGED,
        "armas_dist",
        DamageDice(1, 10),
        0,
        (35, 60, 120),
        reload_turns=1,
        notes="Tarda un turno en recargar tras cada disparo",
        assumed=("damage",),
    ),
)
WEAPON_BY_KEY: dict[str, Weapon] = {w.key: w for w in WEAPONS}


@dataclass(frozen=True)
class HealthStateDef:
    key: str
    name: str
    description: str


DEFAULT_INCAPACITATED_THRESHOLD = 10  # setting `incapacitated_threshold`
UNCONSCIOUS_AT = 0
DEAD_AT = -20

HEALTH_STATES: tuple[HealthStateDef, ...] = (
    # The seed names no healthy state; "Sano" is ours.
    HealthStateDef("healthy", "Sano", ""),
    HealthStateDef(
        "incapacitated",
        "Incapacitado",
        "Cuando un jugador tiene 10 puntos de vida o menos, es que está muy herido, y su "
        "dado objetivo baja 1 nivel.",
    ),
    HealthStateDef(
        "unconscious",
        "Inconsciente",
        "Al llegar a 0 puntos de vida un personaje está inconsciente.",
    ),
    HealthStateDef("dead", "Muerto", "Para matarlo hay que llegar a -20 PV."),
)
HEALTH_STATE_BY_KEY: dict[str, HealthStateDef] = {s.key: s for s in HEALTH_STATES}
