"""Roll cards (`card_html`), cached: the long lists (the roll log, a scene's timeline)
read theirs in one go; every other place shows one through `{% roll_card %}`.

A roll never changes once stored (`campaigns.append_only`): its card is cached under its
id, how it is shown, the names it reads and the language (`fragment_key`). A list of 25
or 50 cards reads them all in one `get_many` and renders only those not there, rather
than asking the cache card by card from the template. A list may load only what the
keys read (`keyed`), and the few rolls whose card is not cached then read the rest of
what it shows; or no roll at all (`cards_of`, from the ids and names a values query
gives), and those rolls are then read whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.fragments import cached_pieces, fragment_key, read_rest
from campaigns.markup import esc
from mechanics.models import Roll
from mechanics.presentation import roll_display

TIMEOUT = 86400
RELATIONS = ("user", "character", "scene")
# What a card's key reads, and where a list places the roll (created_at).
KEY_FIELDS = (
    "id",
    "created_at",
    "user_id",
    "character_id",
    "scene_id",
    "user__username",
    "character__name",
    "scene__title",
)
# What the card reads besides its key's fields; the rest of a roll stays in the database.
SHOWN = ("campaign_id", "group", "system", "kind", "label", "record", "result", "outcome", "secret")
CARD_FIELDS = (*KEY_FIELDS, *SHOWN, "user__id", "character__id", "scene__id")


def with_relations(rolls: QuerySet[Roll]) -> QuerySet[Roll]:
    """Load what a roll's card shows: who rolled, the character and the scene, in the
    same query."""
    return rolls.select_related(*RELATIONS).only(*CARD_FIELDS)


def keyed(rolls: QuerySet[Roll]) -> QuerySet[Roll]:
    """Load only what the rolls' card keys read: for a list whose cards are mostly
    cached (`attach_cards` reads the others whole)."""
    return rolls.select_related(*RELATIONS).only(*KEY_FIELDS)


def card_names(roll: Roll) -> tuple:
    """The names a roll's card shows, read from the relations the list loaded (as
    `cards_of` gets them from a values query)."""
    return (
        roll.user.username if roll.user_id else None,
        roll.character.name if roll.character_id else None,
        roll.scene.title if roll.scene_id else None,
    )


def attach_cards(rolls: Sequence[Roll], *, compact: bool) -> None:
    """Set each roll's `card`: its HTML, from the cache or rendered (and stored) now.
    The rolls that `keyed` loaded read the rest of what their card shows first, if their
    card is to be rendered."""
    shown = cards_of(
        [(roll.pk, *card_names(roll)) for roll in rolls],
        compact=compact,
        loaded={roll.pk: roll for roll in rolls},
    )
    for roll, html in zip(rolls, shown, strict=True):
        roll.card = html


def cards_of(
    rows: Sequence[tuple], *, compact: bool, loaded: dict[int, Roll] | None = None
) -> list[SafeString]:
    """The cards of the rolls that `rows` name, each `(pk, username, character name,
    scene title)`: from the cache in one `get_many`, and rendered for the others, which
    are read whole in one query unless `loaded` holds them (those `keyed` loaded read
    only the rest of what a card shows, in one query); those read whole are added to
    `loaded` when given."""
    keys = {pk: fragment_key("roll-card", pk, bool(compact), tuple(names)) for pk, *names in rows}

    def render(missing: list[int]) -> dict[int, str]:
        known = {pk: loaded[pk] for pk in missing if loaded and pk in loaded}
        read_rest(
            {pk: roll for pk, roll in known.items() if "record" in roll.get_deferred_fields()},
            SHOWN,
        )
        read = [pk for pk in missing if pk not in known]
        if read:
            rolls = with_relations(Roll.objects.filter(pk__in=read)).order_by()
            whole = {roll.pk: roll for roll in rolls}
            known |= whole
            if loaded is not None:
                loaded.update(whole)
        return {pk: card_html(known[pk], compact=compact) for pk in missing}

    cards = cached_pieces(keys, render, timeout=TIMEOUT)
    # Rendered by our template, which escaped it.
    return [mark_safe(cards[pk]) for pk in keys]


def card(roll: Roll, *, compact: bool) -> str:
    """One roll's card, through the same cache as the lists'."""
    attach_cards([roll], compact=compact)
    return roll.card


def card_html(roll: Roll, *, compact: bool) -> str:
    """One roll's card as every list shows it, built as a string: a page of cards is a hot
    loop, where a template's lookups cost twice this (the markup a template gave, byte for
    byte)."""
    shown = roll_display(roll)
    at = timezone.localtime(roll.created_at)
    classes = f"roll roll-tone-{esc(shown.tone)}"
    if roll.secret:
        classes += " roll-secret"
    if compact:
        classes += " roll-compact"
    html = [
        f'\n<article class="{classes}" data-roll="{roll.pk}">\n  <header class="roll-head">\n'
        f'    <span class="roll-who fw-semibold">{esc(shown.who)}</span>\n    '
    ]
    if shown.character:
        html.append(f'<span class="roll-character">· {esc(shown.character)}</span>')
    html.append("\n    ")
    if roll.secret:
        html.append(
            f'<span class="badge text-bg-warning roll-secret-badge">{esc(_("Secret"))}</span>'
        )
    html.append(
        f'\n    <time class="roll-when" datetime="{at.isoformat()}">'
        f"{esc(formats.date_format(at, 'DATETIME_FORMAT'))}</time>\n  </header>\n  "
    )
    if shown.label or shown.expression:
        html.append('\n    <p class="roll-label">')
        if shown.label:
            html.append(esc(shown.label))
        if shown.expression:
            html.append(f' <code class="roll-expression">{esc(shown.expression)}</code>')
        html.append("</p>\n  ")
    html.append("\n  ")
    for group in shown.groups:
        html.append("\n    ")
        if group.label:
            html.append(f'<p class="roll-group-label">{esc(group.label)}</p>')
        html.append("\n    ")
        if group.dice:
            dice = "".join(str(die) for die in group.dice)
            html.append(
                f'\n      <ul class="dice" aria-label="{esc(_("Dice"))}">\n        {dice}\n'
                "      </ul>\n    "
            )
        html.append("\n  ")
    html.append("\n  ")
    if shown.setup:
        html.append(f'<p class="roll-setup">{esc(shown.setup)}</p>')
    html.append(
        f'\n  <p class="roll-result"><strong class="roll-total">{esc(shown.result)}</strong>'
    )
    if shown.outcome:
        html.append(f' · <span class="roll-outcome">{esc(shown.outcome)}</span>')
    html.append("</p>\n  ")
    if shown.effects or (shown.notes and not compact):
        html.append('\n    <ul class="roll-effects">\n      ')
        if not compact:
            html += [f"<li>{esc(note)}</li>" for note in shown.notes]
        html.append("\n      ")
        html += [f'<li class="roll-effect">{esc(effect)}</li>' for effect in shown.effects]
        html.append("\n    </ul>\n  ")
    html.append("\n  ")
    if shown.scene and not compact:
        scene = _("Scene: %(scene)s") % {"scene": esc(shown.scene)}
        html.append(f'<p class="roll-scene">{scene}</p>')
    html.append("\n</article>\n\n")
    return "".join(html)
