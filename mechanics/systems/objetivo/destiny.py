"""The GM hands a destiny point back (seed: "el master puede decidir (¡en cualquier
momento!) devolvérselo al jugador, obligándole a bajar su dado objetivo un nivel"): the
point returns to the player's pool, and their next roll goes one level down."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.models import Character
from characters.services.sheet import character_set_details, resource_adjust
from mechanics.systems.base import PoolAction
from mechanics.systems.objetivo.rolls import DESTINY_POOL

PENDING = "destiny_returned"


def is_pending(character: Character) -> bool:
    return bool(character.details.get(PENDING))


@transaction.atomic
def hand_back(*, character: Character, user) -> str:
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if is_pending(locked):
        raise ValidationError(
            _("A destiny point handed back is already waiting for this character's next roll."),
            code="pending",
        )
    resource_adjust(character=locked, user=user, key=DESTINY_POOL, delta=1, may_raise_open=True)
    character_set_details(character=locked, user=user, values={PENDING: True})
    return _("Destiny point handed back: the next roll goes one level down.")


HAND_BACK = PoolAction(
    key="hand-back",
    pool=DESTINY_POOL,
    label=gettext_lazy("Hand a destiny point back"),
    perform=hand_back,
    pending=is_pending,
    pending_label=gettext_lazy("Point handed back: the next roll goes one level down."),
)
