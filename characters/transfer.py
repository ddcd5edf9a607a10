"""Character sheets as JSON files: the export format and the checks an import passes.

Format (version 1), one JSON object:

    format       "cronica-character"
    version      1
    system       the rule system key ("tinieblas", "hitos", "ndp", "objetivo")
    exported_at  ISO 8601 time of the export (informative, ignored on import)
    name, concept, description, notes
    details      the system's single values (virtue/vice, tamaño, specialization, deities)
    health       the engine's health state, as its to_dict() gives it
    traits       [{key, kind, name, rating, progress}]  catalogue keys
    specialties  [{skill, name}]
    merits       [{key, name, rating, notes}]  key "" for a custom merit
    resources    [{key, current, maximum}]  maximum is derived again on import
    aspects      [{kind, text, exhausted, duration}]  in sheet order
    items        [{kind, name, weight_kg, data}]  in sheet order

Left out on purpose: the owner, the campaign and NPC flag (the importer chooses
them), the XP ledger and the sheet history (they belong to the campaign the sheet
lived in; an imported sheet starts a new history with "imported"), and the
approval over budget (the importing campaign's GM decides that).

Only `format`, `version`, `system`, `name` and `traits` are required; every other
list or text may be missing and means "empty" (missing traits start at their
minimum, missing pools full). Unknown keys are ignored. Sizes are capped: the file
at 256 KB, each list (MAX_ROWS), texts at their column sizes, pools without a
maximum (drama and destiny points) at 100.
`validate_import` checks everything against the campaign's system adapter and
returns a `CharacterImport`, or raises one ValidationError listing every problem
it found, so nothing is written for a file that is wrong anywhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaigns.limits import limit
from campaigns.texts import has_control
from characters.models import Aspect, Character, Item, Merit, Specialty
from mechanics.rules.errors import RuleError
from mechanics.systems.registry import get_system, system_choices

FORMAT = "cronica-character"
VERSION = 1
MAX_FILE_BYTES = 256 * 1024
MAX_DETAILS_BYTES = 16 * 1024
MAX_ROWS = {
    "traits": 300,
    "specialties": 100,
    "merits": 100,
    "resources": 50,
    "aspects": 100,
    "items": 300,
}
MAX_WEIGHT_KG = Decimal("9999.99")  # Item.weight_kg: 6 digits, 2 decimals
# Texts are held to the lengths the sheet's forms allow (campaigns/limits.py), so an
# export re-imports. At those lengths a description and notes written wholly in six-byte
# JSON escapes ("\u0001") take 240 KB: still under MAX_FILE_BYTES.
SPECIALTY = limit(Specialty, "name")
MERIT = limit(Merit, "name")
MERIT_NOTES = limit(Merit, "notes")
ASPECT = limit(Aspect, "text")
ITEM = limit(Item, "name")


def export_character(character: Character) -> dict[str, Any]:
    """The sheet as a JSON-ready dict (see the module docstring for the format)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": character.campaign.system,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "name": character.name,
        "concept": character.concept,
        "description": character.description,
        "notes": character.notes,
        "details": character.details,
        "health": character.health,
        "traits": [
            {
                "key": trait.key,
                "kind": trait.kind,
                "name": trait.name,
                "rating": trait.rating,
                "progress": trait.progress,
            }
            for trait in character.traits.all()
        ],
        "specialties": [
            {"skill": specialty.skill_key, "name": specialty.name}
            for specialty in character.specialties.all()
        ],
        "merits": [
            {"key": merit.key, "name": merit.name, "rating": merit.rating, "notes": merit.notes}
            for merit in character.merits.all()
        ],
        "resources": [
            {"key": resource.key, "current": resource.current, "maximum": resource.maximum}
            for resource in character.resources.all()
        ],
        "aspects": [
            {
                "kind": aspect.kind,
                "text": aspect.text,
                "exhausted": aspect.exhausted,
                "duration": aspect.duration,
            }
            for aspect in character.aspects.all()
        ],
        "items": [
            {
                "kind": item.kind,
                "name": item.name,
                # A JSON number; two decimals at most, as stored.
                "weight_kg": float(item.weight_kg),
                "data": item.data,
            }
            for item in character.items.all()
        ],
    }


