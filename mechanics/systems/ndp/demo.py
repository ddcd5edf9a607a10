"""Demo data for `seed_demo`: the campaign and two complete sheets, one for "ana" and one
for "bruno"."""

DEMO_CAMPAIGN = ("Las Marcas del Norte", "Exploración, maná y acero en la frontera.")

DEMO_CHARACTERS: list[dict] = [
    {
        "owner": "ana",
        "name": "Sigrid de Valdemora",
        "concept": "Exploradora y cartógrafa de la frontera",
        "description": "Dibuja los mapas que otros usan para morir un poco menos.",
        "ratings": {
            "percibir": 4,
            "geografia": 5,
            "correr": 3,
            "escalar": 3,
            "combate_a_dist": 4,
            "esquivar": 2,
            "fortitud": 2,
            "vitalidad": 2,
            "voluntad": 2,
            "arcano": 1,
            "esconderse": 3,
        },
        "items": [
            ("item", "Cuerda de cáñamo (15 m)", "3", {}),
            ("item", "Útiles de cartografía", "2", {}),
            ("armour", "Gambesón", "4", {"part": "torso", "rd": 2, "integrity": 6}),
            (
                "weapon",
                "Arco corto",
                "1",
                {
                    "sides": 6,
                    "damage_type": "cortante",
                    "integrity": 8,
                    "count": 1,
                    "fixed": 0,
                    "skill": "combate_a_dist",
                },
            ),
            ("shield", "Rodela", "3", {"gdc": 2, "integrity": 6}),
        ],
    },
    {
        "owner": "bruno",
        "name": "Oswin el Herrero",
        "concept": "Mercenario y herrero itinerante",
        "description": "Repara lo que rompe, y rompe bastante.",
        "ratings": {
            "fortitud": 4,
            "vitalidad": 3,
            "combate_c_a_c": 5,
            "interceptar": 3,
            "pelea": 3,
            "artesania": 4,
            "intimidar": 2,
            "alerta": 2,
            "voluntad": 2,
            "religion": 1,
        },
        "details": {"deities": {"forjador": "El Forjador"}},
        "pools": {"fe_forjador": 3},
        "items": [
            ("item", "Herramientas de herrero", "6", {}),
            ("armour", "Cota de malla", "10", {"part": "torso", "rd": 4, "integrity": 10}),
            ("armour", "Yelmo", "2", {"part": "cabeza", "rd": 3, "integrity": 6}),
            (
                "weapon",
                "Espada larga",
                "1.5",
                {
                    "sides": 8,
                    "damage_type": "cortante",
                    "integrity": 10,
                    "count": 1,
                    "fixed": 0,
                    "skill": "combate_c_a_c",
                },
            ),
            ("shield", "Escudo de roble", "5", {"gdc": 4, "integrity": 10}),
        ],
    },
]

# A chronicle already under way (mechanics/demo.py: seed_chronicle).
DEMO_CHRONICLE: dict = {
    "story": (
        "El paso de los lobos",
        "Una caravana de sal desaparece en el paso del norte. El margrave paga en plata.",
    ),
    "scenes": [
        ("La caravana vacía", "Paso de Hielo", "Carros volcados y **ni una huella**."),
        ("Emboscada en el desfiladero", "Desfiladero de Valdemora", "Flechas desde las rocas."),
        ("El santuario de la loba", "Bosque de los Abedules", "Un altar con sal fresca."),
    ],
    "diaries": {
        "ana": (
            "Dibujé el paso en el mapa: las huellas acaban en el hielo, como si volaran.",
            "Si el santuario es lo que creo, la sal era una ofrenda.",
        ),
        "bruno": (
            "La espada aguantó. Mi hombro, no tanto.",
            "Hay que afilar antes de subir al bosque.",
        ),
    },
    "note": "Los bandidos trabajan para la sacerdotisa de la loba. La caravana vive.",
    "kinds": {
        "attack": {"skill": "combate_c_a_c", "adversity": "12"},
        "arcane": {"by": ("ana",), "gesture_poder": "1", "label": "Chispa en la yesca"},
        "dispel": {"by": ("ana",), "original_adversity": "2"},
        "crafting": {"by": ("ana",), "artefact": "bengala"},
        "divine": {"by": ("bruno",), "deity": "forjador", "faith": "1"},
        "summon": {
            "by": ("ana",),
            "creature": "Cuervo de la frontera",
            "school": "bestiologia",
            "creature_voluntad": "1",
        },
    },
    # The GM's two-sided rolls (mechanics/demo.py: _two_sided_rolls).
    "two_sided": [
        ("opposed", "¿Quién oye antes a los lobos?", {
            "a": ("ana", {"skill": "percibir", "dice": "3"}),
            "b": ("bruno", {"skill": "alerta", "dice": "3"}),
        }),
    ],
    "damage": {"amount": 6, "damage_type": "cortante", "part": "torso"},
    "damage_reason": "Una flecha en el desfiladero",
    "heal_hours": 72,
    "heal_reason": "Tres días en la aldea",
    "secret_label": "¿Los vigilan desde las rocas?",
    "purchase": None,
    "saved": {
        "ana": ("Buscar rastros", {"kind": "check", "skill": "percibir", "dice": "3"}),
        "bruno": ("Estocada", {"kind": "check", "skill": "combate_c_a_c", "dice": "3"}),
    },
}  # fmt: skip
