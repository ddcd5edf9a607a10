"""XP: the ledger, per-scene awards and purchases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.texts import TEXTS, codes
from characters.advancement import PurchaseSpec, Quote
from characters.advancement import quote as quote_purchase
from characters.models import (
    Character,
    Merit,
    Resource,
    Specialty,
    Trait,
    WillpowerGrant,
    XpEntry,
    XpPurchase,
)
from characters.services.sheet import (
    _lock,
    _lock_characters,
    _record,
    _sync_resource_maximums,
)
from mechanics.systems.base import SceneAward

# XP: the ledger, per-scene awards and purchases -------------------------------------------
#
# Every write moves `Character.xp_balance` with a conditional F() update on the locked
# character row and appends its entry (with the balance it leaves) in the same
# transaction; the database refuses a negative balance.

# A plain award (campaigns without the rubric): the rubric's own maximum is 19.
SCENE_AWARD_MAX = 50


def _ledger_add(
    *,
    character: Character,
    user,
    kind: str,
    amount: int,
    scene=None,
    reason: str = "",
    breakdown: Mapping | None = None,
) -> XpEntry:
    """Append one entry for a character the caller has locked, moving its balance."""
    moved = Character.objects.filter(pk=character.pk, xp_balance__gte=-amount).update(
        xp_balance=F("xp_balance") + amount
    )
    if not moved:
        if kind == XpEntry.Kind.SPEND:
            message = _("%(name)s has %(balance)s XP; this costs %(cost)s.") % {
                "name": character.name,
                "balance": character.xp_balance,
                "cost": -amount,
            }
        else:
            message = _(
                "%(name)s has already spent that XP: the change would leave a negative balance."
            ) % {"name": character.name}
        raise ValidationError(message, code="insufficient_xp")
    character.xp_balance += amount
    breakdown = dict(breakdown or {})
    # A reason the site wrote keeps its code, shown in each reader's language.
    texts = codes(reason=reason)
    if texts:
        breakdown[TEXTS] = texts
    return XpEntry.objects.create(
        character=character,
        scene=scene,
        kind=kind,
        amount=amount,
        balance_after=character.xp_balance,
        reason=reason[:200],
        breakdown=breakdown,
        created_by=user,
    )


@transaction.atomic
def xp_adjust(*, character: Character, user, amount: int, reason: str) -> XpEntry:
    """A GM gives XP outside a scene (starting XP, a bonus) or takes some back."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise ValidationError(_("Give or take at least 1 XP."), code="zero_amount")
    if not reason.strip():
        raise ValidationError(_("Say why."), code="no_reason")
    locked = _lock(character)
    kind = XpEntry.Kind.AWARD if amount > 0 else XpEntry.Kind.CORRECTION
    return _ledger_add(character=locked, user=user, kind=kind, amount=amount, reason=reason)


def _award_value(value) -> tuple[int, dict]:
    """(total XP, what the breakdown keeps) for one character's award in a scene."""
    if isinstance(value, SceneAward):
        return value.total, {"rubric": value.to_dict()}
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(_("An award is a rubric or a whole number of XP."), code="invalid")
    if not 0 <= value <= SCENE_AWARD_MAX:
        raise ValidationError(
            _("An award is between 0 and %(max)s XP.") % {"max": SCENE_AWARD_MAX},
            code="out_of_range",
        )
    return value, {}


def scene_award_totals(scene) -> dict[int, dict]:
    """What each character has been given for a scene so far: total and latest breakdown."""
    given: dict[int, dict] = {}
    for entry in XpEntry.objects.filter(scene=scene).order_by("created_at", "pk"):
        current = given.setdefault(entry.character_id, {"total": 0, "breakdown": {}})
        current["total"] += entry.amount
        current["breakdown"] = entry.breakdown
    return given


