"""Pure rules engine for the rule systems.

Nothing in this package imports Django, reads the clock or touches global random
state: callers pass plain values (frozen dataclasses) and an injected random source.
"""

import pkgutil
from pathlib import Path

from mechanics.rules.errors import RuleError

# One subpackage per system: a new system is a new folder here.
SYSTEMS = tuple(
    sorted(
        module.name for module in pkgutil.iter_modules([str(Path(__file__).parent)]) if module.ispkg
    )
)

__all__ = ["SYSTEMS", "RuleError"]
