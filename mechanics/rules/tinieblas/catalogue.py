"""Mundo de Tinieblas catalogues: attributes, skills, merits, Virtues and Vices, labels.

Texts are the seed's Spanish wording (seeds/000), copied as written, typos included;
only non-breaking spaces and doubled spaces were normalised to single spaces. The seed
has no attribute descriptions and no list of merits: see `MERITS` for where those come
from. Keys are `slug(name)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechanics.rules.catalogue import TraitDef, slug
from mechanics.rules.errors import RuleError, gettext_noop

# Category keys shared by attributes, skills and merits, with the seed's names.
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("mental", "Mentales"),
    ("physical", "Físicas"),
    ("social", "Sociales"),
)
CATEGORY_KEYS: tuple[str, ...] = tuple(key for key, _ in CATEGORIES)

# Attribute rows: what an attribute does, across the three categories
# (docs/rules.md#tinieblas-traits).
ROWS: tuple[tuple[str, str], ...] = (
    ("power", "Poder"),
    ("finesse", "Precisión"),
    ("resistance", "Aguante"),
)


@dataclass(frozen=True)
class AttributeDef(TraitDef):
    """An attribute: a TraitDef that also knows its row (Poder, Precisión, Aguante)."""

    row: str = ""


def _attribute(name: str, category: str, row: str) -> AttributeDef:
    return AttributeDef(key=slug(name), name=name, category=category, minimum=1, row=row)


# The seed describes no attribute, so descriptions stay empty.
ATTRIBUTES: tuple[AttributeDef, ...] = (
    _attribute("Inteligencia", "mental", "power"),
    _attribute("Astucia", "mental", "finesse"),
    _attribute("Aplomo", "mental", "resistance"),
    _attribute("Fuerza", "physical", "power"),
    _attribute("Destreza", "physical", "finesse"),
    _attribute("Resistencia", "physical", "resistance"),
    _attribute("Presencia", "social", "power"),
    _attribute("Manipulación", "social", "finesse"),
    _attribute("Compostura", "social", "resistance"),
)

# Willpower may add +2 to one of these for an action instead of +3 dice.
RESISTANCE_ATTRIBUTES: tuple[str, ...] = ("aplomo", "resistencia", "compostura")


def _skill(name: str, category: str, description: str) -> TraitDef:
    return TraitDef(key=slug(name), name=name, category=category, description=description)


# The 24 skills in the seed's order: Mentales, Físicas, Sociales.
SKILLS: tuple[TraitDef, ...] = (
    _skill(
        "Academicismo",
        "mental",
        "Humanidades, Arte, Historia, antropología, literatura, leyes, teología, geografía.",
    ),
    _skill(
        "Ciencia",
        "mental",
        "Biología, meteorología, física, química (¡explosivos!), metalurgia, geología, etc.",
    ),
    _skill(
        "Informática",
        "mental",
        "Todo sobre ordenadores, desde Windows a nivel básico (Nivel 1) hasta un experto hacker.",
    ),
    _skill(
        "Investigación",
        "mental",
        (
            "Crimonología. No descifra enigmas, pero halla patrones y relaciones entre hechos "
            '"inconexos".'
        ),
    ),
    _skill(
        "Medicina",
        "mental",
        (
            "Fisiología. Lesiones. Heridas. Patología. Auxiliar (1), Enfermero (2), Médico (3), "
            "Cirujano (4), Eminencia (5)."
        ),
    ),
    _skill(
        "Ocultismo",
        "mental",
        (
            "Leyendas, tradiciones, cuentos de brujas, conocimiento enciclopédico del mundo "
            "sobrenatural en general."
        ),
    ),
    _skill(
        "Pericias",
        "mental",
        (
            "Trabajos manuales, arreglar motores, construir ingenios mecánicos, electrónica, "
            "pintura,etc."
        ),
    ),
    _skill(
        "Política y leyes",
        "mental",
        (
            "Conocimientos sobre el poder y su estructura. Quien gobierna, como lo hace y que "
            "leyes lo gestionan."
        ),
    ),
    _skill(
        "Armamento",
        "physical",
        (
            "Manejo de armas cuerpo a cuerpo. Bastones, espadas, lanzas, bates de baseball, "
            "hachas de incendios, etc."
        ),
    ),
    _skill(
        "Armas de Fuego",
        "physical",
        (
            "Ballestas, ametralladoras pesadas, pistolas, revólveres, escopetas, rifles de "
            "asalto o precisión, etc."
        ),
    ),
    _skill(
        "Atletismo",
        "physical",
        (
            "Acrobacias, Atletismo, Nadar, Trepar, Saltar, Esquivar. Piragüismo, Hockey. "
            "Lanzamiento. Equitación."
        ),
    ),
    _skill(
        "Conducir",
        "physical",
        (
            "Carné de conducir. Coches. Motos. Con puntuaciones altas puede mantener "
            "persecuciones de película."
        ),
    ),
    _skill(
        "Fullerías",
        "physical",
        (
            "Abrir cerraduras, inutilizar sistemas de seguridad, trucos de manos, ocultación de "
            "objetos, prestidigitación."
        ),
    ),
    _skill(
        "Pelea",
        "physical",
        (
            "Combate desarmado. Patada, puñetazo, rodillazo, cabezazo, bloqueo, gancho alto, "
            "Tai Chi, Karate, Judo."
        ),
    ),
    _skill(
        "Sigilo",
        "physical",
        (
            "Moverse silenciosamente, sin ser visto, escuchado, tocado, olido, o lo que sea. "
            "Que no te pillen cuando actúas."
        ),
    ),
    _skill(
        "Supervivencia",
        "physical",
        (
            "Encontrar refugio en terreno hostil, resistir las condiciones más adversas. Juegos "
            "del Hambre."
        ),
    ),
    _skill(
        "Callejeo",
        "social",
        (
            "Conocimiento de las calles. Mercado negro. Mundo de la delincuencia. Fundirse con "
            "el entorno social."
        ),
    ),
    _skill(
        "Empatía",
        "social",
        (
            "Leer y comprender las emociones, mentiras, puntos de vista y lugar de la gente. "
            "Inteligencia Emocional."
        ),
    ),
    _skill(
        "Expresión",
        "social",
        (
            "Habilidad de retórica, comunicar o entretener. Expresar a través del arte, como "
            "canto, música, oratoria, danza..."
        ),
    ),
    _skill(
        "Intimidación",
        "social",
        (
            "La capacidad de tu personaje para infundir miedo en los demás. Incluye tortura y "
            "esas cosas bonitas."
        ),
    ),
    _skill(
        "Persuasión",
        "social",
        (
            "Inspirar. Cambiar de opinión través de la lógica, el encanto o la verborrea. "
            "Argumentos irrefutables."
        ),
    ),
    _skill(
        "Sociedad",
        "social",
        (
            "Conocimientos sobre la organización de la sociedad, etiqueta, modales y "
            "comportamiento en cada situación."
        ),
    ),
    _skill(
        "Subterfugio",
        "social",
        "El arte del engaño. Mentir, ocultar emociones, fingir emociones... y que no te pillen.",
    ),
    _skill(
        "Trato Animal",
        "social",
        (
            "Comprensión animal. Comportamiento, necesidades, deseos, emociones, etc. "
            "Interacción con ellos."
        ),
    ),
)

# "Puntuación: • Novato. •• Practicante. ••• Competente. •••• Experto. ••••• Maestro."
SKILL_DOT_LABELS: tuple[str, ...] = ("Novato", "Practicante", "Competente", "Experto", "Maestro")

# Fuerza de Voluntad, 1 to 10: "Puntuaciones Bajas" then "Puntuaciones Altas".
WILLPOWER_LABELS: tuple[str, ...] = (
    "Débil",
    "Pusilánime",
    "Inseguro",
    "Vacilante",
    "Seguro",
    "Confiado",
    "Tenaz",
    "Firme",
    "Férreo",
    "Implacable",
)

# Health boxes from left to right (the track's last seven when it is longer).
HEALTH_LEVELS: tuple[str, ...] = (
    "Magullado",
    "Lastimado",
    "Lesionado",
    "Herido",
    "Malherido",
    "Tullido",
    "Incapacitado",
)


@dataclass(frozen=True)
class MoralTrait:
    """A Virtue or a Vice as the seed gives it.

    `possessed_by_label` keeps the seed's own heading ("Poseído por" or "Poseída por").
    """

    key: str
    name: str
    description: str
    effect: str
    possessed_by_label: str
    possessed_by: str


def _moral(
    name: str, description: str, effect: str, possessed_by_label: str, possessed_by: str
) -> MoralTrait:
    return MoralTrait(slug(name), name, description, effect, possessed_by_label, possessed_by)


VIRTUES_AND_VICES: tuple[MoralTrait, ...] = (
    _moral(
        "Caridad",
        (
            "Compasión, Misericordia. Implica compartir con los demás, ya sea dinero o "
            "posesiones o simplemente ofrecer algo de tiempo en ayudar a los demás. Un "
            "personaje caritativo se guía por el impulso de compartir lo que tiene para sí "
            "mejorar la situación de los que le rodean. Adoptando el papel del buen samaritano, "
            "esperan cultivar la buena voluntad en los demás, y que así aquello que hoy ofrecen "
            "les sea devuelto en tiempos de necesidad."
        ),
        (
            "Recupera Voluntad siempre que ayudar a otros implique riesgo para sí mismo. No es "
            "suficiente compartir lo que tu personaje posee en abundancia. Debe hacer un "
            "sacrificio real en tiempo, peligro mortal, energía, etc."
        ),
        "Poseída por",
        "Filántropos, santos, trabajadores sociales.",
    ),
    _moral(
        "Esperanza",
        (
            "Sueño, Optimismo, Utopía. Significa creer que el mal y la adversidad no pueden "
            "prevalecer, no importa lo complicadas que se vuelven las cosas. No solo confían en "
            "el triunfo último de la moralidad y decencia sobre el mal, sino que mantienen un "
            "sentido de justicia cósmica (Karma, Dios, etc). El bien terminará por imponerse."
        ),
        (
            "Recupera Voluntad cuando evita que los demás se abandonen a la desesperanza, "
            "incluso aunque ponga en riesgo sus propios objetivos o bienestar. Es similar a "
            "Fortaleza, excepto en que se esfuerza porque sean los otros los que no caigan en "
            "el desaliento. No es necesario compartir los objetivos, pero sí que debe haber "
            "riesgo."
        ),
        "Poseído por",
        "Activistas antiglobalización, empresarios, mártires, visionarios.",
    ),
    _moral(
        "Fe",
        (
            "Creencias, Convicción, Humildad, Lealtad. Saben que el universo no es aleatorio, "
            "un caos significado, sino que ha sido dispuesto por un orden superior. No importa "
            "lo horrible que el mundo puede llegar a ser, todo tiene su lugar en el Plan y "
            "sirve al propósito. No tiene por qué implicar una creencia en Dios. Quizá se trate "
            "del reconocimiento de que aparente aleatoriedad del universo no es más que una "
            "expresión de la precisión matemática. O quizá dé por hecho que todo es Uno y que "
            "incluso el mal es indistinguible del bien cuando todas las ilusiones se "
            "desvanecen."
        ),
        (
            "Recupera Voluntad cuando sea capaz de obtener significado de entre el caos y la "
            "tragedia."
        ),
        "Poseída por",
        "Detectives, filósofos, sacerdotes, científicos, creyentes.",
    ),
    _moral(
        "Fortaleza",
        (
            "Coraje, Integridad, Temple, Estoicismo. Los ideales de una persona no adquieren su "
            "pleno significado hasta que son puestos a prueba. Cuando parece que todo el mundo "
            "está en su contra, la persona capeará el temporal con sus convicciones intactas. "
            "Significa no abandonar las creencias propias sin importar cuán grande sea la "
            "tentación de olvidarlas y dejarse llevar. Manteniéndose firme, sin importar el "
            "coste, demuestra el valor de sus ideales."
        ),
        (
            "Recupera Voluntad cuando sobrelleva la presión o tentación de alterar sus "
            "objetivos. Esto no incluye distracciones temporales, solo la presión que podría "
            "obligarle a abandonar o cambiar sus metas."
        ),
        "Poseído por",
        "Dictadores, sectarios fanáticos, detectives.",
    ),
    _moral(
        "Justicia",
        (
            "Equidad, Imparcialidad. La injusticia ha de ser castigada. Es el principal "
            "precepto de los justos, de quienes creen que proteger a los inocentes y afrontar "
            "la iniquidad es la responsabilidad de las personas decentes, incluso aunque "
            "signifique a costa de ponerse en riesgo. Los justos creen que el mal no puede "
            "prosperar siempre y cuando una buena persona luche por hacer lo correcto, sin "
            "importar las consecuencias."
        ),
        (
            'Recupera Voluntad cuando haga lo correcto sin importar los riesgos que corra. "Lo '
            'correcto" vendrá definido por el código de conducta particular de cada uno; ya sea '
            "el código penal americano, o los mandamientos divinos."
        ),
        "Poseído por",
        "Críticos, jueces, padres, modelos a seguir.",
    ),
    _moral(
        "Prudencia",
        (
            "Paciencia, Vigilancia. La Virtud de la Prudencia descansa sobre la sabiduría y "
            "evita el comportamiento temerario o impulsivo. Los principios y la integridad se "
            "mantienen mediante la moderación en la acción y el intento por eludir los riesgos "
            "innecesarios. Lo que significa que una persona prudente nunca arriesgaría "
            "demasiado para conseguir grandes beneficios, ni que dejaría que su vida se "
            "arruinase por una mala tirada de dados. Escogiendo con cuidado la elección y "
            "rechazando el camino fácil, prosperará lento pero seguro."
        ),
        (
            "Recupera Voluntad cuando rechace un curso de acción tentador, con el que podría "
            'obtener una ventaja significativa. La "tentación" debe involucrar alguna '
            "recompensa, que en caso de ser rechazada, suponga un coste."
        ),
        "Poseído por",
        "Hombres de negocio, doctores, sacerdotes, científicos.",
    ),
    _moral(
        "Templanza",
        (
            "Castidad, Calma, Frugalidad. La moderación es el secreto para alcanzar la "
            "felicidad, o al menos es lo que dice la doctrina de la Templanza. Todo gira en "
            "torno al equilibrio. Todo tiene su lugar en la vida de una persona, desde la ira "
            "al perdón, desde la lujuria a la castidad. Aquellos que siguen esta Virtud no "
            "deniegan sus deseos, ya que ninguno es impío o antinatural. El problema surge "
            "cuando las cosas se llevan hasta el extremo, ya se trate de un impulso primario o "
            "noble. Demasiada justicia puede ser tan negativa como demasiada maldad."
        ),
        (
            "Recupera Voluntad cuando resista la tentación de dejarse llevar por excesos a "
            "pesar de las recompensas."
        ),
        "Poseído por",
        "Clérigos, oficiales de policía, trabajadores sociales.",
    ),
    _moral(
        "Avaricia",
        (
            "Codicia. Parsimonia. Al igual que los envidiosos, los avariciosos nunca quedan "
            "satisfechos con lo que tienen. Desean más: más dinero, una casa más grande, una "
            "mejor posición o más influencia... sin importar que lleguen a tener más de lo que "
            'pueden manejar. Para los avariciosos no existe la expresión "demasiado". Si eso '
            "significa arrebatarle a otro su bien merecida recompensa solo para aumentar sus "
            "posesiones, bueno, así funcionan las cosas."
        ),
        (
            "Recupera Voluntad cuando adquiera algo a expensas de otros. La ganancia ha de "
            "implicar cierto riesgo."
        ),
        "Poseído por",
        "Jefes oficiales ejecutivos, abogados, corredores de bolsa.",
    ),
    _moral(
        "Envidia",
        (
            "Codicia, Celos. Nunca está satisfecho con lo que tiene. No importa su riqueza o "
            "posición, siempre hay alguien más que parece estar mejor. Los envidiosos nunca "
            "están contentos con su lugar en la vida. Se dedican constantemente a buscar formas "
            "de conseguir lo que desean y a medirse con respecto a sus rivales. Podrían ser "
            "considerados paranoicos o consumidos por el rechazo hacia sí mismo que proyectan "
            "en los demás."
        ),
        (
            "Recupera Voluntad cuando obtenga algo importante de un rival o participe en daño "
            "causado a su bienestar."
        ),
        "Poseído por",
        "Celebridades, ejecutivos, políticos.",
    ),
    _moral(
        "Gula",
        (
            "Adicción, Consumismo, Epicureismo. Implica abandonarse a los apetitos sin importar "
            "el resto; dedicarse a los placeres sensuales o superar un nuevo límite. Un glotón "
            "hará cualquier sacrificio por alimentar su insaciable apetito de placer, sin tener "
            "en cuenta el coste para los que lo rodean. Podría ser considerado un adicto o un "
            "cleptomaníaco."
        ),
        (
            "Recupera Voluntad cuando no refrena su adicción o apetitos a costa de sí mismo o "
            "de un ser querido."
        ),
        "Poseído por",
        "Celebridades, drogadictos, ladrones.",
    ),
    _moral(
        "Ira",
        (
            "Conducta antisocial, Irascibilidad, Sadismo. Los coléricos buscan la forma de "
            "descargar su rabia y frustración sobre la gente u objetos a la mínima provocación. "
            "En la mayoría de las situaciones, la reacción es desproporcionada. Una persona "
            "irascible que se siente insultada en la carretera quizá trate de echar al otro "
            "conductor fuera de la calzada, o un policía podrá deleitarse atizando a cada "
            "arrestado, sin importar el crimen de que se trate."
        ),
        (
            "Recupera Voluntad cuando descargue su furia en una situación donde hacerlo es "
            "peligroso. Si la lucha ya ha comenzado, no servirá. Debe efectuarse en una "
            "situación donde la ira es inapropiada o injustificada."
        ),
        "Poseído por",
        "Matones, sargentos de hierro, secuaces.",
    ),
    _moral(
        "Lujuria",
        (
            "Lascivia, Impaciencia, Impetuosidad. Deseo sin control. La pasión hacia algo "
            "(habitualmente sexo) es la que mueve al lujurioso, sin importarle las necesidades "
            "o sentimientos de los demás. Un sujeto lujurioso hará uso de todos los medios a su "
            "disposición para satisfacer sus deseos, desde el engaño a la manipulación, pasando "
            "por la violencia. Tu personaje está consumido por la pasión hacia algo."
        ),
        (
            "Recupera Voluntad cuando satisface su lujuria o compulsión de forma que "
            '"sacrifica" a los demás.'
        ),
        "Poseído por",
        "Productores de películas, políticos, estrellas de rock.",
    ),
    _moral(
        "Orgullo",
        (
            "Arrogancia, Egoísmo, Vanidad. El Orgullo es el Vicio del exceso de confianza en "
            "uno mismo. es la creencia de que cada acción que uno realiza es correcta de manera "
            "inherente, incluso cuando resulta obvio que no es así. Una persona orgullosa nunca "
            "se retractará cuando su decisión o reputación se cuestiona, incluso cuando su "
            "error es evidente. Su ego no acepta el fracaso, y está dispuesto a ver sufrir a "
            "los demás antes que admitir su equivocación."
        ),
        (
            "Recupera Voluntad cuando impone sus deseos (no necesidades) sobre los demás, "
            "aunque impliquen riesgo."
        ),
        "Poseído por",
        "Ejecutivos corporativos, estrellas de cine, matones.",
    ),
    _moral(
        "Pereza",
        (
            "Apatía, Cobardía, Ignorancia. El Vicio de la Pereza consiste en evitar trabajar "
            "hasta que otro realiza la tarea por uno. En lugar de esforzarse (y así arriesgarse "
            "al fracaso) en una situación complicada, la persona perezosa se niega a hacer "
            "nada, puesto que sabe que tarde o temprano otro se encargará del problema. Si la "
            "gente sufre sin necesidad en tal empeño mientras el perezoso permanece sentado, no "
            "importa una mierda."
        ),
        (
            "Recupera Voluntad cuando evita con éxito un tarea difícil pero consigue el "
            "objetivo a pesar de todo."
        ),
        "Poseído por",
        'Vagos, pasotas, "culos de sillón".',
    ),
)
VIRTUES: tuple[MoralTrait, ...] = VIRTUES_AND_VICES[:7]
VICES: tuple[MoralTrait, ...] = VIRTUES_AND_VICES[7:]
del VIRTUES_AND_VICES


@dataclass(frozen=True)
class MeritDef:
    """A merit: the ratings it may have, and whether it can only be taken at creation.

    `ratings` lists every allowed rating in increasing order; most merits allow a
    contiguous range, some only fixed values (Apariencia Llamativa: 2 or 4).
    `repeatable` merits may appear more than once on a sheet (one per language,
    group of allies, retainer or organisation).
    """

    key: str
    name: str
    category: str
    ratings: tuple[int, ...]
    description: str
    creation_only: bool = False
    repeatable: bool = False

    @property
    def minimum(self) -> int:
        return self.ratings[0]

    @property
    def maximum(self) -> int:
        return self.ratings[-1]

    def allows(self, rating: int) -> bool:
        return rating in self.ratings

    def next_rating(self, current: int) -> int | None:
        """The next allowed rating above `current` (0 = not yet taken), or None at the top."""
        return next((rating for rating in self.ratings if rating > current), None)

    @property
    def ratings_text(self) -> str:
        """ "1–5" for a contiguous range, "2, 4" otherwise, "3" for a single rating."""
        return format_ratings(self.ratings)


def format_ratings(ratings: tuple[int, ...]) -> str:
    if len(ratings) > 2 and ratings == tuple(range(ratings[0], ratings[-1] + 1)):
        return f"{ratings[0]}–{ratings[-1]}"
    return ", ".join(str(rating) for rating in ratings)


# Custom merits (not in the catalogue) may have 1 to 5 dots.
CUSTOM_MERIT_RATINGS: tuple[int, ...] = (1, 2, 3, 4, 5)


def _merit(
    name: str,
    category: str,
    ratings: tuple[int, ...] | range,
    description: str,
    *,
    creation_only: bool = False,
    repeatable: bool = False,
) -> MeritDef:
    return MeritDef(
        slug(name), name, category, tuple(ratings), description, creation_only, repeatable
    )


# The seed has no list of merits: it only says some can be bought only at the start of
# play and names Recursos. We ship the core merits (docs/rules.md#tinieblas-merit-catalogue):
# names and dots follow the core Mundo de Tinieblas rulebook (Spanish edition names), and
# the descriptions are our own one-line summaries, not seed text. Creation-only:
# Ambidiestro and Gigante.
MERITS: tuple[MeritDef, ...] = (
    # Mentales
    _merit(
        "Sentido Común",
        "mental",
        (4,),
        "Una vez por capítulo puede pedir consejo al Narrador sobre lo que se dispone a hacer.",
    ),
    _merit(
        "Sentido del Peligro",
        "mental",
        (2,),
        "+2 a las tiradas para advertir una emboscada o un peligro inminente.",
    ),
    _merit(
        "Memoria Eidética",
        "mental",
        (2,),
        "Recuerda con detalle casi todo lo que ha visto u oído; +2 para recordar datos.",
    ),
    _merit(
        "Conocimiento Enciclopédico",
        "mental",
        (4,),
        "Puede saber datos sueltos de cualquier tema aunque no tenga la Habilidad.",
    ),
    _merit(
        "Conciencia Holística",
        "mental",
        (3,),
        "Trata dolencias y heridas con remedios naturales, sin instrumental médico.",
    ),
    _merit(
        "Idioma",
        "mental",
        (1,),
        "Habla, lee y escribe una lengua además de la materna. Se toma una vez por idioma.",
        repeatable=True,
    ),
    _merit(
        "Mente Meditativa",
        "mental",
        (1,),
        "Medita sin sufrir penalizaciones por las distracciones del entorno.",
    ),
    _merit(
        "Sentido Oculto",
        "mental",
        (3,),
        "Intuye vagamente la presencia de un tipo de fenómeno sobrenatural.",
    ),
    # Físicos
    _merit(
        "Ambidiestro",
        "physical",
        (3,),
        "No sufre penalización por usar la mano torpe. Solo al crear el personaje.",
        creation_only=True,
    ),
    _merit(
        "Esquiva (Pelea)",
        "physical",
        (1,),
        "Al esquivar, suma su Pelea a la Defensa en lugar de duplicarla.",
    ),
    _merit(
        "Sentido de la Orientación",
        "physical",
        (1,),
        "Sabe siempre dónde está el norte y rara vez se pierde.",
    ),
    _merit(
        "Desarmar",
        "physical",
        (2,),
        "Con un ataque de Armamento puede quitarle el arma al adversario.",
    ),
    _merit(
        "Reflejos Rápidos",
        "physical",
        range(1, 3),
        "+1 a la Iniciativa por punto.",
    ),
    _merit(
        "Destreza en el Combate",
        "physical",
        (2,),
        "Ataca con Destreza en lugar de Fuerza con un arma de Armamento elegida.",
    ),
    _merit(
        "Estilo de Lucha: Boxeo",
        "physical",
        range(1, 6),
        "Maniobras de boxeo; cada punto da acceso a una nueva.",
    ),
    _merit(
        "Estilo de Lucha: Kung Fu",
        "physical",
        range(1, 6),
        "Maniobras de artes marciales; cada punto da acceso a una nueva.",
    ),
    _merit(
        "Estilo de Lucha: Dos Armas",
        "physical",
        range(1, 5),
        "Maniobras para luchar con un arma en cada mano; cada punto da acceso a una nueva.",
    ),
    _merit(
        "Pies Ligeros",
        "physical",
        range(1, 4),
        "+1 a la Velocidad por punto.",
    ),
    _merit(
        "Gigante",
        "physical",
        (4,),
        "Tamaño 6 en lugar de 5, con la Salud que eso supone. Solo al crear el personaje.",
        creation_only=True,
    ),
    _merit(
        "Pistolero",
        "physical",
        (3,),
        "Con una pistola en cada mano, dispara con ambas en el mismo turno.",
    ),
    _merit(
        "Aguante de Hierro",
        "physical",
        range(1, 4),
        "Cada punto anula un dado de penalización por cansancio o heridas.",
    ),
    _merit(
        "Estómago de Hierro",
        "physical",
        (2,),
        "Come casi cualquier cosa, incluso en mal estado, sin enfermar.",
    ),
    _merit(
        "Inmunidad Natural",
        "physical",
        (1,),
        "+2 para resistir enfermedades e infecciones.",
    ),
    _merit(
        "Desenfundado Rápido",
        "physical",
        (1,),
        "Desenfunda o prepara un arma elegida sin gastar una acción.",
    ),
    _merit(
        "Curación Rápida",
        "physical",
        (4,),
        "Recupera la Salud en la mitad del tiempo habitual.",
    ),
    _merit(
        "Espalda Fuerte",
        "physical",
        (1,),
        "+1 a las tiradas para levantar o cargar peso.",
    ),
    _merit(
        "Pulmones Fuertes",
        "physical",
        (3,),
        "Aguanta la respiración el doble de tiempo de lo normal.",
    ),
    _merit(
        "Conductor Especialista",
        "physical",
        (3,),
        "Puede conducir y hacer otra acción a la vez sin tener que tirar por la conducción.",
    ),
    _merit(
        "Resistencia a las Toxinas",
        "physical",
        (2,),
        "+2 para resistir drogas, venenos y toxinas.",
    ),
    _merit(
        "Esquiva (Armamento)",
        "physical",
        (1,),
        "Al esquivar, suma su Armamento a la Defensa en lugar de duplicarla.",
    ),
    # Sociales
    _merit(
        "Aliados",
        "social",
        range(1, 6),
        "Personas o un grupo dispuestos a echarle una mano. Se toma una vez por grupo.",
        repeatable=True,
    ),
    _merit(
        "Asiduo",
        "social",
        (1,),
        "Entra en bares, clubes y fiestas como si fuera un cliente de toda la vida.",
    ),
    _merit(
        "Contactos",
        "social",
        range(1, 6),
        "Fuentes de información; cada punto es un ámbito (policía, prensa, calle...).",
    ),
    _merit(
        "Fama",
        "social",
        range(1, 4),
        "Es conocido: +1 por punto a las tiradas sociales con quien le reconoce.",
    ),
    _merit(
        "Inspirador",
        "social",
        (4,),
        "Anima a los demás en situaciones difíciles para que recuperen Voluntad.",
    ),
    _merit(
        "Mentor",
        "social",
        range(1, 6),
        "Un maestro o protector que le aconseja y le ayuda.",
    ),
    _merit(
        "Recursos",
        "social",
        range(1, 6),
        "Dinero y bienes de los que dispone. Subirlo con experiencia exige explicar "
        "cómo consigue el personaje más ingresos.",
    ),
    _merit(
        "Sirviente",
        "social",
        range(1, 6),
        "Un ayudante leal a su servicio; los puntos miden su valía. Uno por sirviente.",
        repeatable=True,
    ),
    _merit(
        "Estatus",
        "social",
        range(1, 6),
        "Posición reconocida dentro de un grupo u organización. Uno por organización.",
        repeatable=True,
    ),
    _merit(
        "Apariencia Llamativa",
        "social",
        (2, 4),
        "Su aspecto atrae las miradas: +1 (2 puntos) o +2 (4 puntos) a las tiradas "
        "sociales en las que cuenta la apariencia.",
    ),
)


@dataclass(frozen=True)
class RubricLevel:
    """One level of an XP rubric: the points it awards and the seed's caption."""

    points: int
    caption: str

    @property
    def short(self) -> str:
        """The caption's first sentence ("Chupi"), or the whole caption if it has one."""
        head, sep, _ = self.caption.partition(". ")
        return head if sep else self.caption


