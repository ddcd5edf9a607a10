"""Demo data for `seed_demo`: the campaign and two complete sheets, one for "ana" and one
for "bruno"."""

DEMO_CAMPAIGN = ("La Biblioteca Sumergida", "Misterio y aspectos en una ciudad costera.")

DEMO_CHARACTERS: list[dict] = [
    {
        "owner": "ana",
        "name": "Irene Valdés",
        "concept": "Archivera que oye a los ahogados",
        "description": "Trabaja de noche en la Biblioteca Sumergida, entre legajos que "
        "huelen a sal.",
        "ratings": {
            "fortaleza": 3,
            "reflejos": 4,
            "voluntad": 6,
            "intelecto": 7,
            "cultura": 6,
            "percepcion": 5,
            "profesion": 4,
            "interaccion": 3,
            "subterfugio": 2,
            "forma_fisica": 2,
            "combate": 1,
        },
        "aspects": [
            ("concepto", "Archivera que oye a los ahogados"),
            ("cita", "«Todo lo que se hunde acaba saliendo a flote»"),
            ("hito", "Encontré el diario del capitán Aranda"),
            ("hito", "Sobreviví a la riada de 1998"),
            ("hito", "Mi maestra me dejó las llaves del sótano"),
            ("hito", "Leo la letra de los muertos"),
            ("complicacion", "Pánico al agua profunda"),
        ],
    },
    {
        "owner": "bruno",
        "name": "Tomás Lérez",
        "concept": "Buzo de salvamento retirado",
        "description": "Manos grandes, pulmones de acero y una deuda con el mar.",
        "ratings": {
            "fortaleza": 6,
            "reflejos": 5,
            "voluntad": 4,
            "intelecto": 3,
            "forma_fisica": 6,
            "profesion": 5,
            "combate": 4,
            "percepcion": 3,
            "interaccion": 2,
            "subterfugio": 1,
            "cultura": 1,
        },
        "aspects": [
            ("concepto", "Buzo de salvamento retirado"),
            ("cita", "«Ahí abajo no hay héroes, solo aire que se acaba»"),
            ("hito", "Saqué a seis marineros del Santa Clara"),
            ("hito", "Perdí a mi compañero en el pecio del faro"),
            ("hito", "El sindicato del puerto me debe un favor"),
            ("hito", "Conozco cada cueva de la costa"),
            ("complicacion", "Bebe para olvidar el pecio"),
        ],
        "items": [
            ("armour", "Chaqueta de cuero del puerto", "3", {"rd": 1}),
            ("item", "Linterna de buceo", "1", {}),
        ],
    },
]

# A chronicle already under way (mechanics/demo.py: seed_chronicle).
DEMO_CHRONICLE: dict = {
    "story": (
        "Las voces bajo el agua",
        "La marea deja libros empapados en la puerta de la biblioteca, y Irene oye quién "
        "los dejó.",
    ),
    "scenes": [
        ("La marea de libros", "Biblioteca municipal", "Amanece con **cuarenta tomos** mojados."),
        ("El pecio del «Santa Rita»", "Bahía, doce metros bajo el agua", "Tomás baja primero."),
        ("La sala de lectura cerrada", "Sótano de la biblioteca", "Una llave que no abre nada."),
    ],
    "diaries": {
        "ana": (
            "Los ahogados no gritan: susurran números de catálogo.",
            "Tengo que encontrar la signatura 7-C antes de la próxima marea.",
        ),
        "bruno": (
            "El casco del pecio está limpio. Demasiado limpio.",
            "Mañana bajo sin cabo de vida. No se lo digáis a Irene.",
        ),
    },
    "note": "La directora de la biblioteca es quien deja los libros. Quiere que la encuentren.",
    "kinds": {"attack": {"characteristic": "reflejos", "skill": "combate"}},
    "damage": {"amount": 6, "rd": 0},
    "damage_reason": "Un golpe contra el casco del pecio",
    "heal_hours": 72,
    "heal_reason": "Tres días en tierra",
    "secret_label": "¿Notan la presencia en el agua?",
    # The GM lets a drama point raise a skill: Irene's spend of one waits for approval.
    "settings": {"hitos_drama_sacrifice": True},
    "purchase": ("drama", "percepcion"),
    "saved": {
        "ana": ("Escuchar a los ahogados", {"kind": "check", "characteristic": "intelecto",
                                            "skill": "percepcion", "difficulty": "15"}),
        "bruno": ("Bucear", {"kind": "check", "characteristic": "fortaleza",
                             "skill": "forma_fisica", "difficulty": "15"}),
    },
}  # fmt: skip
