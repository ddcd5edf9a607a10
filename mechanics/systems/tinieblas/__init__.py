"""tinieblas: everything Django knows about this rule system."""

from mechanics.systems.registry import register
from mechanics.systems.tinieblas.system import TinieblasSystem

SYSTEM = register(TinieblasSystem())
