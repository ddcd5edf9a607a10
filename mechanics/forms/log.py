"""Forms of the roll log (filters) and of the GM's free dice roller."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from mechanics.rules.expressions import MAX_LENGTH, Expression, ExpressionError, parse

DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y"]
# Far inside what datetimes can hold once shifted to UTC and a day added (9999-12-31
# would overflow), and far around any roll a site can have.
FIRST_DAY = datetime.date(1900, 1, 1)
LAST_DAY = datetime.date(2999, 12, 31)


def _validate_day(day: datetime.date) -> None:
    if not FIRST_DAY <= day <= LAST_DAY:
        raise forms.ValidationError(
            _("Enter a date between %(first)s and %(last)s."),
            code="date_range",
            params={"first": f"{FIRST_DAY:%d/%m/%Y}", "last": f"{LAST_DAY:%d/%m/%Y}"},
        )


class _DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


def _choices(rows: Iterable[tuple[int, str]], anything: str) -> list[tuple[str, str]]:
    return [("", anything), *((str(pk), name) for pk, name in rows)]


class RollFilterForm(forms.Form):
    """GET filters of the roll log; a bad value is reported and that filter ignored."""

    character = forms.TypedChoiceField(
        label=_("Character"), required=False, coerce=int, empty_value=None
    )
    scene = forms.TypedChoiceField(label=_("Scene"), required=False, coerce=int, empty_value=None)
    player = forms.TypedChoiceField(
        label=_("Rolled by"), required=False, coerce=int, empty_value=None
    )
    date_from = forms.DateField(
        label=_("From"),
        required=False,
        input_formats=DATE_INPUT_FORMATS,
        widget=_DateInput(),
        validators=[_validate_day],
    )
    date_to = forms.DateField(
        label=_("To"),
        required=False,
        input_formats=DATE_INPUT_FORMATS,
        widget=_DateInput(),
        validators=[_validate_day],
    )

    def __init__(
        self,
        data=None,
        *,
        characters: Iterable[tuple[int, str]],
        scenes: Iterable[tuple[int, str]],
        players: Iterable[tuple[int, str]],
    ) -> None:
        super().__init__(data)
        # Choices come from lists the view has loaded once: validating runs no query.
        self.fields["character"].choices = _choices(characters, _("Any character"))
        self.fields["scene"].choices = _choices(scenes, _("Any scene"))
        self.fields["player"].choices = _choices(players, _("Anyone"))

    def clean(self) -> dict:
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return cleaned

    @property
    def active(self) -> bool:
        return self.is_bound and any(self.data.get(name) for name in self.fields)

    def applied(self) -> tuple:
        """The values of the valid filters, in field order: what `filter` applies."""
        if not self.is_bound:
            return ()
        self.is_valid()
        return tuple(self.cleaned_data.get(name) for name in self.fields)

    def filter(self, rolls: QuerySet) -> QuerySet:
        """Apply the filters that are valid; the others were reported as errors."""
        if not self.is_bound:
            return rolls
        self.is_valid()
        values = self.cleaned_data
        if values.get("character") is not None:
            rolls = rolls.filter(character_id=values["character"])
        if values.get("scene") is not None:
            rolls = rolls.filter(scene_id=values["scene"])
        if values.get("player") is not None:
            rolls = rolls.filter(user_id=values["player"])
        # Whole days in the site's time zone, as a range the index can use.
        if values.get("date_from"):
            rolls = rolls.filter(created_at__gte=_day_start(values["date_from"]))
        if values.get("date_to"):
            next_day = values["date_to"] + datetime.timedelta(days=1)
            rolls = rolls.filter(created_at__lt=_day_start(next_day))
        return rolls


def _day_start(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


class FreeRollForm(forms.Form):
    """A GM's roll of any dice expression; the expression is read by the engine."""

    expression = forms.CharField(
        label=_("Dice to roll"),
        max_length=MAX_LENGTH,
        help_text=_("For example 5d10, 5d10 9-again, 8d10 rote, 2d6+3, 3d10 central or 4d6kh3."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "off"}
        ),
    )
    label = forms.CharField(label=_("What for"), max_length=120, required=False)
    secret = forms.BooleanField(label=_("Secret: only GMs see it"), required=False)

    def __init__(self, data=None, *, pools: bool, **kwargs) -> None:
        # Ids of their own: the roller sits on pages with other forms.
        kwargs.setdefault("auto_id", "free-roll-%s")
        super().__init__(data, **kwargs)
        self.pools = pools
        if pools:
            self.fields["expression"].help_text = _(
                "For example 5d10 (successes), 5d10 9-again, 8d10 rote, chance, 2d6+3"
                " or 3d10 central."
            )

    def clean_expression(self) -> Expression:
        try:
            return parse(self.cleaned_data["expression"], pools=self.pools)
        except ExpressionError as error:
            raise forms.ValidationError(error.translated(gettext), code="expression") from None
