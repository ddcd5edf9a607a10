"""Queries the ORM writes once per process: for the hot reads whose SQL costs more to
write than to run.

On a page of a few milliseconds, building a queryset and compiling it to SQL (joins,
subqueries, the visibility rules) often costs ten times what the database takes to
answer. `compiled_values(build, **ids)` asks `build` for its values queryset once per
*shape* (the names of the ids, and the length of those that are tuples), with stand-ins
in place of the ids, keeps the SQL, and from then on runs it with the ids alone.

`build` must write the same SQL for any ids of one shape: the ids may only reach the
query as parameters (filters), never decide its form (a branch on a value). Give a build
that depends on something else (the viewer's role) one function per case, from a cached
factory.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet

Id = int | tuple[int, ...]


def compiled_values(build: Callable[..., QuerySet], *, using: str = "default", **ids: Id) -> list:
    """The rows of the values queryset `build(**ids)`, with its SQL written once, as the
    database driver returns them: ids, numbers and text read as the ORM reads them; a
    column the ORM converts on the way out (a date on SQLite, JSON) comes unconverted."""
    shape = tuple(
        (name, len(value) if isinstance(value, tuple) else None)
        for name, value in sorted(ids.items())
    )
    sql, slots = _compiled(build, using, shape)
    params = [
        value if name is None else ids[name] if index is None else ids[name][index]
        for (name, index), value in slots
    ]
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@functools.cache
def _compiled(build: Callable[..., QuerySet], using: str, shape: tuple) -> tuple:
    """(SQL, params) of `build` for one shape of ids, each param named by the id (and the
    place in a tuple of ids) it stands for."""
    # No row has a negative id: these cannot be mistaken for a real value.
    places: dict[int, tuple[str, int | None]] = {}
    stand_ins: dict[str, Id] = {}
    for name, length in shape:
        if length is None:
            stand_ins[name] = _stand_in(places, name, None)
        else:
            stand_ins[name] = tuple(_stand_in(places, name, index) for index in range(length))
    sql, params = build(**stand_ins).query.get_compiler(using=using).as_sql()
    return sql, tuple(
        (places.get(value, (None, None)) if type(value) is int else (None, None), value)
        for value in params
    )


def _stand_in(places: dict, name: str, index: int | None) -> int:
    value = -(1000 + len(places))
    places[value] = (name, index)
    return value
