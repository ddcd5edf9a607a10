"""Exact odds: the shared result type and distribution helpers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# Explosion chains are cut only once the probability still unaccounted for is below this.
EPSILON = 1e-12

Distribution = dict[int, float]


@dataclass(frozen=True)
class Odds:
    """Exact probabilities of one roll spec.

    `distribution` maps successes (tinieblas) or totals (other systems) to probability
    and sums to 1 (within truncation). Outcomes a system does not have are 0.
    """

    p_success: float
    p_exceptional: float
    p_dramatic_failure: float
    distribution: Distribution

    def to_dict(self) -> dict:
        return {
            "p_success": self.p_success,
            "p_exceptional": self.p_exceptional,
            "p_dramatic_failure": self.p_dramatic_failure,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
        }

    def at_least(self, k: int) -> float:
        return sum(p for v, p in self.distribution.items() if v >= k)


def uniform(faces: Iterable[int]) -> Distribution:
    faces = list(faces)
    p = 1.0 / len(faces)
    dist: Distribution = {}
    for face in faces:
        dist[face] = dist.get(face, 0.0) + p
    return dist


def convolve(a: Mapping[int, float], b: Mapping[int, float]) -> Distribution:
    """Distribution of the sum of two independent variables."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0.0) + px * py
    return out


def negate(a: Mapping[int, float]) -> Distribution:
    return {-x: p for x, p in a.items()}


def power(a: Mapping[int, float], n: int) -> Distribution:
    """Distribution of the sum of n independent copies of `a` (n ≥ 0)."""
    out: Distribution = {0: 1.0}
    for _ in range(n):
        out = convolve(out, a)
    return out


def shift(a: Mapping[int, float], k: int) -> Distribution:
    return {x + k: p for x, p in a.items()}