@transaction.atomic
def scene_award_xp(
    *, scene, user, awards: Mapping[int, SceneAward | int], willpower: Iterable[int] = ()
) -> list[XpEntry]:
    """Award a scene's XP to everyone at once: {character id: SceneAward or XP}.

    The first award for a character is an "award" entry; a later submit that changes
    the total or the rubric records a "correction" with the difference (0 when only
    the rubric moved), so nothing is ever overwritten and submitting the same values
    again records nothing. `willpower` lists the characters who regain a point of their
    system's `scene_end_pool` (Fuerza de Voluntad, for acting by their Virtue or Vice),
    once per scene each.
    """
    willpower = set(willpower)
    participants = set(scene.participants.values_list("pk", flat=True))
    awarded_before = set(XpEntry.objects.filter(scene=scene).values_list("character_id", flat=True))
    if not set(awards) | willpower <= participants | awarded_before:
        raise ValidationError(
            _("Only the characters taking part in the scene receive its awards."),
            code="not_participant",
        )
    pool_key = scene.campaign.game_system.scene_end_pool
    if willpower and pool_key is None:
        raise ValidationError(
            _("This rule system grants no points at the end of a scene."),
            code="no_willpower",
        )
    locked = _lock_characters(set(awards) | willpower)
    given = scene_award_totals(scene)
    entries = []
    for character_id in sorted(awards):
        total, breakdown = _award_value(awards[character_id])
        breakdown = {"scene": scene.title, "total": total, **breakdown}
        before = given.get(character_id)
        if before is None:
            if total == 0:
                continue
            kind, amount = XpEntry.Kind.AWARD, total
        else:
            previous = before["breakdown"]
            unchanged = total == before["total"] and previous.get("rubric") == breakdown.get(
                "rubric"
            )
            if unchanged:
                continue
            kind, amount = XpEntry.Kind.CORRECTION, total - before["total"]
            breakdown["previous"] = before["total"]
        entries.append(
            _ledger_add(
                character=locked[character_id],
                user=user,
                kind=kind,
                amount=amount,
                scene=scene,
                breakdown=breakdown,
            )
        )
    granted = set(
        WillpowerGrant.objects.filter(scene=scene, character_id__in=willpower).values_list(
            "character_id", flat=True
        )
    )
    for character_id in sorted(willpower - granted):
        _grant_willpower(locked[character_id], user, scene, pool_key)
    return entries


def _grant_willpower(character: Character, user, scene, pool_key: str) -> WillpowerGrant:
    resource = (
        Resource.objects.select_for_update().filter(character=character, key=pool_key).first()
    )
    points = 0
    if resource is not None and (resource.maximum is None or resource.current < resource.maximum):
        Resource.objects.filter(pk=resource.pk).update(current=F("current") + 1)
        _record(character, user, f"resource:{pool_key}", resource.current, resource.current + 1)
        points = 1
    return WillpowerGrant.objects.create(
        character=character, scene=scene, points=points, granted_by=user
    )


def _apply_purchase(character: Character, user, quote: Quote) -> XpEntry | None:
    """Pay for a checked purchase and raise the trait, in the caller's transaction.

    Every write is conditional on the values the quote was made from, so a purchase
    applied twice, or against a sheet that changed meanwhile, is refused whole.
    """
    changed = _("The sheet changed meanwhile; look at the price again.")
    entry = None
    if quote.uses_drama_points:
        paid = Resource.objects.filter(
            character=character, key=quote.pool, current__gte=quote.cost
        ).update(current=F("current") - quote.cost)
        if not paid:
            raise ValidationError(_("There are no drama points left."), code="no_drama_points")
        _record(character, user, f"resource:{quote.pool}", "", f"-{quote.cost}")
    else:
        entry = _ledger_add(
            character=character,
            user=user,
            kind=XpEntry.Kind.SPEND,
            amount=-quote.cost,
            reason=quote.label,
            breakdown={
                "purchase": {
                    "kind": quote.kind,
                    "key": quote.key,
                    "name": quote.name,
                    "current": quote.current,
                    "target": quote.target,
                }
            },
        )
    if quote.kind == XpPurchase.Kind.SPECIALTY:
        _specialty, created = Specialty.objects.get_or_create(
            character=character, skill_key=quote.key, name=quote.name
        )
        if not created:
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"specialty:{quote.key}", "", quote.name)
    elif quote.kind == XpPurchase.Kind.MERIT:
        if quote.merit_id is None:
            Merit.objects.create(
                character=character, key=quote.key, name=quote.name, rating=quote.target
            )
        elif not Merit.objects.filter(pk=quote.merit_id, rating=quote.current).update(
            rating=quote.target
        ):
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"merit:{quote.name}", quote.current or "", quote.target)
    else:
        raised = Trait.objects.filter(
            character=character, key=quote.key, rating=quote.current
        ).update(rating=quote.target)
        if not raised:
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"trait:{quote.key}", quote.current, quote.target)
        _sync_resource_maximums(character, user)
    return entry


def _checked_quote(character: Character, purchase: PurchaseSpec, expected_cost) -> Quote:
    checked = quote_purchase(character, purchase)
    if expected_cost is not None and checked.cost != expected_cost:
        raise ValidationError(
            _("The price changed to %(cost)s; look at it again.") % {"cost": checked.cost},
            code="price_changed",
        )
    return checked


