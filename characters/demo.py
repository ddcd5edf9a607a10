"""Demo sheets for `seed_demo`: two complete characters per system, one for "ana" and
one for "bruno", made through the services like any sheet. Safe to run again: a sheet
that already exists (same campaign, owner and name) is left alone.

The Mundo de Tinieblas sheets follow every creation rule (5/4/3, 11/7/4, three
specialties, seven merit dots), so they need no approval over budget.
"""

from __future__ import annotations

from characters import services
from characters.models import Character

DEMO_CHARACTERS: dict[str, list[dict]] = {
    "tinieblas": [
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
    ],
    "hitos": [
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
        },
    ],
    "ndp": [
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
    ],
    "objetivo": [
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
    ],
}


def seed_characters(campaign, users: dict) -> list[Character]:
    """The campaign's demo sheets, created the first time only; returns the new ones."""
    created = []
    for sheet in DEMO_CHARACTERS[campaign.system]:
        owner = users[sheet["owner"]]
        if Character.objects.filter(campaign=campaign, owner=owner, name=sheet["name"]).exists():
            continue
        character = services.character_create(
            campaign=campaign,
            user=owner,
            owner=owner,
            name=sheet["name"],
            concept=sheet["concept"],
            description=sheet["description"],
            ratings=sheet["ratings"],
            details=sheet.get("details", {}),
            specialties=sheet.get("specialties", ()),
            merits=sheet.get("merits", ()),
            aspects=sheet.get("aspects", ()),
        )
        if sheet.get("notes"):
            services.character_update(character=character, user=owner, notes=sheet["notes"])
        for kind, name, weight, data in sheet.get("items", ()):
            services.item_add(
                character=character, user=owner, kind=kind, name=name, weight_kg=weight, data=data
            )
        if sheet.get("destiny_points"):
            services.resource_adjust(
                character=character,
                user=owner,
                key="destiny_points",
                delta=sheet["destiny_points"],
            )
        created.append(character)
    return created
