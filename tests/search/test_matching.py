"""What a search finds: Spanish stems, accents and capitals ignored, phrases, excluded
words, on both engines, through the real services (the index follows each write)."""

from __future__ import annotations

import pytest
from django.db import connection

from campaigns.permissions import campaign_access
from characters import services as character_services
from search.engine import Filters, search
from search.text import parse
from tests.search.conftest import diary, note, roll

pytestmark = pytest.mark.django_db


def found(world, user, typed: str, **filters) -> dict[str, list[int]]:
    access = campaign_access(user, world.campaign.pk)
    query = parse(typed)
    assert not query.problem, query.problem
    results = search(access, query, Filters(**filters))
    return {kind: [hit.object_id for hit in hits] for kind, hits in results.groups.items()}


def test_a_verb_is_found_by_another_of_its_forms(world):
    entry = diary(world, world.lucia, "Lucía prometió volver al andén con una linterna.")
    assert found(world, world.player, "prometer") == {"diary": [entry.pk]}
    assert found(world, world.player, "prometió") == {"diary": [entry.pk]}


def test_accents_and_capitals_do_not_matter(world):
    assert found(world, world.player, "perez")["character"] == [world.perez.pk]
    assert found(world, world.player, "CHAMBERI")["scene"] == [world.scene.pk]
    assert found(world, world.player, "policia")["character"] == [world.perez.pk]


def test_a_quoted_phrase_needs_its_words_together(world):
    together = diary(world, world.lucia, "El tren fantasma pasó sin parar.")
    apart = diary(world, world.perez, "Un fantasma en el tren, dicen.")
    assert set(found(world, world.gm, "tren fantasma")["diary"]) == {together.pk, apart.pk}
    assert found(world, world.gm, '"tren fantasma"')["diary"] == [together.pk]


def test_a_word_after_a_dash_is_left_out(world):
    kept = diary(world, world.lucia, "La puerta tapiada del andén.")
    diary(world, world.perez, "La puerta abierta del andén.")
    assert found(world, world.gm, "puerta -abierta")["diary"] == [kept.pk]


def test_filters_narrow_by_kind_scene_story_and_character(world):
    from campaigns import services

    other = services.scene_create(campaign=world.campaign, title="Otra escena linterna")
    entry = diary(world, world.lucia, "Una linterna rota.")
    assert set(found(world, world.gm, "linterna")) == {"scene", "diary"}
    assert found(world, world.gm, "linterna", kind="scene") == {"scene": [other.pk]}
    assert found(world, world.gm, "linterna", scene=world.scene.pk) == {"diary": [entry.pk]}
    assert found(world, world.gm, "linterna", story=world.story.pk) == {"diary": [entry.pk]}
    assert found(world, world.gm, "linterna", character=world.perez.pk) == {}


def test_the_index_follows_every_write_in_its_transaction(world):
    entry = diary(world, world.lucia, "Hablamos con el sereno.")
    assert found(world, world.gm, "sereno") == {"diary": [entry.pk]}
    diary(world, world.lucia, "Hablamos con la portera.")
    assert found(world, world.gm, "sereno") == {}
    gm_note = note(world, "El sereno miente.")
    assert found(world, world.gm, "miente") == {"note": [gm_note.pk]}
    from campaigns import services

    services.scene_note_delete(note=gm_note)
    assert found(world, world.gm, "miente") == {}
    character_services.character_update(
        character=world.lucia, user=world.player, notes="Le debe dinero al sereno."
    )
    assert found(world, world.player, "dinero") == {"sheet": [world.lucia.pk]}


def test_rolls_and_xp_reasons_are_indexed_by_the_database(world):
    made = roll(world, "Astucia + Sigilo", character=world.lucia)
    assert found(world, world.player, "sigilo") == {"roll": [made.pk]}
    entry = character_services.xp_adjust(
        character=world.lucia, user=world.gm, amount=2, reason="Salvó al sereno"
    )
    assert found(world, world.player, "salvar") == {"xp": [entry.pk]}


