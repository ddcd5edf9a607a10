"""Demo data for `seed_demo`: the campaign and two complete sheets, one for "ana" and one
for "bruno"."""

DEMO_CAMPAIGN = ("Operación Medianoche", "Espionaje y tiroteos con el dado objetivo.")

DEMO_CHARACTERS: list[dict] = [
    {
        "owner": "ana",
        "name": "Carmen Vidal",
        "concept": "Agente doble en Lisboa",
        "description": "Sonríe a todos; no confía en nadie.",
        "ratings": {
            "fuerza": 4,
            "destreza": 6,
            "resistencia": 5,
            "percepcion": 7,
            "inteligencia": 7,
            "carisma": 8,
            "armas_cc": 2,
            "armas_dist": 5,
            "pelea": 3,
            "buscar": 6,
            "juegos_de_azar": 5,
            "atletismo": 3,
            "sigilo": 6,
        },
        "details": {"specialization": "sigilo"},
        "pools": {"destiny_points": 2},
    },
    {
        "owner": "bruno",
        "name": "Fred Lennox",
        "concept": "Exboxeador reconvertido en guardaespaldas",
        "description": "Hombros de armario, paciencia de santo, revólver en la sobaquera.",
        "ratings": {
            "fuerza": 8,
            "destreza": 8,
            "resistencia": 7,
            "percepcion": 5,
            "inteligencia": 4,
            "carisma": 4,
            "armas_cc": 6,
            "armas_dist": 4,
            "pelea": 7,
            "buscar": 3,
            "juegos_de_azar": 2,
            "atletismo": 5,
            "sigilo": 2,
        },
        "details": {"specialization": "pelea"},
        "pools": {"destiny_points": 1},
    },
]

# A chronicle already under way (mechanics/demo.py: seed_chronicle).
DEMO_CHRONICLE: dict = {
    "story": (
        "El microfilm de Alfama",
        "Lisboa, 1961. Un microfilm cambia de manos tres veces en una noche.",
    ),
    "scenes": [
        ("Fado y un sobre", "Taberna de Alfama", "El contacto no llega; llega **su sombrero**."),
        ("Persecución por el tranvía 28", "Rua da Conceição", "Dos hombres de gabardina."),
        ("El puerto al amanecer", "Muelle de Santa Apolónia", "Un carguero sale a las seis."),
    ],
    "diaries": {
        "ana": (
            "El sombrero tenía un forro cosido a mano. Dentro, una llave de consigna.",
            "No confío en Londres. Tampoco en Fred, pero menos en Londres.",
        ),
        "bruno": (
            "Tumbé a uno en la escalera. El otro sacó una Walther.",
            "Si sale el carguero, nos vamos con él.",
        ),
    },
    "note": "El segundo hombre de gabardina es de la PIDE y quiere desertar.",
    "kinds": {"attack": {"attribute": "destreza", "skill": "armas_dist", "weapon": "custom",
                         "defensa": "12", "damage": "1d8"}},
    # The GM's two-sided rolls (mechanics/demo.py: _two_sided_rolls).
    "two_sided": [
        ("opposed", "Un pulso por la llave de consigna", {
            "a": ("ana", {"attribute": "destreza", "skill": "juegos_de_azar"}),
            "b": ("bruno", {"attribute": "fuerza", "skill": "pelea"}),
        }),
    ],
    "damage": {"amount": 7},
    "damage_reason": "Un disparo de rozón en la escalera",
    "heal_hours": 72,
    "heal_reason": "Tres días escondidos",
    "secret_label": "¿Los sigue la PIDE?",
    "purchase": None,
    "saved": {
        "ana": ("Registrar", {"kind": "skill", "attribute": "percepcion", "skill": "buscar"}),
        "bruno": ("Puñetazo", {"kind": "skill", "attribute": "fuerza", "skill": "pelea"}),
    },
}  # fmt: skip
