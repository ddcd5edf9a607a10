"""Demo data for `seed_demo`, each system's own (`GameSystem.demo_characters` and
`demo_chronicle`), made through the services like anything a table makes. Safe to run
again: a sheet that already exists (same campaign, owner and name) is left alone, and a
campaign that already has its demo story gets no second chronicle."""

from __future__ import annotations

import random

from campaigns.services import chronicle as chronicle_services
from characters import services
from characters.advancement import PurchaseSpec
from characters.models import Character, DiaryEntry
from characters.services.diary import diary_save
from characters.services.xp import scene_award_xp, xp_purchase_request
from mechanics.forms.roll import default_data
from mechanics.forms.two_sided import gm_forms, gm_plan  # the GM panel's own checks
from mechanics.models import Roll
from mechanics.rules.expressions import parse, roll_expression
from mechanics.services import combat as combat_services
from mechanics.services import health
from mechanics.services.rolls import RollSide, roll_perform, roll_store
from mechanics.services.saved_rolls import saved_roll_create
from mechanics.setup import load_sheets
from mechanics.systems.base import DamageInput


def seed_characters(campaign, users: dict) -> list[Character]:
    """The campaign's demo sheets, created the first time only; returns the new ones."""
    created = []
    for sheet in campaign.game_system.demo_characters:
        owner = users[sheet["owner"]]
        if Character.objects.filter(campaign=campaign, owner=owner, name=sheet["name"]).exists():
            continue
        character = services.character_create(
            campaign=campaign,
            user=owner,
            owner=owner,
            name=sheet["name"],
            concept=sheet["concept"],
            description=sheet["description"],
            ratings=sheet["ratings"],
            details=sheet.get("details", {}),
            specialties=sheet.get("specialties", ()),
            merits=sheet.get("merits", ()),
            aspects=sheet.get("aspects", ()),
        )
        if sheet.get("notes"):
            services.character_update(character=character, user=owner, notes=sheet["notes"])
        for kind, name, weight, data in sheet.get("items", ()):
            services.item_add(
                character=character, user=owner, kind=kind, name=name, weight_kg=weight, data=data
            )
        for key, points in sheet.get("pools", {}).items():
            services.resource_adjust(
                character=character,
                user=owner,
                key=key,
                delta=points,
                # The demo's starting points, given as the GM would.
                may_raise_open=True,
            )
        created.append(character)
    return created


# --- A chronicle that has been played -------------------------------------------------------


def _panel_roll(sheet, data: dict, *, user, rng) -> Roll:
    """One roll made the way the roll panel makes it: the system's form validates the
    choices, its set-up plans them, the engine throws with `rng`, the service stores it."""
    system = sheet.system
    setup = system.roll_setup
    open_actions = setup.open_actions(sheet.character)
    blank = system.roll_form(None, sheet=sheet, is_gm=False, open_actions=open_actions)
    chosen = {**default_data(blank), **data}
    form = system.roll_form(chosen, sheet=sheet, is_gm=False, open_actions=open_actions)
    if not form.is_valid():
        raise ValueError(f"demo roll {data} of {system.key}: {form.errors.as_text()}")
    plan = setup.plan(sheet, form.cleaned_data, open_actions=open_actions)
    [side] = plan.roll(rng)
    [stored] = roll_perform(
        campaign=sheet.character.campaign,
        user=user,
        sides=[
            RollSide(
                record=side.record,
                character=sheet.character,
                scene=sheet.scene,
                label=plan.label or form.cleaned_data.get("label", ""),
            )
        ],
        group=plan.group,
    )
    return stored