def _check_unheld(character: Character, checked: Quote) -> None:
    """Refuse a purchase that would spend what waiting purchases hold: one applied at
    once too (a GM's, or a player's where approval is off), else approving them later
    would find their points gone."""
    reserved = XpPurchase.objects.held(character, drama=checked.uses_drama_points)
    if checked.uses_drama_points:
        pool = Resource.objects.filter(character=character, key=checked.pool).first()
        if pool is None or pool.current - reserved < checked.cost:
            raise ValidationError(_("There are no drama points left."), code="no_drama_points")
    elif character.xp_balance - reserved < checked.cost:
        values = {
            "name": character.name,
            "balance": character.xp_balance,
            "reserved": reserved,
            "cost": checked.cost,
        }
        if reserved:
            message = _(
                "%(name)s has %(balance)s XP (%(reserved)s waiting for approval); "
                "this costs %(cost)s."
            )
        else:
            message = _("%(name)s has %(balance)s XP; this costs %(cost)s.")
        raise ValidationError(message % values, code="insufficient_xp")


@transaction.atomic
def xp_spend(
    *, character: Character, user, purchase: PurchaseSpec, expected_cost: int | None = None
) -> XpEntry | None:
    """Buy at once: the trait goes up and the ledger takes the engine's cost.

    `expected_cost` is the price the player saw; a different price now is refused.
    Returns the ledger entry (None for a purchase paid from a pool, which is no XP).
    What waiting purchases hold is not spent (`_check_unheld`).
    """
    locked = _lock(character)
    checked = _checked_quote(locked, purchase, expected_cost)
    _check_unheld(locked, checked)
    return _apply_purchase(locked, user, checked)


@transaction.atomic
def xp_purchase_request(
    *,
    character: Character,
    user,
    purchase: PurchaseSpec,
    apply_now: bool,
    expected_cost: int | None = None,
) -> XpPurchase:
    """A purchase applied at once (`apply_now`) or left for a GM to approve.

    A pending purchase reserves its cost: the player cannot queue more than the
    balance (or the drama pool) covers.
    """
    locked = _lock(character)
    checked = _checked_quote(locked, purchase, expected_cost)
    fields = {
        "character": locked,
        "kind": checked.kind,
        "key": checked.key,
        "name": checked.name,
        "current": checked.current,
        "target": checked.target,
        "cost": checked.cost,
        "requested_by": user,
    }
    pending = XpPurchase.objects.filter(character=locked, status=XpPurchase.Status.PENDING)
    if pending.filter(kind=checked.kind, key=checked.key, name=checked.name).exists():
        raise ValidationError(
            _("That purchase is already waiting for the GM."), code="already_pending"
        )
    _check_unheld(locked, checked)
    if apply_now:
        entry = _apply_purchase(locked, user, checked)
        return XpPurchase.objects.create(
            **fields,
            status=XpPurchase.Status.APPLIED,
            decided_by=user,
            decided_at=timezone.now(),
            entry=entry,
        )
    return XpPurchase.objects.create(**fields)


def _lock_pending(purchase: XpPurchase) -> tuple[Character, XpPurchase]:
    locked = _lock(purchase.character)
    row = XpPurchase.objects.select_for_update().get(pk=purchase.pk)
    if row.status != XpPurchase.Status.PENDING:
        raise ValidationError(_("That purchase has already been decided."), code="decided")
    return locked, row


@transaction.atomic
def xp_purchase_approve(*, purchase: XpPurchase, user) -> XpPurchase:
    """A GM approves a pending purchase: it is applied now, at the price requested."""
    locked, row = _lock_pending(purchase)
    spec = PurchaseSpec(kind=row.kind, key=row.key, name=row.name)
    checked = quote_purchase(locked, spec)
    if (checked.current, checked.cost) != (row.current, row.cost):
        raise ValidationError(
            _("The sheet changed since this was requested; reject it and ask again."),
            code="sheet_changed",
        )
    entry = _apply_purchase(locked, user, checked)
    XpPurchase.objects.filter(pk=row.pk, status=XpPurchase.Status.PENDING).update(
        status=XpPurchase.Status.APPLIED,
        decided_by=user,
        decided_at=timezone.now(),
        entry=entry,
    )
    row.refresh_from_db()
    return row


def _close_pending(purchase: XpPurchase, user, status: str, note: str = "") -> XpPurchase:
    _locked, row = _lock_pending(purchase)
    XpPurchase.objects.filter(pk=row.pk, status=XpPurchase.Status.PENDING).update(
        status=status, decided_by=user, decided_at=timezone.now(), note=note[:200]
    )
    row.refresh_from_db()
    return row


@transaction.atomic
def xp_purchase_reject(*, purchase: XpPurchase, user, note: str = "") -> XpPurchase:
    return _close_pending(purchase, user, XpPurchase.Status.REJECTED, note)


@transaction.atomic
def xp_purchase_cancel(*, purchase: XpPurchase, user) -> XpPurchase:
    """The player withdraws a purchase still waiting for the GM."""
    return _close_pending(purchase, user, XpPurchase.Status.CANCELLED)
