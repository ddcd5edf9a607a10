"""Queries the ORM writes once per process: for the hot reads whose SQL costs more to
write than to run.

On a page of a few milliseconds, building a queryset and compiling it to SQL (joins,
subqueries, the visibility rules) often costs ten times what the database takes to
answer. `compiled_values(build, **ids)` asks `build` for its values queryset once per
*shape* (the names of the ids, and the length of those that are tuples), with stand-ins
in place of the ids, keeps the SQL, and from then on runs it with the ids alone;
`compiled_models(build, **ids)` does the same for a queryset of model instances (with
its `select_related` rows and annotations), loaded as the ORM loads them.

An id is an int (a primary key, or any whole number the query compares), a tuple of
ints, a str (a key the query compares as text) or None (a null link, which finds no
row: `= NULL`, where the ORM would write `IS NULL`).

`build` must write the same SQL for any ids of one shape: the ids may only reach the
query as parameters (filters), never decide its form (a branch on a value). Give a build
that depends on something else (the viewer's role) one function per case, from a cached
factory.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

Id = int | str | tuple[int, ...] | None


def compiled_values(build: Callable[..., QuerySet], *, using: str = "default", **ids: Id) -> list:
    """The rows of the values queryset `build(**ids)`, with its SQL written once, as the
    database driver returns them: ids, numbers and text read as the ORM reads them; a
    column the ORM converts on the way out (a date on SQLite, JSON) comes unconverted."""
    compiled = _compiled(build, using, _shape(ids))
    return compiled.run(using, ids) if compiled is not None else []


def compiled_models(build: Callable[..., QuerySet], *, using: str = "default", **ids: Id) -> list:
    """The model instances of the queryset `build(**ids)`, with its SQL written once:
    every column converted, the `select_related` rows attached and the annotations set as
    the ORM's own iteration does. The queryset may not prefetch, nor come from a related
    manager (whose known objects the ORM would attach)."""
    compiled = _compiled(build, using, _shape(ids))
    if compiled is None:
        return []
    return compiled.loader.instances(compiled.run(using, ids), connections[using])


def _shape(ids: dict[str, Id]) -> tuple:
    return tuple(
        (
            name,
            len(value) if isinstance(value, tuple) else "str" if isinstance(value, str) else None,
        )
        for name, value in sorted(ids.items())
    )


@dataclass(frozen=True)
class _Loader:
    """What the ORM's model iteration works out from a compiled query, kept with it."""

    model: type[Model]
    init_list: list[str]
    start: int
    end: int
    populators: list
    annotations: dict[str, int]
    converters: dict
    col_count: int

    @classmethod
    def of(cls, queryset: QuerySet, compiler, using: str) -> _Loader:
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ValueError("A compiled query can neither prefetch nor hold known objects.")
        select, klass_info = compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return cls(
            model=klass_info["model"],
            init_list=[column[0].target.attname for column in select[start:end]],
            start=start,
            end=end,
            populators=get_related_populators(klass_info, select, using, queryset._fetch_mode),
            annotations=compiler.annotation_col_map,
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            col_count=compiler.col_count,
        )

    def instances(self, rows: list, connection) -> list:
        objects = []
        for raw in rows:
            row = list(raw[: self.col_count])
            for position, (converters, expression) in self.converters.items():
                value = row[position]
                for converter in converters:
                    value = converter(value, expression, connection)
                row[position] = value
            obj = self.model.from_db(connection.alias, self.init_list, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects


@dataclass(frozen=True)
class _Compiled:
    sql: str
    # Each param: the id (and its place in a tuple of ids) it stands for, or (None, None)
    # for a constant of the query, with its value.
    slots: tuple
    loader: _Loader | None

    def run(self, using: str, ids: dict[str, Id]) -> list:
        # An id no column can hold finds no row (the driver would raise: a 500).
        if not all(_in_range(value) for value in ids.values()):
            return []
        params = [
            value if name is None else ids[name] if index is None else ids[name][index]
            for (name, index), value in self.slots
        ]
        with connections[using].cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.fetchall()


@functools.cache
def _compiled(build: Callable[..., QuerySet], using: str, shape: tuple) -> _Compiled | None:
    """`build`'s query for one shape of ids, or None for one that can match no row."""
    # No row has a negative id, nor a key that starts with NUL: these cannot be mistaken
    # for a real value.
    places: dict[int | str, tuple[str, int | None]] = {}
    stand_ins: dict[str, Id] = {}
    for name, length in shape:
        if length == "str":
            stand_ins[name] = f"\x00{name}"
            places[stand_ins[name]] = (name, None)
        elif length is None:
            stand_ins[name] = _stand_in(places, name, None)
        else:
            stand_ins[name] = tuple(_stand_in(places, name, index) for index in range(length))
    queryset = build(**stand_ins)
    compiler = queryset.query.get_compiler(using=using)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:  # an empty tuple of ids
        return None
    # A values query has no model to load; its rows come as the driver returns them.
    loader = _Loader.of(queryset, compiler, using) if compiler.klass_info else None
    return _Compiled(
        sql=sql,
        slots=tuple(
            (places.get(value, (None, None)) if type(value) in (int, str) else (None, None), value)
            for value in params
        ),
        loader=loader,
    )


def _in_range(value: Id | None) -> bool:
    values = value if isinstance(value, tuple) else (value,)
    return all(type(one) is not int or -(2**63) <= one < 2**63 for one in values)


def _stand_in(places: dict, name: str, index: int | None) -> int:
    value = -(1000 + len(places))
    places[value] = (name, index)
    return value
