"""XP ledger rows, cached: the XP log and a character's ledger read theirs in one go.

An XP entry never changes once stored (`campaigns.append_only`): its row is cached under
its id, whether it names its character, the names it reads and the language
(`fragment_key`). A page loads what the keys read and what a row shows (`keyed`, the
scene's title and the author's name as values), in its one query: the rows not cached are
rendered from it. (Reading what they show apart cost a query at almost every page the
rows are read for: the body of the log is cached whole, so its rows are read after a new
entry, which is never cached.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.formats import get_format, localize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from campaigns.addresses import addresses
from campaigns.fragments import cached_pieces, fragment_key
from campaigns.markup import esc
from campaigns.models import Campaign
from characters import advancement
from characters.models import XpEntry
from characters.xp_chart import moment_formatter

TIMEOUT = 86400
# What a row's key reads, and where a list places the entry (created_at).
KEY_FIELDS = ("id", "created_at", "campaign_id", "character_id", "scene_id", "created_by_id")
# The names a row's key reads, of its scene and author, as values read with it: rows of
# their own (select_related) cost a model each per entry.
NAMES = {"scene_title": F("scene__title"), "author_name": F("created_by__username")}

# What a row shows of an entry besides what its key reads.
SHOWN = ("kind", "amount", "breakdown", "reason", "balance_after")


def keyed(entries: QuerySet[XpEntry]) -> QuerySet[XpEntry]:
    """Load what the entries' row keys read and what their rows show, nothing else."""
    return entries.only(*KEY_FIELDS, *SHOWN).annotate(**NAMES)


def _key(entry: XpEntry, show_character: bool) -> str:
    # The names the row shows: the character's, set by the view from its own list.
    names = (
        entry.character.name if show_character else None,
        entry.scene_title if entry.scene_id else None,
        entry.author_name if entry.created_by_id else None,
    )
    return fragment_key("xp-entry", entry.pk, show_character, names)


@dataclass(frozen=True)
class PageWords:
    """What the rows of a page write alike, worked out once for the page (each cost more
    than a row's own markup)."""

    moment: Callable[[datetime], str]  # writes a time as SHORT_DATETIME_FORMAT does
    kinds: dict[str, str]
    balance_after: str
    # The campaign's ledger and scene addresses of an id, each reversed once.
    ledger: Callable[[int], str]
    scene: Callable[[int], str]
    number: Callable[[object], str]  # localize, escaped

    @classmethod
    def now(cls, campaign_id: int) -> PageWords:
        return cls(
            moment=moment_formatter(get_format("SHORT_DATETIME_FORMAT")),
            kinds={kind: str(label) for kind, label in XpEntry.Kind.choices},
            balance_after=esc(_("Balance after")),
            ledger=addresses("characters:xp", campaign_id),
            scene=addresses("campaigns:scene", campaign_id),
            number=integer_text(),
        )


def integer_text() -> Callable[[object], str]:
    """How a template writes a number in the active language (`localize`), escaped, worked
    out once for a list: an integer's digits as they are unless thousands are grouped
    (numberformat's own shortcut), which skips three format look-ups per number."""
    if settings.USE_THOUSAND_SEPARATOR and get_format("NUMBER_GROUPING"):
        return lambda value: esc(localize(value))
    return lambda value: str(value) if type(value) is int else esc(localize(value))


def row_html(entry: XpEntry, lines: Sequence, *, show_character: bool, words: PageWords) -> str:
    """One ledger row as the XP log and a character's ledger show it, built as a string:
    a page of rows is a hot loop, where a template's lookups cost four times this."""
    amount = entry.amount
    tone = "plus" if amount > 0 else "minus" if amount < 0 else "zero"
    html = [
        f'<li class="list-group-item" data-entry-kind="{esc(entry.kind)}">\n'
        '<div class="d-flex align-items-start gap-2">\n'
        f'<span class="badge xp-amount fs-6 xp-amount-{tone}">'
        f"{'+' if amount > 0 else ''}{words.number(amount)}</span>\n"
        '<div class="flex-grow-1">\n<div>\n'
    ]
    if show_character:
        link = words.ledger(entry.character_id)
        html.append(f'<a class="fw-semibold" href="{link}">{esc(entry.character.name)}</a> · ')
    html.append(f'<span class="text-body-secondary">{esc(words.kinds[entry.kind])}</span>\n')
    breakdown = entry.breakdown or {}
    if entry.scene_id:
        link = words.scene(entry.scene_id)
        html.append(f' · <a href="{link}">{esc(entry.scene_title)}</a>\n')
    elif breakdown.get("scene"):
        html.append(f" · {esc(breakdown['scene'])}\n")
    html.append("</div>\n")
    plain = not entry.scene_id and not breakdown.get("scene")
    if (entry.kind == XpEntry.Kind.SPEND or plain) and entry.reason:
        html.append(f'<div class="small">{esc(entry.reason_text)}</div>\n')
    if entry.kind == XpEntry.Kind.CORRECTION and breakdown.get("previous") is not None:
        changed = _("Changed from %(before)s to %(after)s XP.") % {
            "before": words.number(breakdown["previous"]),
            "after": words.number(breakdown.get("total", "")),
        }
        html.append(f'<div class="small">{changed}</div>\n')
    if lines:
        html.append('<ul class="list-inline mb-0 xp-rubric-lines text-body-secondary">\n')
        for line in lines:
            note = f" ({esc(line.note)})" if line.note else ""
            html.append(
                f'<li class="list-inline-item" title="{esc(line.caption)}">{esc(line.label)}'
                f" <strong>{words.number(line.points)}</strong>{note}</li>"
            )
        html.append("\n</ul>\n")
    at = timezone.localtime(entry.created_at)
    author = entry.author_name if entry.created_by_id else "—"
    html.append(
        '<div class="small text-body-secondary">\n'
        f"{_('by %(who)s') % {'who': esc(author)}} · "
        f'<time datetime="{at.isoformat()}">{esc(words.moment(at))}</time>\n</div>\n</div>\n'
        '<span class="small text-body-secondary text-nowrap xp-balance" '
        f'title="{words.balance_after}">= {words.number(entry.balance_after)}</span>\n'
        "</div>\n</li>"
    )
    return "".join(html)


def attach_rows(entries: Sequence[XpEntry], *, campaign: Campaign, show_character: bool) -> None:
    """Set each entry's `row` (entries of `campaign`, loaded by `keyed`): its HTML, from the
    cache or rendered (and stored) now."""

    def render(missing: list[XpEntry]) -> dict[XpEntry, str]:
        words = PageWords.now(campaign.pk)
        return {
            entry: row_html(
                entry,
                advancement.rubric_lines(campaign, entry.breakdown.get("rubric")),
                show_character=show_character,
                words=words,
            )
            for entry in missing
        }

    keys = {entry: _key(entry, show_character) for entry in entries}
    rows = cached_pieces(keys, render, timeout=TIMEOUT)
    for entry in entries:
        entry.row = mark_safe(rows[entry])  # rendered by our template, which escaped it