@dataclass(frozen=True)
class XpRubric:
    """How the GM grades one part of a scene ("Interpretación", "Ideas", "Diario")."""

    key: str
    name: str
    levels: tuple[RubricLevel, ...]
    description: str = ""

    @property
    def minimum(self) -> int:
        return self.levels[0].points

    @property
    def maximum(self) -> int:
        return self.levels[-1].points

    def caption(self, points: int) -> str:
        for level in self.levels:
            if level.points == points:
                return level.caption
        raise RuleError(
            gettext_noop("%(name)s must be between %(low)s and %(high)s"),
            name=self.name,
            low=self.minimum,
            high=self.maximum,
        )


# "Ganar Experiencia": each scene, each player's diary receives these PX.
XP_INTERPRETACION = XpRubric(
    "interpretacion",
    "Interpretación",
    (
        RubricLevel(1, "Escasa. Pocas descripciones y breves; desmanes ortográficos o semánticos."),
        RubricLevel(2, "Normal. Lo habitual."),
        RubricLevel(
            3,
            "Chupi. Descripciones largas, logradas, evocadoras. Si no fuera porque un DJ no "
            "tiene sentimientos lloraría.",
        ),
        RubricLevel(4, "¿Qué haces jugando al rol cuando deberías estar escribiendo un libro?"),
    ),
)
XP_IDEAS = XpRubric(
    "ideas",
    "Ideas",
    (
        RubricLevel(1, "Pocas. Deja de dejarte llevar por el Máster."),
        RubricLevel(2, "Normales. A veces tiras bien, a veces hay que empujarte."),
        RubricLevel(3, "Cienes y cienes. La partida fluye gracias a ti."),
        RubricLevel(4, "En serio, ¿para qué necesitas Máster?"),
    ),
)
# The seed explains the diary but gives no caption per level: captions stay empty and
# the form shows the number with the seed's explanation.
XP_DIARIO = XpRubric(
    "diario",
    "Diario",
    tuple(RubricLevel(points, "") for points in range(0, 5)),
    description=(
        "El diario, escena personal o como quiera que esté llamada, sirve para que vosotros "
        "pongáis vuestros asuntillos personales y vuestras auto-notas. Es una prolongación de "
        "la historia, y como tal, recibirá experiencia o beneficios en forma de trasfondos, "
        "contactos, etcétera. Cada diario es un mundo y puede montarse como de la gana al "
        "dueño.\n"
        "No obstante, el diario NO es obligatorio. No es más que una fuente de PX, contactos y "
        "útiles merecida para el jugador constante y concienzudo, que no afectará en absoluto "
        "al resto de jugadores."
    ),
)
XP_RUBRICS: tuple[XpRubric, ...] = (XP_INTERPRETACION, XP_IDEAS, XP_DIARIO)


