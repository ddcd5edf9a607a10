"""The system contract (`mechanics/systems/base.py`) describes each hook a system plugs in
by what generic code asks of it, without naming the layers above it; the bases a system
subclasses live up there. Each base offers all the contract lists, and the contract lists
every hook of each base, so neither drifts from the other."""

import pytest

from mechanics.combat import CombatRules
from mechanics.setup import RollSetup
from mechanics.systems.base import CombatHooks, RollRules


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize(("base", "hooks"), [(RollSetup, RollRules), (CombatRules, CombatHooks)])
def test_the_contract_lists_every_hook_of_the_base_a_system_subclasses(base, hooks):
    assert isinstance(base(), hooks)
    assert hooks.__protocol_attrs__ == _public(base)