def export_filename(character: Character) -> str:
    return f"{slugify(character.name) or 'personaje'}.json"


def parse_upload(raw: bytes) -> Any:
    """The uploaded bytes as JSON, or a ValidationError saying why they are not."""
    if len(raw) > MAX_FILE_BYTES:
        raise ValidationError(
            _("The file is too large: a character file has at most %(size)s KB.")
            % {"size": MAX_FILE_BYTES // 1024},
            code="too_large",
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            _("The file is not text in UTF-8: it is not a character file."), code="not_text"
        ) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        line = getattr(error, "lineno", None)
        if line is None:
            raise ValidationError(_("The file is not valid JSON."), code="not_json") from None
        raise ValidationError(
            _("The file is not valid JSON (line %(line)s).") % {"line": line}, code="not_json"
        ) from None
    _refuse_unstorable_text(data)
    return data


# JSON escapes can carry what UTF-8 text cannot: NUL (\u0000), which forms refuse and
# PostgreSQL cannot store, and lone surrogates (\ud800), which no database can encode.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _refuse_unstorable_text(data: Any) -> None:
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str) and (found := _UNSTORABLE.search(value)):
            if found.group() == "\x00":
                message = _("The file contains a null character (\\u0000), which no text may hold.")
            else:
                message = _(
                    "The file contains an invalid character (a lone UTF-16 surrogate): "
                    "it is not valid text."
                )
            raise ValidationError(message, code="unstorable_text")


@dataclass
class CharacterImport:
    """A file that passed every check, with values ready for `character_import`."""

    name: str
    concept: str
    description: str
    notes: str
    details: dict
    health: dict
    ratings: dict[str, int]
    progress: dict[str, int]
    specialties: list[tuple[str, str]] = field(default_factory=list)
    merits: list[tuple[str, str, int, str]] = field(default_factory=list)
    resources: dict[str, int] = field(default_factory=dict)
    aspects: list[tuple[str, str, bool, str]] = field(default_factory=list)
    items: list[tuple[str, str, Decimal, dict]] = field(default_factory=list)


def _printable(name: str) -> str:
    """A refused name as the message can show it: its controls as spaces."""
    return " ".join("".join(" " if has_control(c) else c for c in name).split())


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rule_message(error: Exception) -> str:
    if isinstance(error, RuleError):
        return error.translated(_)
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return ""


