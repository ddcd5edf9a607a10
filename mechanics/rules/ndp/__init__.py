"""3d6 + NdP (seed 002): 3d6 + skill level against an adversity that must be exceeded.

Modules:
- `catalogue`: the 51 skills in six groups, mastery names, adversity levels, body parts,
  damage types, wound tiers, states, shields, divine tiers, crafting items, gestures.
- `rolls`: skill checks (ventaja/desventaja, Gracias/Desgracias), opposed rolls,
  progression (DP, PdP), damage, divine, arcane, dispel and crafting rolls.
- `odds`: exact odds of a check (and of damage and divine rolls), cached.
- `health`: wounds per body part and the states they bring.
- `equipment`: armour, weapons, shields, load, Prana and faith limits.
- `reference`: icepool reference odds, for tests and benchmarks only.
"""
