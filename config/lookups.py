"""`__in` on integer columns for values the column cannot hold.

Django's exact and range lookups on an integer column treat a value out of the column's
range as matching no row; its `__in` lookup sends the value to the database, where
SQLite's driver raises OverflowError. A forged id of 26 digits in a multiple choice
(scene participants) or an admin autocomplete then was a server error.
"""

from __future__ import annotations

from django.core.exceptions import EmptyResultSet
from django.db.models import IntegerField
from django.db.models.lookups import In


class IntegerFieldIn(In):
    """Values outside the column's range match no row: they are left out of the list."""

    def process_rhs(self, compiler, connection):
        if self.rhs_is_direct_value():
            kind = self.lhs.output_field.get_internal_type()
            low, high = connection.ops.integer_field_range(kind)
            values = list(self.rhs)
            self.rhs = [
                value
                for value in values
                if not isinstance(value, int)
                or ((low is None or value >= low) and (high is None or value <= high))
            ]
            if values and not self.rhs:
                raise EmptyResultSet
        return super().process_rhs(compiler, connection)


def register() -> None:
    IntegerField.register_lookup(IntegerFieldIn)
