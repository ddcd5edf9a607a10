"""Dado objetivo (1o3d10): seed 003, docs/rules.md#objetivo.

Roll 3d10 and keep the median, the "target die"; level shifts keep the highest or the
lowest instead. Skill rolls add attribute + skill and explode on a target die of 10;
attribute rolls add twice the attribute and never explode. Modules: `catalogue`
(starter traits, difficulties, weapons, health states), `traits` (derived values and
ranged difficulty), `rolls`, `odds` (exact), `reference` (icepool, tests only),
`health` and `cli`.
"""
