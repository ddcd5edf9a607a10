"""Demo data for `seed_demo`: the campaign and two complete sheets, one for "ana" and one
for "bruno".

They follow every creation rule (5/4/3, 11/7/4, three specialties, seven merit dots), so
they need no approval over budget.
"""

DEMO_CAMPAIGN = ("Sombras sobre Madrid", "Una crónica urbana de Mundo de Tinieblas.")

DEMO_CHARACTERS: list[dict] = [
    {
        "owner": "ana",
        "name": "Elena Roldán",
        "concept": "Forense del Anatómico Forense de Madrid",
        "description": "Metódica, ojerosa, siempre con olor a formol. Ha visto cadáveres "
        "que no deberían haberse levantado.",
        "notes": "Su hermano desapareció en los túneles de la línea 5.",
        "ratings": {
            # Mental 5 · Physical 4 · Social 3 extra dots.
            "inteligencia": 3,
            "astucia": 3,
            "aplomo": 2,
            "fuerza": 2,
            "destreza": 3,
            "resistencia": 2,
            "presencia": 2,
            "manipulacion": 2,
            "compostura": 2,
            # Mental 11 · Physical 7 · Social 4.
            "academicismo": 2,
            "ciencia": 3,
            "investigacion": 3,
            "medicina": 3,
            "atletismo": 2,
            "conducir": 2,
            "armas_de_fuego": 1,
            "sigilo": 2,
            "empatia": 2,
            "persuasion": 2,
            "fuerza_de_voluntad": 4,
            "moralidad": 7,
        },
        "details": {"virtue": "caridad", "vice": "orgullo", "tamano": 5},
        "specialties": [
            ("medicina", "Autopsias"),
            ("investigacion", "Escenas del crimen"),
            ("ciencia", "Química"),
        ],
        "merits": [
            ("memoria_eidetica", "Memoria Eidética", 2),
            ("idioma", "Idioma (inglés)", 1),
            ("contactos", "Contactos (Policía Nacional)", 2),
            ("recursos", "Recursos", 2),
        ],
    },
    {
        "owner": "bruno",
        "name": "Mateo Ibarra",
        "concept": "Exboxeador y portero de discoteca en Malasaña",
        "description": "Nariz rota dos veces, voz suave. Protege a quien no puede protegerse.",
        "notes": "Debe dinero a la gente equivocada.",
        "ratings": {
            # Physical 5 · Social 4 · Mental 3 extra dots.
            "inteligencia": 2,
            "astucia": 2,
            "aplomo": 2,
            "fuerza": 3,
            "destreza": 3,
            "resistencia": 2,
            "presencia": 3,
            "manipulacion": 2,
            "compostura": 2,
            # Physical 11 · Social 7 · Mental 4.
            "pelea": 4,
            "atletismo": 3,
            "armamento": 2,
            "conducir": 2,
            "intimidacion": 3,
            "callejeo": 2,
            "persuasion": 2,
            "investigacion": 2,
            "medicina": 2,
            "fuerza_de_voluntad": 4,
            "moralidad": 7,
        },
        "details": {"virtue": "fortaleza", "vice": "ira", "tamano": 5},
        "specialties": [
            ("pelea", "Boxeo"),
            ("intimidacion", "Mirada fija"),
            ("conducir", "Motos"),
        ],
        "merits": [
            ("estilo_de_lucha_boxeo", "Estilo de Lucha: Boxeo", 2),
            ("reflejos_rapidos", "Reflejos Rápidos", 1),
            ("aguante_de_hierro", "Aguante de Hierro", 2),
            ("contactos", "Contactos (noche madrileña)", 2),
        ],
    },
]

# A chronicle already under way (mechanics/demo.py: seed_chronicle). The first scene is
# played and closed; the second is being played, with a fight; the third has just begun.
DEMO_CHRONICLE: dict = {
    "story": (
        "Lo que duerme bajo la línea 5",
        "Un cadáver que se mueve en el Anatómico Forense lleva a Elena y Mateo a los túneles "
        "abandonados del metro.",
    ),
    "scenes": [
        (
            "El cadáver que no se quedó quieto",
            "Instituto Anatómico Forense",
            "Madrugada. El cuerpo de la mesa 3 tiene **tierra de túnel** bajo las uñas.",
        ),
        (
            "Estación fantasma de Chamberí",
            "Andén de Chamberí",
            "Las luces de emergencia parpadean. Algo respira al fondo del túnel.",
        ),
        ("La casa de la calle del Olivar", "Lavapiés", "El hermano de Elena vivió aquí."),
    ],
    "diaries": {
        "ana": (
            "Lo anoté todo: rigor mortis invertido, pupilas dilatadas. *No era un muerto.*",
            "Chamberí huele a hierro. Mañana vuelvo con una linterna mejor.",
        ),
        "bruno": (
            "Le di al tipo con todo y ni se inmutó. Esto no es la calle.",
            "Si Elena entra en el túnel, entro yo delante.",
        ),
    },
    "note": "El vigilante del metro es un ghoul. Si le preguntan por el hermano, miente.",
    "kinds": {"extended": {"target": "6", "label": "Abrir la reja oxidada"}},
    # The GM's two-sided rolls (mechanics/demo.py: _two_sided_rolls).
    "two_sided": [
        ("opposed", "Mateo sujeta la puerta; Elena empuja", {
            "a": ("ana", {"attribute": "fuerza", "skill": "atletismo"}),
            "b": ("bruno", {"attribute": "fuerza", "skill": "atletismo"}),
        }),
        ("teamwork", "Forzar la reja entre los dos", {
            "a": ("bruno", {"attribute": "fuerza", "skill": "atletismo"}),
            "h1": ("ana", {"attribute": "destreza", "skill": "atletismo"}),
        }),
    ],
    "damage": {"amount": 2, "damage_type": "L"},
    "damage_reason": "El cadáver le muerde el antebrazo",
    "heal_hours": 48,
    "heal_reason": "Dos días de descanso",
    "secret_label": "¿Les sigue alguien?",
    "purchase": ("skill", "ocultismo"),
    "saved": {
        "ana": ("Investigar la escena", {"kind": "pool", "attribute": "inteligencia",
                                         "skill": "investigacion", "again": "10"}),
        "bruno": ("Puñetazo", {"kind": "pool", "attribute": "fuerza", "skill": "pelea",
                               "again": "10"}),
    },
}  # fmt: skip