def _gm_two_sided_roll(campaign, data: dict, *, gm, scene, rng) -> list[Roll]:
    """One opposed or teamwork roll made the way the GM's two-sided form makes it: the
    same forms validate `data` (prefixed "a-", "b-", "h1-"...), the system plans it, the
    engine throws with `rng`, and each side is stored in `scene`."""
    characters = list(campaign.characters.select_related("owner").order_by("-is_npc", "name"))
    forms = gm_forms(data, campaign, characters)
    plan = gm_plan(campaign, *forms)
    if plan is None:
        main, side_a, side_b, helpers = forms
        errors = [form.errors.as_text() for form in (main, side_a, side_b, *helpers)]
        raise ValueError(f"demo roll {data} of {campaign.system}: {errors}")
    main = forms[0]
    return roll_perform(
        campaign=campaign,
        user=gm,
        sides=[
            RollSide(
                record=side.record,
                character=side.sheet.character,
                scene=scene,
                label=main.cleaned_data.get("label", ""),
            )
            for side in plan.roll(rng)
        ],
        group=plan.group,
    )


def _two_sided_rolls(campaign, chronicle: dict, by_owner: dict, *, gm, scene, rng) -> None:
    """The system's two-sided rolls (`RollSetup.opposed_kinds`) from its demo data, each
    side named by its owner ("ana", "bruno") as the GM picks a character in the form."""
    for kind, label, sides in chronicle.get("two_sided", ()):
        data = {"kind": kind, "label": label}
        for prefix, (owner, choices) in sides.items():
            data[f"{prefix}-character"] = str(by_owner[owner].pk)
            data.update({f"{prefix}-{key}": value for key, value in choices.items()})
        _gm_two_sided_roll(campaign, data, gm=gm, scene=scene, rng=rng)


def _trait_choices(campaign) -> list[dict]:
    """What a click on each rolled trait of the system sets (`GameSystem.trait_roll`)."""
    system = campaign.game_system
    rolled = (system.trait_roll(spec) for spec in system.trait_specs(campaign))
    return [dict(trait.choices) for trait in rolled if trait is not None]


def _scene_rolls(campaign, sheets: list, scene, chronicle: dict, rng, count: int):
    """`count` rolls in a scene: every kind of the panel once per character (or by the
    owners a kind's demo data names in "by": a spell only for the mage), then traits picked
    by `rng`, each by the sheet's owner."""
    system = campaign.game_system
    traits = _trait_choices(campaign)
    wanted = []
    for kind, _label in system.roll_form.kinds:
        data = dict(chronicle.get("kinds", {}).get(kind, {}))
        by = data.pop("by", None)
        wanted += [
            (sheet, {"kind": kind, **data})
            for sheet in sheets
            if by is None or sheet.character.owner.username in by
        ]
    while len(wanted) < count:
        wanted.append((rng.choice(sheets), {"label": "", **rng.choice(traits)}))
    for sheet, data in wanted[:count]:
        sheet.scene = scene
        _panel_roll(sheet, data, user=sheet.character.owner, rng=rng)


