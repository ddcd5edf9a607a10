import pytest


class ScriptedRng:
    """A random source whose randint returns the given values, in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.values, "the scripted dice ran out"
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} outside {a}..{b}"
        self.calls.append((a, b))
        return value

    @property
    def exhausted(self) -> bool:
        return not self.values


@pytest.fixture
def scripted():
    return ScriptedRng
