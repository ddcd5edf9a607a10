"""Hitos (seed 001, docs/rules.md#hitos): 3d10 keeping the central die.

Modules:
- `catalogue`: characteristics, generic skills, aspect kinds and types, difficulties,
  weapon damage categories, health states and drug kinds, with the seed's wording.
- `traits`: derived values (Aguante, Resistencia, Defensa, Iniciativa, damage bonus).
- `rolls`: `HitosSpec`, `roll_check`, `roll_attack`, `roll_initiative`.
- `odds`: exact odds of a check (closed-form order statistics of 3d10).
- `health`: `HitosHealth` and the pure functions that damage, drug and heal it.
- `reference`: icepool reference odds, for tests and benchmarks only.
"""
