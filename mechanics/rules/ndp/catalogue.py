"""The seed's data for 3d6 + NdP, in its own Spanish wording.

Keys are `slug(name)`. Skill groups are the seed's six headings; their order and the
order of the skills inside them are the seed's.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.catalogue import TraitDef, slug
from mechanics.rules.errors import RuleError, gettext_noop

# NdP is open-ended ("Leyenda 10+"); 20 is the practical cap the sheets accept.
MAX_LEVEL = 20
# PdP run 0..5: the sixth point turns into one NdP.
PDP_PER_LEVEL = 6

# --- Skills -------------------------------------------------------------------------

SKILL_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Generales",
        (
            "Abrir Cerraduras",
            "Conducción",
            "Cuerdas y Nudos",
            "Esconderse",
            "Fortitud",
            "Investigación",
            "Navegar",
            "Percibir",
            "Pericia",
            "Preservación",
            "Vitalidad",
            "Voluntad",
        ),
    ),
    (
        "Conocimiento",
        (
            "Anatomía",
            "Arcano",
            "Etiqueta",
            "Finanzas",
            "Física",
            "Flora y Fauna",
            "Geografía",
            "Historia",
            "Lingüística",
            "Medicina",
            "Ocultismo",
            "Política",
            "Química",
            "Religión",
        ),
    ),
    (
        "Sociales",
        (
            "Comercio",
            "Diplomacia",
            "Intimidar",
            "Presencia",
            "Reunir Info.",
            "Seducir",
            "Sigilo",
            "Subterfugio",
        ),
    ),
    ("Atléticas", ("Acrobacias", "Correr", "Escalar", "Nadar", "Saltar")),
    ("Artísticas", ("Actuar", "Artesanía", "Bailar", "Cocinar", "Música")),
    (
        "Combate",
        (
            "Alerta",
            "Auxiliar",
            "Combate a Dist.",
            "Combate C. a C.",
            "Esquivar",
            "Interceptar",
            "Pelea",
        ),
    ),
)

# Rule lines of the seed that speak about one skill, copied as its description.
SKILL_RULES: dict[str, tuple[str, ...]] = {
    "fortitud": (
        "Cada NdP de Fortitud aumenta en 5kg el peso que el personaje puede cargar de forma "
        "constante. Siendo la base 20kg.",
    ),
    "vitalidad": ("Prana: Base 8. +2 por NdP Vitalidad. Regenera 1/hora.",),
    "voluntad": (
        "Tirada: Voluntad con Adversidad = Prana consumido.",
        "Máx. PdF por divinidad: 2 × NdP de Voluntad.",
        "Criaturas máximas: 2 × NdP Voluntad",
    ),
    "arcano": ("Gestos conocidos: Máximo = NdP de Arcano.",),
    "religion": ("Máx. divinidades: NdP de Religión.",),
    "linguistica": ("Cada NdP otorga comprensión, habla o escritura de un idioma.",),
    "actuar": ("Se detecta con Percibir.",),
    "alerta": ("Advertir acciones fuera del cono de visión.",),
    "auxiliar": (
        "Elimina estados Hemorragia e Inconsciencia según Adversidad. Puede aplicarse a sí mismo.",
    ),
    "interceptar": ("Tirada enfrentada. El daño lo recibe el objeto usado para defenderse.",),
}

SKILLS: tuple[TraitDef, ...] = tuple(
    TraitDef(
        key=slug(name),
        name=name,
        category=group,
        description=" ".join(SKILL_RULES.get(slug(name), ())),
        minimum=0,
        maximum=MAX_LEVEL,
    )
    for group, names in SKILL_GROUPS
    for name in names
)
SKILLS_BY_KEY: dict[str, TraitDef] = {skill.key: skill for skill in SKILLS}
GROUPS: tuple[str, ...] = tuple(group for group, _ in SKILL_GROUPS)

# "Todas las habilidades atléticas ganan un dado de Desgracia por cada 5kg excedidos."
ATHLETIC_SKILLS: frozenset[str] = frozenset(
    skill.key for skill in SKILLS if skill.category == "Atléticas"
)


def skill(key: str) -> TraitDef:
    try:
        return SKILLS_BY_KEY[key]
    except KeyError:
        raise RuleError(gettext_noop("unknown skill %(key)s"), key=key) from None


# --- Mastery ------------------------------------------------------------------------


@dataclass(frozen=True)
class MasteryLevel:
    level: int  # the last one, Leyenda, covers 10 and above
    name: str
    description: str

    @property
    def key(self) -> str:
        return slug(self.name)


MASTERY: tuple[MasteryLevel, ...] = (
    MasteryLevel(0, "Ignorante", "Sin conocimiento ni práctica"),
    MasteryLevel(1, "Principiante", "Entendimiento básico, sin experiencia"),
    MasteryLevel(2, "Aprendiz", "Tareas simples con dificultad"),
    MasteryLevel(3, "Iniciado", "Fundamentos en situaciones básicas"),
    MasteryLevel(4, "Practicante", "Competencia en condiciones normales"),
    MasteryLevel(5, "Competente", "Confianza en la mayoría de casos"),
    MasteryLevel(6, "Destacado", "Superior, resuelve con creatividad"),
    MasteryLevel(7, "Experto", "Referente en su área"),
    MasteryLevel(8, "Maestro", "Excepcional, capaz de enseñar"),
    MasteryLevel(9, "Virtuoso", "Roza la perfección"),
    MasteryLevel(10, "Leyenda", "Redefine los límites"),
)


def mastery(level: int) -> MasteryLevel:
    """Mastery name of an NdP: 0 Ignorante … 10 and above Leyenda."""
    if level < 0:
        raise RuleError(gettext_noop("NdP cannot be negative"))
    return MASTERY[min(level, len(MASTERY) - 1)]


# --- Adversity ----------------------------------------------------------------------


@dataclass(frozen=True)
class AdversityLevel:
    name: str
    low: int | None  # None for Asegurada: no roll is made
    high: int | None  # None: open-ended (Extrema) or no roll
    caption: str

    @property
    def key(self) -> str:
        return slug(self.name)


ADVERSITY_LEVELS: tuple[AdversityLevel, ...] = (
    AdversityLevel("Asegurada", None, None, "No realizar tirada"),
    AdversityLevel("Fácil", 4, 8, "4-8"),
    AdversityLevel("Intermedia", 9, 13, "9-13"),
    AdversityLevel("Difícil", 14, 18, "14-18"),
    AdversityLevel("Muy difícil", 19, 23, "19-23"),
    AdversityLevel("Extrema", 24, None, "24+"),
)


def adversity_level(value: int) -> AdversityLevel | None:
    """The named band of a numeric adversity, or None below the table's first band.

    Fácil is 4-8; an adversity of 0-3 (a 1-3 Prana spell, an Auxiliar at 3) is a roll, so
    not Asegurada, and in no band: it has no name (docs/rules.md#ndp-low-adversity).
    """
    for level in reversed(ADVERSITY_LEVELS[1:]):
        if level.low is not None and value >= level.low:
            return level
    return None


# --- Combat -------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatAction:
    name: str
    skills: str
    description: str


COMBAT_ACTIONS: tuple[CombatAction, ...] = (
    CombatAction("Atacar", "CaC / Distancia / Pelea", "Máx. 2/turno (2do con Desgracia)"),
    CombatAction(
        "Defenderse", "Esquivar / Interceptar", "Sin máximo. Cada extra acumula Desgracia"
    ),
    CombatAction("Moverse", "Correr", "1m gratis / 6m sin atacar / 18m con tirada"),
    CombatAction("Recargar", "-", "Según el arma"),
    CombatAction("Fintar", "Actuar vs Alerta", "Enemigo defiende con Desgracia"),
)

COMBAT_PHASES: tuple[str, ...] = (
    "Cuerpo a Cuerpo amenazando a Tiradores",
    "Tiradores",
    "Cuerpo a Cuerpo",
    "Conjuradores",
)

ACTION_ORDER: tuple[str, ...] = (
    "Sin desplazarse va primero",
    "Empate: tirada enfrentada de Alerta",
    "Se puede ceder el turno",
)

# Metres: free, without attacking, with a Correr roll.
MOVE_FREE_M = 1
MOVE_NO_ATTACK_M = 6
MOVE_WITH_ROLL_M = 18

# --- Damage -------------------------------------------------------------------------


@dataclass(frozen=True)
class BodyPart:
    key: str
    name: str
    is_limb: bool
    # Where a letal wound goes when this limb's letal box is already taken.
    nearer_to_torso: str | None


BODY_PARTS: tuple[BodyPart, ...] = (
    BodyPart("cabeza", "Cabeza", False, None),
    BodyPart("torso", "Torso", False, None),
    BodyPart("brazo_izquierdo", "Brazo izquierdo", True, "torso"),
    BodyPart("brazo_derecho", "Brazo derecho", True, "torso"),
    BodyPart("pierna_izquierda", "Pierna izquierda", True, "torso"),
    BodyPart("pierna_derecha", "Pierna derecha", True, "torso"),
)
BODY_PARTS_BY_KEY: dict[str, BodyPart] = {part.key: part for part in BODY_PARTS}
VITAL_PARTS: frozenset[str] = frozenset({"cabeza", "torso"})
LIMBS: tuple[str, ...] = tuple(part.key for part in BODY_PARTS if part.is_limb)
LEGS: tuple[str, ...] = ("pierna_izquierda", "pierna_derecha")


def body_part(key: str) -> BodyPart:
    try:
        return BODY_PARTS_BY_KEY[key]
    except KeyError:
        raise RuleError(gettext_noop("unknown body part %(key)s"), key=key) from None


@dataclass(frozen=True)
class DamageType:
    key: str
    name: str


# The seed names only these two (its "Estados por Daño" headings and the RD rule).
DAMAGE_TYPES: tuple[DamageType, ...] = (
    DamageType("contundente", "Contundente"),
    DamageType("cortante", "Cortante"),
)
DAMAGE_TYPE_KEYS: frozenset[str] = frozenset(t.key for t in DAMAGE_TYPES)


def check_damage_type(key: str | None, *, allow_none: bool = False) -> None:
    if key is None and allow_none:
        return
    if key not in DAMAGE_TYPE_KEYS:
        raise RuleError(gettext_noop("unknown damage type %(key)s"), key=key)


@dataclass(frozen=True)
class WoundTier:
    key: str
    name: str
    low: int
    high: int | None  # None: open-ended


WOUND_TIERS: tuple[WoundTier, ...] = (
    WoundTier("leve", "Herida Leve", 1, 3),
    WoundTier("grave", "Herida Grave", 4, 7),
    WoundTier("letal", "Herida Letal", 8, None),
)
WOUND_TIER_KEYS: tuple[str, ...] = tuple(t.key for t in WOUND_TIERS)


def wound_tier(net_damage: int) -> str | None:
    """Tier key for net damage (weapon − RD): None when it does not exceed the RD."""
    if net_damage <= 0:
        return None
    if net_damage <= 3:
        return "leve"
    if net_damage <= 7:
        return "grave"
    return "letal"


@dataclass(frozen=True)
class StateDef:
    key: str
    name: str
    group: str  # the seed's heading: "Contundente", "Cortante" or "" (other)
    description: str


STATES: tuple[StateDef, ...] = (
    StateDef(
        "contusionado",
        "Contusionado",
        "Contundente",
        "Herida grave en cabeza. +5 Adversidad a acciones rápidas.",
    ),
    StateDef(
        "fracturado",
        "Fracturado",
        "Contundente",
        "2 heridas graves contundentes en extremidad. 2 dados de Desgracia.",
    ),
    StateDef(
        "hemorragia_leve",
        "Hemorragia leve",
        "Cortante",
        "2 heridas graves cortantes. 1 daño leve/ronda en la zona.",
    ),
    StateDef(
        "hemorragia_grave",
        "Hemorragia grave",
        "Cortante",
        "Igual pero con daño grave/ronda.",
    ),
    StateDef(
        "desmembrado",
        "Desmembrado",
        "Cortante",
        "Herida letal en extremidad + Hemorragia grave.",
    ),
    StateDef("inconsciencia", "Inconsciencia", "", ""),
    StateDef("muerte", "Muerte", "", "Daño letal en cabeza o torso."),
)
STATES_BY_KEY: dict[str, StateDef] = {state.key: state for state in STATES}

LETAL_BOX_RULE = "Al ocupar casilla letal, pasa a la parte más cercana al torso."
OUT_OF_COMBAT_RULE = "Fuera de combate: reposo hasta curarse."
CONTUSIONADO_ADVERSITY = 5
FRACTURADO_DESGRACIAS = 2

# --- Armour and shields -------------------------------------------------------------


@dataclass(frozen=True)
class ShieldBand:
    low: int
    high: int
    bonus: int  # NdP added to Interceptar

    @property
    def caption(self) -> str:
        return f"GdC {self.low}-{self.high}"


SHIELD_BANDS: tuple[ShieldBand, ...] = (
    ShieldBand(1, 2, 1),
    ShieldBand(3, 4, 2),
    ShieldBand(5, 6, 3),
    ShieldBand(7, 8, 4),
    ShieldBand(9, 10, 5),
)
SHIELD_GDC_RULE = "GdC = partes del cuerpo cubiertas por el escudo."


def shield_bonus(gdc: int) -> int:
    """NdP a shield adds to Interceptar: GdC 1–2 +1 … 9–10 +5."""
    for band in SHIELD_BANDS:
        if band.low <= gdc <= band.high:
            return band.bonus
    raise RuleError(gettext_noop("GdC must be between 1 and 10"))


# --- Magic --------------------------------------------------------------------------


@dataclass(frozen=True)
class Gesture:
    name: str
    cost_per_prana: str
    base: str

    @property
    def key(self) -> str:
        return slug(self.name)


ARCANE_GESTURES: tuple[Gesture, ...] = (
    Gesture("Poder", "1 daño", "0"),
    Gesture("Distancia", "10 metros", "1m"),
    Gesture("Integridad", "2 puntos", "1"),
    Gesture("Duración", "1 turno extra", "Mismo turno"),
    Gesture("Precisión", "1 objetivo extra", "1"),
    Gesture("Complejidad", "1d4 Adversidad enemiga", "0"),
)
ARCANE_RULES: tuple[str, ...] = (
    "Prana: Base 8. +2 por NdP Vitalidad. Regenera 1/hora.",
    "Fuentes extra: 1 daño leve propio = 1 Prana. 2 integridad objeto = 1 Prana.",
    "Tirada: Voluntad con Adversidad = Prana consumido.",
    "Gestos conocidos: Máximo = NdP de Arcano.",
    "Fallo: Consume solo la mitad del Prana.",
    "Limitación: Solo afecta superficies externas.",
    "Disipar: Contacto físico + Voluntad vs Adversidad original. Recupera 1 Prana.",
)


@dataclass(frozen=True)
class DivineTier:
    threshold: int
    name: str

    @property
    def key(self) -> str:
        return slug(self.name)


DIVINE_TIERS: tuple[DivineTier, ...] = (
    DivineTier(5, "Baja"),
    DivineTier(10, "Media"),
    DivineTier(15, "Alta"),
    DivineTier(30, "Muy alta"),
    DivineTier(60, "Extrema"),
)
DIVINE_RULES: tuple[str, ...] = (
    "Tirada: Lanza tantos d10 como PdF consumidos. Se suman.",
    "Crítico: Un 10 natural se vuelve a tirar y suma.",
    "Mínimo: 1 PdF para conjurar.",
    "Máx. PdF por divinidad: 2 × NdP de Voluntad.",
    "Máx. divinidades: NdP de Religión.",
)


def divine_tier(total: int) -> DivineTier | None:
    """Highest tier reached by a divine total; None below 5."""
    reached = None
    for tier in DIVINE_TIERS:
        if total >= tier.threshold:
            reached = tier
    return reached


@dataclass(frozen=True)
class CraftingItem:
    name: str
    prana_cost: int
    notes: str  # the seed's extra text ("3d4 daño", "30m, 3d4 daño")

    @property
    def key(self) -> str:
        return slug(self.name)

    @property
    def adversity(self) -> int:
        return crafting_adversity(self.prana_cost)


def crafting_adversity(prana_cost: int) -> int:
    """Artesanía Mágica: Voluntad against 10 + the artefact's Prana cost."""
    if prana_cost < 0:
        raise RuleError(gettext_noop("Prana cost cannot be negative"))
    return 10 + prana_cost


CRAFTING_ITEMS: tuple[CraftingItem, ...] = (
    CraftingItem("Bengala", 1, ""),
    CraftingItem("Ariete portátil", 3, "3d4 daño"),
    CraftingItem("Rifle arcano", 6, "30m, 3d4 daño"),
)


@dataclass(frozen=True)
class SummoningSchool:
    name: str
    creatures: str

    @property
    def key(self) -> str:
        return slug(self.name)


SUMMONING_SCHOOLS: tuple[SummoningSchool, ...] = (
    SummoningSchool("Nigromancia", "Muertos, espectros, esqueletos"),
    SummoningSchool("Sapiología", "Humanoides inteligentes"),
    SummoningSchool("Bestiología", "Animales, cuadrúpedos"),
    SummoningSchool("Celestología", "Seres divinos, celestiales"),
    SummoningSchool("Demonología", "Demonios, seres infernales"),
    SummoningSchool("Etereología", "Espíritus, seres etéreos"),
    SummoningSchool("Elementología", "Elementales (fuego, agua, aire, tierra)"),
)
SUMMONING_RULES: tuple[str, ...] = (
    "Ancla: Objeto que vincula la criatura al plano. Si se destruye, la criatura desaparece.",
    "Vinculación: Tirada enfrentada de Voluntad vs Voluntad de la criatura.",
    "Órdenes: Tirada de Voluntad. Adversidad según predisposición de la criatura.",
    "Criaturas máximas: 2 × NdP Voluntad",
    "Distancia máxima al Ancla: 50m (daño leve/turno si excede)",
    "Sin órdenes: actúa según su naturaleza",
)
SUMMONING_MAX_DISTANCE_M = 50
