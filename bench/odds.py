"""Odds benchmark: median time of an exact odds query per system, cold and cached,
beside icepool's time for the same specs, and the largest P(>=k) error against icepool.

Run: .venv/bin/python bench/odds.py [--systems tinieblas hitos] [--quick]
Target: every spec <= 1 ms cold and <= 0.1 ms cached, error < 1e-12.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanics.rules import SYSTEMS


def clear_caches(system: str) -> None:
    """Empty every functools cache in the system's engine modules: a fresh process, in effect."""
    for name in ("odds", "rolls"):
        module = importlib.import_module(f"mechanics.rules.{system}.{name}")
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def max_tail_error(ours, theirs) -> float:
    keys = set(ours.distribution) | set(theirs.distribution)
    return max((abs(ours.at_least(k) - theirs.at_least(k)) for k in keys), default=0.0)


def bench(system: str, quick: bool) -> dict:
    odds_module = importlib.import_module(f"mechanics.rules.{system}.odds")
    reference = importlib.import_module(f"mechanics.rules.{system}.reference")
    specs = list(odds_module.bench_specs())
    if quick:
        specs = specs[:: max(1, len(specs) // 60)]
    cold, cached, icepool_times, errors = [], [], [], []
    for spec in specs:
        clear_caches(system)
        start = time.perf_counter()
        ours = odds_module.odds(spec)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(20):
            odds_module.odds(spec)
        cached.append((time.perf_counter() - start) / 20)
        start = time.perf_counter()
        theirs = reference.reference_odds(spec)
        icepool_times.append(time.perf_counter() - start)
        errors.append(max_tail_error(ours, theirs))
    return {
        "system": system,
        "specs": len(specs),
        "cold_median_ms": statistics.median(cold) * 1e3,
        "cold_max_ms": max(cold) * 1e3,
        "cold_over_1ms": sum(t > 1e-3 for t in cold),
        "cached_median_ms": statistics.median(cached) * 1e3,
        "cached_max_ms": max(cached) * 1e3,
        "icepool_median_ms": statistics.median(icepool_times) * 1e3,
        "ratio": statistics.median(icepool_times) / statistics.median(cold),
        "max_error": max(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--systems", nargs="*", default=list(SYSTEMS), choices=SYSTEMS)
    parser.add_argument("--quick", action="store_true", help="about 60 specs per system")
    args = parser.parse_args()
    header = (
        f"{'system':<10} {'specs':>5} {'cold med':>9} {'cold max':>9} {'>1ms':>5} "
        f"{'cache med':>10} {'cache max':>10} {'icepool':>9} {'x faster':>9} {'max err':>9}"
    )
    print(header)
    for system in args.systems:
        row = bench(system, args.quick)
        print(
            f"{row['system']:<10} {row['specs']:>5} {row['cold_median_ms']:>7.3f}ms "
            f"{row['cold_max_ms']:>7.3f}ms {row['cold_over_1ms']:>5} "
            f"{row['cached_median_ms']:>8.4f}ms {row['cached_max_ms']:>8.4f}ms "
            f"{row['icepool_median_ms']:>7.3f}ms {row['ratio']:>8.1f}x {row['max_error']:>9.1e}",
            flush=True,
        )


if __name__ == "__main__":
    main()
