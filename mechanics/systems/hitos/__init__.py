"""hitos: everything Django knows about this rule system."""

from mechanics.systems.hitos import timeline  # noqa: F401  (registers its timeline source)
from mechanics.systems.hitos.system import HitosSystem
from mechanics.systems.registry import register

SYSTEM = register(HitosSystem())