def test_aspects_are_found_on_the_sheet_from_creation_and_later(gm, player):
    from tests.factories import campaign_with, make_character

    campaign = campaign_with("hitos", gm, players=[player])
    # Created with its aspects in one bulk insert (the service signals it).
    sheet = make_character(campaign, player, aspects=[("concepto", "Miedo a los túneles")])
    world = type("World", (), {"campaign": campaign})
    assert found(world, player, "tunel") == {"sheet": [sheet.pk]}
    character_services.aspect_add(character=sheet, user=gm, kind="libre", text="Sabe nadar")
    assert found(world, player, "nadar") == {"sheet": [sheet.pk]}


def test_hits_are_ranked_title_before_body(world):
    from campaigns import services

    in_body = services.scene_create(
        campaign=world.campaign, title="Nada", summary="Al fondo había un espejo."
    )
    in_title = services.scene_create(campaign=world.campaign, title="El espejo")
    assert found(world, world.gm, "espejo")["scene"] == [in_title.pk, in_body.pk]


def test_rebuild_gives_back_the_same_index(world):
    from search.index import rebuild
    from search.models import SearchEntry

    diary(world, world.lucia, "Un texto cualquiera.")
    roll(world, "Fuerza + Pelea")
    before = sorted(SearchEntry.objects.values_list("kind", "object_id", "title", "body"))
    rebuild()
    after = sorted(SearchEntry.objects.values_list("kind", "object_id", "title", "body"))
    assert after == before
    assert found(world, world.gm, "pelea")["roll"]


MARKDOWN = "El **yunque** <script>alert(1)</script> [herrería](javascript:alert(1)) &amp; Ávila"
SEEN = "El yunque herrería & Ávila"


def _markdown_everywhere(world) -> list[tuple[str, int]]:
    """The same Markdown in each kind of text that renders it: (kind, id) of each."""
    from campaigns import services

    story = services.story_create(campaign=world.campaign, title="Forja", summary=MARKDOWN)
    scene = services.scene_create(
        campaign=world.campaign, title="Fragua", place="Toledo", summary=MARKDOWN
    )
    gm_note, entry = note(world, MARKDOWN), diary(world, world.lucia, MARKDOWN)
    return [("story", story.pk), ("scene", scene.pk), ("note", gm_note.pk), ("diary", entry.pk)]


def _bodies(rows: list[tuple[str, int]]) -> list[str]:
    from search.models import SearchEntry

    return [SearchEntry.objects.get(kind=kind, object_id=pk).body for kind, pk in rows]


def test_markdown_texts_are_indexed_as_their_readers_see_them(world):
    rows = _markdown_everywhere(world)
    assert _bodies(rows) == [SEEN, f"Toledo\n\n{SEEN}", SEEN, SEEN]
    everywhere = found(world, world.gm, "yunque")
    assert sorted((kind, pks[0]) for kind, pks in everywhere.items()) == sorted(rows)
    # Nor what the page hides: a script, a link's address, Markdown's marks.
    for hidden in ("alert", "javascript", "script", "amp"):
        assert found(world, world.gm, hidden) == {}, hidden


def test_the_migration_indexes_existing_markdown_as_its_readers_see_it(world):
    import importlib

    from django.apps import apps

    from search.models import SearchEntry

    rows = _markdown_everywhere(world)
    # As the index held them before: the Markdown source.
    SearchEntry.objects.filter(body__contains="yunque").update(body=MARKDOWN)
    migration = importlib.import_module("search.migrations.0004_index_visible_text")
    migration.index_visible_text(apps, None)
    assert _bodies(rows) == [SEEN, f"Toledo\n\n{SEEN}", SEEN, SEEN]
    assert found(world, world.gm, "alert") == {}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's GIN index")
def test_the_postgresql_index_keeps_no_pending_list():
    """Each write goes into the GIN index at once: with a pending list, every search
    would read through the writes since the last vacuum (megabytes on a busy campaign)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'search_entry_document'")
        assert cursor.fetchone()[0] == ["fastupdate=off"]
