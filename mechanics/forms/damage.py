"""Damage typed as text ("2d6+1", "1d8", "3"), read alike by every system's forms
(docs/rules.md#damage-text): the syntax and the dice that are no dice are refused here,
the sizes by the system's engine, each fault with its own message under the field."""

from __future__ import annotations

import re
from collections.abc import Callable

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from mechanics.rules.errors import RuleError

# Dice and a signed bonus, or a bonus alone. Digits of any length are read so the engine
# can say the dice are too large; "−" is the minus the site's own texts print.
DAMAGE_RE = re.compile(
    r"\s*(?:(?P<count>\d+)\s*[dD]\s*(?P<sides>\d+))?\s*(?:(?P<sign>[-+−])?\s*(?P<fixed>\d+))?\s*",
    re.ASCII,
)
# Longer text is no damage anyone means (and int() refuses thousands of digits).
MAX_TEXT = 50

# A system's limits: raises RuleError naming the one (count, sides, fixed) breaks.
DamageCheck = Callable[[int, int, int], None]


def parse_damage(
    text: str, check: DamageCheck | None = None, *, dice_required: bool = False
) -> tuple[int, int, int]:
    """ "2d6+1" → (2, 6, 1); "1d8" → (1, 8, 0); "3" → (0, 0, 3); or ValidationError saying
    what is wrong. "1d6 2" is refused: 1d6+2, 1d6−2 or 1d62 are all guesses.
    `dice_required`: a bonus alone is refused too (a weapon whose damage is always rolled)."""
    text = text or ""
    match = DAMAGE_RE.fullmatch(text) if len(text) <= MAX_TEXT else None
    if not match or not (match["sides"] or match["fixed"]):
        raise _not_damage(dice_required)
    if not match["sides"]:
        if dice_required or not int(match["fixed"]):  # "0" is no damage at all
            raise _not_damage(dice_required)
        count = sides = 0
    else:
        count, sides = int(match["count"]), int(match["sides"])
        if match["fixed"] and not match["sign"]:
            raise forms.ValidationError(
                _("Put a + or − between the dice and the bonus, like %(example)s."),
                code="damage_sign",
                params={"example": f"{count}d{sides}+{int(match['fixed'])}"},
            )
        if count == 0:
            raise forms.ValidationError(_("Roll at least one damage die."), code="damage_dice")
        if sides == 0:
            raise forms.ValidationError(
                _("A die of 0 sides rolls nothing: write its sides, like 1d6."),
                code="damage_sides",
            )
    fixed = int(match["fixed"] or 0) * (1 if match["sign"] in (None, "+") else -1)
    if check is not None:
        try:
            check(count, sides, fixed)
        except RuleError as error:
            raise forms.ValidationError(error.translated(gettext), code="damage_limit") from None
    return count, sides, fixed


def _not_damage(dice_required: bool) -> forms.ValidationError:
    if dice_required:
        # A number alone is no weapon's damage (docs/rules.md#objetivo-damage).
        message = _("A weapon's damage is rolled with dice: write, for example, 1d10 or 2d6+1.")
    else:
        message = _("Write the damage as dice and a bonus, like 1d8, 2d6+1 or 3.")
    return forms.ValidationError(message, code="damage")
