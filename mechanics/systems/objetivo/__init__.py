"""objetivo: everything Django knows about this rule system."""

from mechanics.systems.objetivo.system import ObjetivoSystem
from mechanics.systems.registry import register

SYSTEM = register(ObjetivoSystem())
