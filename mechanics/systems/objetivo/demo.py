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
        "destiny_points": 2,
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
        "destiny_points": 1,
    },
]
