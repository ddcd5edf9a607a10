"""The `<id:...>` path converter: database ids, bounded to what the column can hold."""

from __future__ import annotations

# Ids are BigAutoField: signed 64-bit. A larger number would make SQLite raise
# OverflowError on the lookup, so it matches no URL and the answer is 404.
MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # no match: 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)
