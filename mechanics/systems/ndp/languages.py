"""A 3d6 + NdP sheet's languages: each Lingüística NdP grants understanding, speech or
writing of one language (seed), kept on the sheet and limited by the rating; the owner or
a GM adds and removes them (docs/rules.md#ndp-linguistica)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.permissions import character_access, require
from characters.models import Character
from characters.services.sheet import character_set_details, ratings_of
from characters.views.sheet_context import first_error, section_answer, section_form
from mechanics.rules.ndp import equipment
from mechanics.systems.base import SheetSection

TEMPLATE = "systems/ndp/sheet_languages.html"
LANGUAGES = "languages"
MAX_LANGUAGE_NAME = 60
GRANT_NAMES = dict(equipment.LANGUAGE_GRANTS)


def known_languages(character: Character) -> list[dict]:
    languages = character.details.get(LANGUAGES, [])
    return languages if isinstance(languages, list) else []


def valid_languages(value) -> bool:
    """Whether stored or imported languages have the shape the sheet writes."""
    return isinstance(value, list) and all(
        isinstance(entry, dict)
        and isinstance(entry.get("id"), str)
        and isinstance(entry.get("language"), str)
        and 0 < len(entry["language"]) <= MAX_LANGUAGE_NAME
        and entry.get("grant") in GRANT_NAMES
        for entry in value
    )


class LanguageForm(forms.Form):
    language = forms.CharField(label=gettext_lazy("Language"), max_length=MAX_LANGUAGE_NAME)
    grant = forms.ChoiceField(label=gettext_lazy("Grants"), choices=equipment.LANGUAGE_GRANTS)

    def clean_language(self) -> str:
        language = self.cleaned_data["language"].strip()
        if not language:
            raise forms.ValidationError(_("Write the language's name."))
        return language


class LanguagesSection(SheetSection):
    key = "languages"
    template = TEMPLATE
    follows_traits = True

    def context(self, character, ratings, names) -> dict:
        return {
            "languages": {
                "known": [
                    {**entry, "grant_name": GRANT_NAMES.get(entry.get("grant"), "")}
                    for entry in known_languages(character)
                ],
                "limit": equipment.max_language_grants(ratings.get("linguistica", 0)),
            },
        }


# --- Services -------------------------------------------------------------------------------


@transaction.atomic
def language_add(*, character: Character, user, language: str, grant: str) -> dict:
    """One more grant of a language, refused past Lingüística NdP or when already known."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    known = known_languages(locked)
    linguistica = ratings_of(locked).get("linguistica", 0)
    limit = equipment.max_language_grants(linguistica)
    if grant not in GRANT_NAMES:
        raise ValidationError(_("Choose understanding, speech or writing."), code="grant")
    if any(
        e.get("language", "").casefold() == language.casefold() and e.get("grant") == grant
        for e in known
    ):
        raise ValidationError(
            _("%(name)s already has %(grant)s of %(language)s.")
            % {"name": locked.name, "grant": GRANT_NAMES[grant], "language": language},
            code="twice",
        )
    if len(known) >= limit:
        raise ValidationError(
            _(
                "With Lingüística %(level)s a character knows %(limit)s grants of a language "
                "(understanding, speech or writing); %(name)s already has %(count)s."
            )
            % {"level": linguistica, "limit": limit, "name": locked.name, "count": len(known)},
            code="limit",
        )
    entry = {"id": uuid.uuid4().hex[:12], "language": language, "grant": grant}
    character_set_details(character=locked, user=user, values={LANGUAGES: [*known, entry]})
    return entry


@transaction.atomic
def language_remove(*, character: Character, user, entry_id: str) -> dict:
    locked = Character.objects.select_for_update().get(pk=character.pk)
    known = known_languages(locked)
    entry = next((e for e in known if e.get("id") == entry_id), None)
    if entry is None:
        raise ValidationError(_("%(name)s has no such language.") % {"name": locked.name})
    character_set_details(
        character=locked, user=user, values={LANGUAGES: [e for e in known if e is not entry]}
    )
    return entry


# --- Views ----------------------------------------------------------------------------------


def _answer(request: HttpRequest, access, *, error: str = "", done: str = "", form=None):
    forms = {"language_form": form} if form is not None else None
    return section_answer(
        request, access, "languages", TEMPLATE, error=error, done=done, forms=forms
    )


@login_required
@require_http_methods(["GET", "POST"])
def language_add_view(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A GET gives the form, which the sheet loads when it is opened (`#gm_add_form`): the
    section with it for htmx, the sheet with it open otherwise."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    if request.method == "GET":
        return section_form(
            request, access, TEMPLATE, {"language_form": LanguageForm(auto_id="language_%s")}
        )
    form = LanguageForm(request.POST, auto_id="language_%s")
    if not form.is_valid():
        return _answer(request, access, error=first_error(form), form=form)
    try:
        entry = language_add(
            character=access.character,
            user=request.user,
            language=form.cleaned_data["language"],
            grant=form.cleaned_data["grant"],
        )
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages), form=form)
    return _answer(
        request,
        access,
        done=_("%(language)s (%(grant)s) added.")
        % {"language": entry["language"], "grant": GRANT_NAMES[entry["grant"]]},
    )


@login_required
@require_POST
def language_remove_view(
    request: HttpRequest, campaign_id: int, character_id: int, entry_id: str
) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    try:
        entry = language_remove(character=access.character, user=request.user, entry_id=entry_id)
    except ValidationError as error:
        return _answer(request, access, error=" ".join(error.messages))
    return _answer(
        request, access, done=_("%(language)s removed.") % {"language": entry["language"]}
    )


URLS = (
    path("characters/<id:character_id>/languages/", language_add_view, name="language_add"),
    path(
        "characters/<id:character_id>/languages/<slug:entry_id>/remove/",
        language_remove_view,
        name="language_remove",
    ),
)