@dataclass(frozen=True)
class XpOther:
    """A line of "Otros": a fixed or small extra award with the seed's caption."""

    key: str
    caption: str
    minimum: int
    maximum: int


XP_OTHERS: tuple[XpOther, ...] = (
    XpOther("universo", "1 PX siempre, por estar en el universo.", 1, 1),
    XpOther("constancia", "1 PX Constancia (Consistencia).", 0, 1),
    XpOther("sobornos", "1-5 PX Sobornos al máster.", 0, 5),
)


def _index(items, kind: str) -> dict:
    index = {item.key: item for item in items}
    assert len(index) == len(items), f"duplicate {kind} key"
    return index


_ATTRIBUTES = _index(ATTRIBUTES, "attribute")
_SKILLS = _index(SKILLS, "skill")
_MERITS = _index(MERITS, "merit")
_VIRTUES = _index(VIRTUES, "virtue")
_VICES = _index(VICES, "vice")


def attribute(key: str) -> AttributeDef:
    try:
        return _ATTRIBUTES[key]
    except (KeyError, TypeError):
        raise RuleError(gettext_noop("Unknown attribute “%(key)s”"), key=key) from None


def skill(key: str) -> TraitDef:
    try:
        return _SKILLS[key]
    except (KeyError, TypeError):
        raise RuleError(gettext_noop("Unknown skill “%(key)s”"), key=key) from None