class _Checker:
    """Collects every problem of one file; `check()` raises them together."""

    def __init__(self, data: Any, campaign) -> None:
        self.data = data
        self.campaign = campaign
        self.system = get_system(campaign.system)
        self.errors: list[str] = []

    def error(self, message: str) -> None:
        self.errors.append(message)

    def fail_if_errors(self) -> None:
        if self.errors:
            raise ValidationError(self.errors, code="invalid_import")

    # --- header --------------------------------------------------------------------

    def header(self) -> None:
        data = self.data
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValidationError(
                _("This is not a Crónica character file (it has no format “%(format)s”).")
                % {"format": FORMAT},
                code="not_character",
            )
        version = data.get("version")
        if version != VERSION or not _is_int(version):
            raise ValidationError(
                _("The file has format version %(version)s; this site reads version %(ours)s.")
                % {"version": version, "ours": VERSION},
                code="version",
            )
        system = data.get("system")
        if system != self.campaign.system:
            names = dict(system_choices())
            raise ValidationError(
                _(
                    "This character is for %(system)s; this campaign plays %(campaign)s. "
                    "A sheet imports only into a campaign of the same system."
                )
                % {
                    # Whatever the file holds there (a list, a number), named as text.
                    "system": names.get(str(system), str(system)[:40]),
                    "campaign": names[self.campaign.system],
                },
                code="other_system",
            )

    # --- fields --------------------------------------------------------------------

    def text(
        self, key: str, max_length: int, *, required: bool = False, one_line: bool = False
    ) -> str:
        value = self.data.get(key) or ""
        if not isinstance(value, str):
            self.error(_("The field “%(field)s” must be text.") % {"field": key})
            return ""
        value = value.strip() if key == "name" else value
        if one_line:
            self.one_line(value, key)
        if required and not value:
            self.error(_("The file has no “%(field)s”.") % {"field": key})
        if len(value) > max_length:
            self.error(
                _("The field “%(field)s” is longer than %(max)s characters.")
                % {"field": key, "max": max_length}
            )
        return value[:max_length]

    def one_line(self, text: str, what: str) -> bool:
        """Names are one line, as the sheet's forms keep them (campaigns/texts.py)."""
        if has_control(text):
            self.error(
                _("“%(what)s” must be one line, without line breaks or control characters.")
                % {"what": what}
            )
            return False
        return True

    def rows(self, key: str, *, required: bool = False) -> list:
        if key not in self.data:
            if required:
                self.error(_("The file has no “%(field)s”.") % {"field": key})
            return []
        value = self.data[key]
        if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
            self.error(_("“%(field)s” must be a list of objects.") % {"field": key})
            return []
        if len(value) > MAX_ROWS[key]:
            self.error(
                _("“%(field)s” has %(count)s entries; at most %(max)s are allowed.")
                % {"field": key, "count": len(value), "max": MAX_ROWS[key]}
            )
            return []
        return value

    def mapping(self, key: str) -> dict:
        value = self.data.get(key) or {}
        if not isinstance(value, dict):
            self.error(_("“%(field)s” must be an object.") % {"field": key})
            return {}
        return value

    def traits(self) -> tuple[dict[str, int], dict[str, int]]:
        specs = {spec.key: spec for spec in self.system.trait_specs(self.campaign)}
        max_progress = self.system.max_progress()
        ratings: dict[str, int] = {}
        progress: dict[str, int] = {}
        for row in self.rows("traits", required=True):
            key = row.get("key")
            spec = specs.get(key) if isinstance(key, str) else None
            if spec is None:
                self.error(
                    _("Unknown trait “%(key)s”: it is not a trait of %(system)s in this campaign.")
                    % {"key": key, "system": self.system.name}
                )
                continue
            if key in ratings:
                self.error(_("The trait %(name)s appears twice.") % {"name": spec.name})
                continue
            rating = row.get("rating")
            if not _is_int(rating) or not spec.minimum <= rating <= spec.maximum:
                self.error(
                    _("%(name)s is %(rating)s; it must be between %(low)s and %(high)s.")
                    % {
                        "name": spec.name,
                        "rating": rating,
                        "low": spec.minimum,
                        "high": spec.maximum,
                    }
                )
                continue
            done = row.get("progress", 0)
            if not _is_int(done) or not 0 <= done <= max_progress:
                self.error(
                    _("%(name)s has progress %(progress)s; it must be between 0 and %(high)s.")
                    % {"name": spec.name, "progress": done, "high": max_progress}
                )
                continue
            ratings[key] = rating
            if done:
                progress[key] = done
        return ratings, progress

    def specialties(self, ratings: Mapping[str, int]) -> list[tuple[str, str]]:
        specs = {spec.key: spec for spec in self.system.trait_specs(self.campaign)}
        found: list[tuple[str, str]] = []
        for row in self.rows("specialties"):
            skill, name = row.get("skill"), row.get("name")
            spec = specs.get(skill) if isinstance(skill, str) else None
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > SPECIALTY:
                self.error(
                    _("Each specialty needs a name of at most %(max)s characters.")
                    % {"max": SPECIALTY}
                )
                continue
            if not self.one_line(name, _printable(name)):
                continue
            if spec is None or spec.kind != "skill":
                self.error(
                    _("The specialty “%(name)s” is on “%(skill)s”, which is not a skill.")
                    % {"name": name, "skill": skill}
                )
                continue
            if ratings.get(skill, spec.minimum) < 1:
                self.error(
                    _("The specialty “%(name)s” needs at least one dot in %(skill)s.")
                    % {"name": name, "skill": spec.name}
                )
                continue
            if (skill, name.strip()) in found:
                continue  # a repeated specialty is the same specialty
            found.append((skill, name.strip()))
        return found

    def merits(self) -> list[tuple[str, str, int, str]]:
        found: list[tuple[str, str, int, str]] = []
        rows = self.rows("merits")
        if rows and not self.system.merit_ratings(""):
            self.error(_("%(system)s sheets have no merits.") % {"system": self.system.name})
            return found
        for row in rows:
            key, name = row.get("key") or "", row.get("name")
            rating, notes = row.get("rating"), row.get("notes") or ""
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MERIT:
                self.error(
                    _("Each merit needs a name of at most %(max)s characters.") % {"max": MERIT}
                )
                continue
            if not self.one_line(name, _printable(name)):
                continue
            if not isinstance(key, str) or not isinstance(notes, str) or len(notes) > MERIT_NOTES:
                self.error(_("The merit “%(name)s” is malformed.") % {"name": name})
                continue
            allowed = self.system.merit_ratings(key)
            if not allowed:
                self.error(_("Unknown merit “%(key)s”.") % {"key": key})
                continue
            if not _is_int(rating) or rating not in allowed:
                self.error(
                    _("The merit %(name)s cannot have %(rating)s dots.")
                    % {"name": name.strip(), "rating": rating}
                )
                continue
            found.append((key, name.strip(), rating, notes))
        return found

    def details(self) -> dict:
        details = self.mapping("details")
        if len(json.dumps(details)) > MAX_DETAILS_BYTES:
            self.error(_("“details” is too large."))
            return {}
        try:
            return self.system.clean_details(details, self.campaign)
        except (RuleError, ValidationError) as error:
            self.error(_rule_message(error))
        except (TypeError, ValueError, AttributeError):
            self.error(_("“details” is not valid for %(system)s.") % {"system": self.system.name})
        return {}

    def resources(self, ratings: Mapping[str, int], details: Mapping) -> dict[str, int]:
        specs = {
            spec.key: spec
            for spec in self.system.resource_specs(ratings, details, self.campaign.rules)
        }
        found: dict[str, int] = {}
        for row in self.rows("resources"):
            key, current = row.get("key"), row.get("current")
            spec = specs.get(key) if isinstance(key, str) else None
            if spec is None:
                self.error(_("Unknown pool “%(key)s”.") % {"key": key})
                continue
            high = spec.maximum if spec.maximum is not None else 100
            if not _is_int(current) or not 0 <= current <= high:
                self.error(
                    _("%(name)s is %(current)s; it must be between 0 and %(high)s.")
                    % {"name": spec.label, "current": current, "high": high}
                )
                continue
            found[key] = current
        return found

    def health(self, ratings: Mapping[str, int], details: Mapping) -> dict:
        stored = self.mapping("health")
        try:
            return self.system.clean_health(stored, ratings, details, self.campaign.rules)
        except (RuleError, ValidationError) as error:
            message = _rule_message(error)
        except (TypeError, ValueError, KeyError, AttributeError):
            message = ""
        self.error(
            _("The health state is not valid for %(system)s: %(problem)s")
            % {"system": self.system.name, "problem": message or _("malformed record.")}
        )
        return {}

    def aspects(self) -> list[tuple[str, str, bool, str]]:
        slots = self.system.aspect_slots()
        rows = self.rows("aspects")
        if rows and not slots:
            self.error(_("%(system)s sheets have no aspects.") % {"system": self.system.name})
            return []
        found: list[tuple[str, str, bool, str]] = []
        counts: dict[str, int] = {}
        for row in rows:
            kind, text = row.get("kind"), row.get("text")
            exhausted, duration = row.get("exhausted", False), row.get("duration") or ""
            if kind not in slots:
                self.error(_("Unknown kind of aspect “%(kind)s”.") % {"kind": kind})
                continue
            if not isinstance(text, str) or not text.strip() or len(text.strip()) > ASPECT:
                self.error(
                    _("Each aspect needs a text of at most %(max)s characters.") % {"max": ASPECT}
                )
                continue
            if not isinstance(exhausted, bool) or duration not in ("", "scene", "session"):
                self.error(_("The aspect “%(text)s” is malformed.") % {"text": text})
                continue
            counts[kind] = counts.get(kind, 0) + 1
            if slots[kind] is not None and counts[kind] > slots[kind]:
                self.error(
                    _("Too many aspects of kind “%(kind)s”: at most %(max)s.")
                    % {"kind": kind, "max": slots[kind]}
                )
                continue
            found.append((kind, text.strip(), exhausted, duration))
        return found

    def items(self) -> list[tuple[str, str, Decimal, dict]]:
        found: list[tuple[str, str, Decimal, dict]] = []
        for row in self.rows("items"):
            kind, name, data = row.get("kind", Item.Kind.ITEM), row.get("name"), row.get("data")
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > ITEM:
                self.error(
                    _("Each item needs a name of at most %(max)s characters.") % {"max": ITEM}
                )
                continue
            if not self.one_line(name, _printable(name)):
                continue
            name = name.strip()
            if kind not in Item.Kind.values:
                self.error(
                    _("%(name)s: unknown kind of item “%(kind)s”.") % {"name": name, "kind": kind}
                )
                continue
            weight = _weight(row.get("weight_kg", 0))
            if weight is None:
                self.error(
                    _("%(name)s: the weight must be a number of kilograms from 0 to %(max)s.")
                    % {"name": name, "max": MAX_WEIGHT_KG}
                )
                continue
            try:
                stats = self.system.clean_item(kind, name, float(weight), data or {})
            except (RuleError, ValidationError) as error:
                self.error(f"{name}: {_rule_message(error)}")
                continue
            except (TypeError, ValueError, KeyError, AttributeError):
                self.error(_("%(name)s: the item's data is malformed.") % {"name": name})
                continue
            found.append((kind, name, weight, stats))
        return found

    def check(self) -> CharacterImport:
        self.header()
        name = self.text("name", limit(Character, "name"), required=True, one_line=True)
        concept = self.text("concept", limit(Character, "concept"), one_line=True)
        description = self.text("description", limit(Character, "description"))
        notes = self.text("notes", limit(Character, "notes"))
        before = len(self.errors)
        ratings, progress = self.traits()
        traits_ok = len(self.errors) == before
        details = self.details()
        # Dots on a skill are known only when the traits were read without problems.
        specialties = self.specialties(ratings) if traits_ok else []
        merits = self.merits()
        aspects = self.aspects()
        items = self.items()
        # Pools and health depend on the ratings and details: check those first.
        self.fail_if_errors()
        full = self.system.initial_ratings(self.campaign, ratings)
        resources = self.resources(full, details)
        health = self.health(full, details)
        self.fail_if_errors()
        return CharacterImport(
            name=name,
            concept=concept,
            description=description,
            notes=notes,
            details=details,
            health=health,
            ratings=ratings,
            progress=progress,
            specialties=specialties,
            merits=merits,
            resources=resources,
            aspects=aspects,
            items=items,
        )


def _weight(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        weight = Decimal(str(value))
    except InvalidOperation:
        return None
    if not weight.is_finite() or not 0 <= weight <= MAX_WEIGHT_KG:
        return None
    return weight.quantize(Decimal("0.01"))


def validate_import(data: Any, *, campaign) -> CharacterImport:
    """Check a parsed file against the campaign's system; one ValidationError lists
    every problem found."""
    return _Checker(data, campaign).check()
