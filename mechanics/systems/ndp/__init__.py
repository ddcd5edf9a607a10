"""ndp: everything Django knows about this rule system."""

from mechanics.systems.ndp.system import NdpSystem
from mechanics.systems.registry import register

SYSTEM = register(NdpSystem())