def merit(key: str) -> MeritDef:
    try:
        return _MERITS[key]
    except (KeyError, TypeError):
        raise RuleError(gettext_noop("Unknown merit “%(key)s”"), key=key) from None


def virtue(key: str) -> MoralTrait:
    try:
        return _VIRTUES[key]
    except (KeyError, TypeError):
        raise RuleError(gettext_noop("Unknown Virtue “%(key)s”"), key=key) from None


def vice(key: str) -> MoralTrait:
    try:
        return _VICES[key]
    except (KeyError, TypeError):
        raise RuleError(gettext_noop("Unknown Vice “%(key)s”"), key=key) from None


def find_merit(name_or_key: str) -> MeritDef | None:
    """The catalogue merit for a key or a name ("Recursos", "recursos"), else None (custom)."""
    if not isinstance(name_or_key, str):
        return None
    return _MERITS.get(name_or_key) or _MERITS.get(slug(name_or_key))


def skill_label(rating: int) -> str:
    """ "Competente" for 3; empty for 0 (no dots)."""
    if not 0 <= rating <= len(SKILL_DOT_LABELS):
        raise RuleError(gettext_noop("Skill ratings go from 0 to 5"))
    return SKILL_DOT_LABELS[rating - 1] if rating else ""


def willpower_label(rating: int) -> str:
    """ "Débil" for 1 … "Implacable" for 10."""
    if not 1 <= rating <= len(WILLPOWER_LABELS):
        raise RuleError(gettext_noop("Willpower goes from 1 to 10"))
    return WILLPOWER_LABELS[rating - 1]


def attributes_in(category: str) -> tuple[AttributeDef, ...]:
    return tuple(item for item in ATTRIBUTES if item.category == category)


def skills_in(category: str) -> tuple[TraitDef, ...]:
    return tuple(item for item in SKILLS if item.category == category)
