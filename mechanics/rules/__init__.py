"""Pure rules engine for the four rule systems.

Nothing in this package imports Django, reads the clock or touches global random
state: callers pass plain values (frozen dataclasses) and an injected random source.
"""

from mechanics.rules.errors import RuleError

SYSTEMS = ("tinieblas", "hitos", "ndp", "objetivo")

__all__ = ["SYSTEMS", "RuleError"]
