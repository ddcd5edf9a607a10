"""XP ledger rows, cached: the XP log and a character's ledger read theirs in one go.

An XP entry never changes once stored (`campaigns.append_only`): its row is cached under
its id, whether it names its character, the names it reads and the language
(`fragment_key`). A page loads what the keys read and what a row shows (`keyed`, the
scene's title and the author's name with them), as plain values, in its one query: the
rows not cached are rendered from it. (Reading what they show apart cost a query at almost
every page the rows are read for: the body of the log is cached whole, so its rows are
read after a new entry, which is never cached.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.addresses import addresses
from campaigns.fragments import cached_pieces, fragment_key
from campaigns.markup import esc
from campaigns.models import Campaign
from characters import advancement
from characters.models import XpEntry, reason_text
from characters.xp_chart import integer_text, moment_formatter

TIMEOUT = 86400
# What a row's key reads, and where a list places the entry (created_at, pk).
KEY_FIELDS = ("pk", "created_at", "character_id", "scene_id", "created_by_id")
# The names a row's key reads, of its scene and author, as values read with it.
NAMES = {"scene_title": F("scene__title"), "author_name": F("created_by__username")}

# What a row shows of an entry besides what its key reads.
SHOWN = ("kind", "amount", "breakdown", "reason", "balance_after")


def keyed(entries: QuerySet[XpEntry]) -> QuerySet:
    """What the entries' row keys read and what their rows show, nothing else, as named
    tuples of plain values (`pk`, `created_at`… `scene_title`, `author_name`): a model
    per entry cost more than its row's markup."""
    return entries.annotate(**NAMES).values_list(*KEY_FIELDS, *SHOWN, *NAMES, named=True)


def _key(entry, name: str | None) -> str:
    # The names the row shows: its character's (in lists of several), scene's and author's.
    names = (
        name,
        entry.scene_title if entry.scene_id else None,
        entry.author_name if entry.created_by_id else None,
    )
    return fragment_key("xp-entry", entry.pk, name is not None, names)


@dataclass(frozen=True)
class PageWords:
    """What the rows of a page write alike, worked out once for the page (each cost more
    than a row's own markup)."""

    moment: Callable[[datetime], str]  # writes a time as SHORT_DATETIME_FORMAT does, escaped
    kinds: dict[str, str]
    balance_after: str
    # The campaign's ledger and scene addresses of an id, each reversed once.
    ledger: Callable[[int], str]
    scene: Callable[[int], str]
    number: Callable[[object], str]  # localize, escaped

    @classmethod
    def now(cls, campaign_id: int) -> PageWords:
        return cls(
            moment=moment_formatter(get_format("SHORT_DATETIME_FORMAT"), escaped=True),
            kinds={kind: str(label) for kind, label in XpEntry.Kind.choices},
            balance_after=esc(_("Balance after")),
            ledger=addresses("characters:xp", campaign_id),
            scene=addresses("campaigns:scene", campaign_id),
            number=integer_text(),
        )


def row_html(entry, lines: Sequence, *, name: str | None, words: PageWords) -> str:
    """One ledger row (an entry read by `keyed`) as the XP log and a character's ledger
    show it, with its character's `name` in lists of several, built as a string: a page
    of rows is a hot loop, where a template's lookups cost four times this."""
    amount = entry.amount
    tone = "plus" if amount > 0 else "minus" if amount < 0 else "zero"
    html = [
        f'<li class="list-group-item" data-entry-kind="{esc(entry.kind)}">\n'
        '<div class="d-flex align-items-start gap-2">\n'
        f'<span class="badge xp-amount fs-6 xp-amount-{tone}">'
        f"{'+' if amount > 0 else ''}{words.number(amount)}</span>\n"
        '<div class="flex-grow-1">\n<div>\n'
    ]
    if name is not None:
        link = words.ledger(entry.character_id)
        html.append(f'<a class="fw-semibold" href="{link}">{esc(name)}</a> · ')
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
        html.append(f'<div class="small">{esc(reason_text(entry.reason, breakdown))}</div>\n')
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
            # The seed captions Diario's levels with nothing: no empty tooltip for it.
            title = f' title="{esc(line.caption)}"' if line.caption else ""
            html.append(
                f'<li class="list-inline-item"{title}>{esc(line.label)}'
                f" <strong>{words.number(line.points)}</strong>{note}</li>"
            )
        html.append("\n</ul>\n")
    at = timezone.localtime(entry.created_at)
    author = entry.author_name if entry.created_by_id else "—"
    html.append(
        '<div class="small text-body-secondary">\n'
        f"{_('by %(who)s') % {'who': esc(author)}} · "
        f'<time datetime="{at.isoformat()}">{words.moment(at)}</time>\n</div>\n</div>\n'
        '<span class="small text-body-secondary text-nowrap xp-balance" '
        f'title="{words.balance_after}">= {words.number(entry.balance_after)}</span>\n'
        "</div>\n</li>"
    )
    return "".join(html)


def ledger_rows(
    entries: Sequence, *, campaign: Campaign, names: Mapping[int, str] | None = None
) -> SafeString:
    """The rows of these entries of `campaign` (read by `keyed`), in their order, as one
    piece of HTML: each from the cache or rendered (and stored) now. `names`: the
    characters' names by id, for a list that shows whose each entry is (the XP log)."""
    by_id = {entry.pk: entry for entry in entries}
    name = {pk: None if names is None else names[e.character_id] for pk, e in by_id.items()}

    def render(missing: list[int]) -> dict[int, str]:
        words = PageWords.now(campaign.pk)
        return {
            pk: row_html(
                by_id[pk],
                advancement.rubric_lines(campaign, by_id[pk].breakdown.get("rubric")),
                name=name[pk],
                words=words,
            )
            for pk in missing
        }

    keys = {pk: _key(entry, name[pk]) for pk, entry in by_id.items()}
    rows = cached_pieces(keys, render, timeout=TIMEOUT)
    return mark_safe("".join(rows[pk] for pk in by_id))  # rendered here, escaped
