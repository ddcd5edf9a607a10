"""The GM's two-sided rolls (opposed and teamwork): the forms of each side, and the plan
they make. Used by the GM's roll panel and by the demo, which rolls the same way."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mechanics.forms.errors import error_text
from mechanics.forms.roll import TwoSidedForm
from mechanics.rules.errors import RuleError
from mechanics.setup import load_sheets

HELPERS = ("h1", "h2", "h3")


def campaign_traits(campaign) -> tuple[list, list]:
    """(attribute choices, skill choices) of the campaign's system, grouped by category."""
    specs = campaign.game_system.trait_specs(campaign)
    groups: dict[str, dict[str, list]] = {"attribute": {}, "skill": {}}
    for spec in specs:
        kind = "attribute" if spec.kind in ("attribute", "characteristic") else spec.kind
        if kind in groups:
            groups[kind].setdefault(spec.category, []).append((spec.key, spec.name))
    return list(groups["attribute"].items()), list(groups["skill"].items())


def gm_forms(data, campaign, characters):
    """(main form, side A, side B, helpers) bound to `data`, or unbound when it is None;
    (None, None, None, []) when the campaign's system has no two-sided rolls."""
    system = campaign.game_system
    kinds = system.roll_setup.opposed_kinds if system.roll_setup else ()
    if not kinds:
        return None, None, None, []
    side_form = system.side_form
    kwargs = {"characters": characters, "traits": campaign_traits(campaign)}
    main = TwoSidedForm(data, kinds=kinds)
    kind = (data or {}).get("kind")
    uses_b = kind != "teamwork"
    uses_helpers = kind == "teamwork"

    def side(prefix: str, used: bool):
        if data is None or used:
            return side_form(data, prefix=prefix, required=False, **kwargs)
        # A side the chosen roll does not use keeps what was typed, without errors.
        typed = {
            key.split("-", 1)[1]: value
            for key, value in data.items()
            if key.startswith(f"{prefix}-")
        }
        return side_form(None, prefix=prefix, required=False, initial=typed, **kwargs)

    side_a = side("a", True)
    side_b = side("b", uses_b)
    helpers = [side(prefix, uses_helpers) for prefix in HELPERS] if "teamwork" in kinds else []
    return main, side_a, side_b, helpers


def relevant_forms(main, side_a, side_b, helpers) -> list:
    """The side forms the chosen kind of roll uses (the others are hidden in the page)."""
    if main is None:
        return []
    if main.data.get("kind") == "teamwork":
        return [side_a, *helpers]
    return [side_a, side_b]


def gm_plan(campaign, main, side_a, side_b, helpers):
    """Validate the GM's set-up and build its plan; None with errors on the forms."""
    if main is None or not main.is_valid():
        return None
    kind = main.cleaned_data["kind"]
    # Fields of the other kind of roll are in the page too (hidden): ignore them.
    if not all(f.is_valid() for f in relevant_forms(main, side_a, side_b, helpers)):
        return None
    chosen_a = side_a.cleaned_data.get("character")
    if not chosen_a:
        side_a.add_error("character", _("Choose a character."))
        return None
    if kind == "opposed":
        chosen = [chosen_a, side_b.cleaned_data.get("character")]
        if not chosen[1]:
            side_b.add_error("character", _("Choose a character."))
            return None
    else:
        chosen = [chosen_a] + [h.cleaned_data["character"] for h in helpers if h.used]
        if len(chosen) == 1:
            helpers[0].add_error("character", _("Choose at least one helper."))
            return None
    if len(set(chosen)) != len(chosen):
        main.add_error(None, _("Each character can take part only once."))
        return None
    characters = {c.pk: c for c in campaign.characters.filter(pk__in=chosen)}
    sheets = load_sheets([characters[pk] for pk in chosen], campaign)
    setup = campaign.game_system.roll_setup
    try:
        if kind == "opposed":
            return setup.opposed(
                sheets[chosen[0]], side_a.cleaned_data, sheets[chosen[1]], side_b.cleaned_data
            )
        used = [h for h in helpers if h.used]
        return setup.teamwork(
            sheets[chosen[0]],
            side_a.cleaned_data,
            [(sheets[h.cleaned_data["character"]], h.cleaned_data) for h in used],
        )
    except (RuleError, ValidationError) as error:
        main.add_error(None, error_text(error))
        return None