def seed_chronicle(campaign, users: dict, *, seed: int = 1) -> bool:
    """The system's `demo_chronicle` played once in the campaign, through the services: a
    story of three scenes (the first closed), diaries published and draft, a GM note,
    about thirty rolls of every kind thrown by a seeded random source (one of them
    secret), a wound and its healing, XP awarded with the rubric, a spend waiting for the
    GM (the campaign asks for approval) and a fight with its initiative rolled. False (and
    nothing done) when the campaign already has the story: running `seed_demo` again
    changes nothing."""
    chronicle = campaign.game_system.demo_chronicle
    if not chronicle or campaign.stories.filter(title=chronicle["story"][0]).exists():
        return False
    title, summary = chronicle["story"]
    rng = random.Random(f"{seed}:{campaign.system}")
    gm = users["master"]
    characters = list(
        Character.objects.filter(campaign=campaign, is_npc=False)
        .select_related("owner")
        .order_by("owner__username")
    )
    by_owner = {c.owner.username: c for c in characters}
    if campaign.xp_rubric is None and not campaign.uses_xp_rubric:
        # The demo's GM grades scenes with the seed's rubric, as a GM may choose to.
        campaign.xp_rubric = True
        campaign.save(update_fields=["xp_rubric"])
    # The system's campaign options the demo's GM turns on (Hitos: buying with drama).
    settings = chronicle.get("settings", {})
    if settings:
        for name, value in settings.items():
            setattr(campaign, name, value)
        campaign.save(update_fields=list(settings))
    # A spend left waiting for the GM, where the system buys with XP: the demo's GM asks
    # to approve each one, as only then does a spend wait (the approval queue is shown).
    advancement = campaign.game_system.advancement
    waiting = advancement is not None and advancement.available(campaign)
    purchase = chronicle["purchase"] if waiting else None
    if purchase and not campaign.xp_purchases_need_approval:
        campaign.xp_purchases_need_approval = True
        campaign.save(update_fields=["xp_purchases_need_approval"])

    story = chronicle_services.story_create(campaign=campaign, title=title, summary=summary)
    scenes = [
        chronicle_services.scene_create(
            campaign=campaign,
            title=scene_title,
            story=story,
            session_number=number,
            place=place,
            summary=scene_summary,
            participants=characters,
        )
        for number, (scene_title, place, scene_summary) in enumerate(chronicle["scenes"], 1)
    ]
    first, current, last = scenes
    sheets = list(load_sheets(characters, campaign, with_scene=False).values())

    # The first scene: played, hurt, written about, graded and closed.
    _scene_rolls(campaign, sheets, first, chronicle, rng, count=14)
    hurt = by_owner["bruno"]
    health.character_apply_damage(
        character=hurt,
        user=gm,
        damage=DamageInput(**chronicle["damage"]),
        reason=chronicle["damage_reason"],
        scene=first,
        rng=rng,
    )
    for username, (published, _draft) in chronicle["diaries"].items():
        diary_save(
            scene=first,
            character=by_owner[username],
            user=users[username],
            body=published,
            status=DiaryEntry.Status.PUBLISHED,
            visibility=DiaryEntry.Visibility.GROUP,
        )
    rubric = campaign.scene_rubric
    graded = rubric.demo_grades if rubric is not None else ()
    awards = {
        by_owner[owner].pk: rubric.award(grades)
        for owner, grades in zip(("ana", "bruno"), graded, strict=False)
    }
    scene_award_xp(scene=first, user=gm, awards=awards)
    chronicle_services.scene_close(scene=first, user=gm)

    # Days pass: the wound heals a little.
    health.character_advance_time(
        character=hurt, user=gm, hours=chronicle["heal_hours"], reason=chronicle["heal_reason"]
    )

    # The scene being played: more rolls, one secret, drafts, a GM note and a fight.
    _scene_rolls(campaign, sheets, current, chronicle, rng, count=10)
    _two_sided_rolls(campaign, chronicle, by_owner, gm=gm, scene=current, rng=rng)
    # The GM's secret roll, on the free roller as a GM makes one: it touches no sheet.
    roll_store(
        campaign=campaign,
        user=gm,
        record=roll_expression(parse("1d10"), rng),
        scene=current,
        label=chronicle["secret_label"],
        secret=True,
    )
    for username, (_published, draft) in chronicle["diaries"].items():
        diary_save(
            scene=current,
            character=by_owner[username],
            user=users[username],
            body=draft,
            status=DiaryEntry.Status.DRAFT,
            visibility=DiaryEntry.Visibility.GROUP,
        )
    chronicle_services.scene_note_save(scene=current, author=gm, body=chronicle["note"])
    combat = combat_services.combat_start(scene=current, user=gm)
    combat_services.combat_roll_initiative(combat=combat, user=gm, rng=rng)
    _scene_rolls(campaign, sheets, last, chronicle, rng, count=4)

    # The spend the GM has still to approve.
    if purchase:
        xp_purchase_request(
            character=by_owner["ana"],
            user=users["ana"],
            purchase=PurchaseSpec(*purchase),
            apply_now=False,
        )
    # Rolls each player keeps for the table.
    for username, (name, data) in chronicle["saved"].items():
        saved_roll_create(
            character=by_owner[username],
            user=users[username],
            name=name,
            setup={key: [value] for key, value in data.items()},
        )
    return True
