"""The site as tests/test_fuzz.py walks it: a small played table (the demo's campaign of
each system, with every kind of object in it and a member of every role), every URL
pattern of the resolver with its path filled from that table, and the forms and query
parameters the table's pages offer (read from the pages themselves, so a new form is
walked without editing the fuzz test)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import parse_qsl, quote, urlsplit

from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.utils import timezone

from campaigns import services as campaign_services
from campaigns.models import Campaign, Invitation, Membership, Role, SceneNote, Story
from characters import services as character_services
from characters.advancement import PurchaseSpec
from characters.models import Aspect, Character, Item, Merit, Specialty, XpPurchase
from mechanics.models import Combat, CombatAttack, CombatParticipant, Roll
from mechanics.services.combat import combat_add_participants
from tests.e2e.played import played_table
from tests.factories import MembershipFactory, UserFactory
from tests.html import parse

ROLES = ("gm", "player", "observer", "stranger", "anonymous")
# Rows that requests write as a matter of course, not data: sessions (and the messages
# kept in them), login attempts, the admin's own log, and the picture uploads counted
# against a user's hourly allowance (refused ones too: decoding them is the cost).
NOT_DATA = {"sessions", "axes", "admin", "contenttypes"}
NOT_DATA_TABLES = {"accounts_session", "campaigns_uploadallowance"}
CONVERTER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full route ("campaigns/<id:campaign_id>/") and its name."""

    route: str
    name: str

    @property
    def params(self) -> list[tuple[str, str]]:
        """(converter, name) of each path parameter; regex groups count as `str`."""
        found = [(m["converter"] or "str", m["name"]) for m in CONVERTER.finditer(self.route)]
        return found + [("str", g) for g in re.findall(r"\(\?P<(\w+)>", self.route)]

    @property
    def is_admin(self) -> bool:
        return self.route.startswith("admin/")

    def fill(self, values: dict[str, str]) -> str:
        """The path with each parameter replaced by its (already quoted) value."""
        path = CONVERTER.sub(lambda m: values[m["name"]], self.route)
        if "(?P<" in path or path.startswith("^") or "^" in path:
            path = re.sub(r"\^|\$", "", path)
            path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[m[1]], path)
        return "/" + path


def routes() -> list[Route]:
    """Every URL pattern the resolver knows, in order."""

    def walk(patterns, prefix: str, namespace: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = ":".join(filter(None, [namespace, pattern.namespace or ""]))
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                name = f"{namespace}:{pattern.name}" if namespace else str(pattern.name)
                yield Route(route, name if pattern.name else route)

    return list(walk(get_resolver().url_patterns, "", ""))


def route_of(path: str) -> str | None:
    """The full route of a path of the site (None when nothing matches)."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.route


@dataclass
class FormSpec:
    """A form a page offers: where it goes and its fields (name, kind, the values it
    offers; buttons count as fields)."""

    method: str
    action: str
    fields: list[tuple[str, str, list[str]]]


@dataclass
class Table:
    users: dict[str, User | None]
    campaigns: dict[str, Campaign]
    ids: dict[str, dict[str, list[str]]]  # system -> path parameter -> real values
    admin_ids: dict[str, dict[str, list[str]]]  # system -> "app_model" -> pks
    forms: dict[str, list[FormSpec]] = field(default_factory=lambda: defaultdict(list))
    queries: dict[str, dict[str, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    export: dict = field(default_factory=dict)  # a real sheet file, to tamper with


def build_table() -> Table:
    """The demo's four campaigns after some play (tests/e2e/played.py), with an observer,
    a stranger, an invitation, a pending purchase and a fight with an attack in each."""
    played = played_table()
    gm, player = User.objects.get(username="master"), User.objects.get(username="ana")
    observer, stranger = UserFactory(username="olga"), UserFactory(username="charlie")
    campaigns, ids, admin_ids = {}, {}, {}
    for system, (campaign, scene, character) in played.items():
        MembershipFactory(campaign=campaign, user=observer, role=Role.OBSERVER)
        campaign_services.invitation_create(
            campaign=campaign,
            user=gm,
            role=Role.PLAYER,
            expires_at=timezone.now() + timedelta(days=7),
            max_uses=3,
        )
        _play_more(campaign, scene, character, gm)
        campaigns[system] = campaign
        ids[system] = _path_values(campaign, scene, character)
        admin_ids[system] = _admin_values(campaign)
    table = Table(
        users={
            "gm": gm,
            "player": player,
            "observer": observer,
            "stranger": stranger,
            "anonymous": None,
        },
        campaigns=campaigns,
        ids=ids,
        admin_ids=admin_ids,
    )
    _crawl(table)
    return table


def _play_more(campaign, scene, character, gm) -> None:
    if campaign.game_system.advancement is not None:
        character_services.xp_adjust(character=character, user=gm, amount=40, reason="Fuzz")
        campaign.xp_purchases_need_approval = True
        campaign.save(update_fields=["xp_purchases_need_approval"])
        for kind, key in (("skill", "sigilo"), ("attribute", "fuerza"), ("skill", "pelea")):
            try:
                character_services.xp_purchase_request(
                    character=character,
                    user=character.owner,
                    purchase=PurchaseSpec(kind, key),
                    apply_now=False,
                )
                break
            except ValidationError:  # not a trait this system sells: the next one
                continue
    combat = Combat.objects.filter(scene=scene).first()
    cast = list(campaign.characters.order_by("pk"))
    gm_client = Client()
    gm_client.force_login(gm)
    if combat is not None:
        combat_add_participants(combat=combat, characters=cast)
        # An attack as the GM would record it: the form's own defaults, two fighters.
        url = f"/campaigns/{campaign.pk}/scenes/{scene.pk}/combat/{combat.pk}/attack/"
        for spec in forms_of(gm_client.get(url).text):
            if spec.method == "post" and any(name == "attacker" for name, *_ in spec.fields):
                data = {name: values[0] for name, _kind, values in spec.fields if values}
                data.update(attacker=cast[0].pk, target=cast[-1].pk)
                gm_client.post(url, data)
                break


def _values(queryset) -> list[str]:
    return [str(pk) for pk in queryset.order_by("pk").values_list("pk", flat=True)[:3]]


def _path_values(campaign, scene, character) -> dict[str, list[str]]:
    """Real values of every path parameter in this campaign."""
    combat = Combat.objects.filter(scene__campaign=campaign)
    sheet = Character.objects.filter(campaign=campaign)
    keys = list(character.traits.values_list("key", flat=True)[:3])
    keys += list(character.resources.values_list("key", flat=True)[:3])
    tokens = [
        str(token)
        for token in Invitation.objects.filter(campaign=campaign).values_list("token", flat=True)
    ]
    return {
        "campaign_id": [str(campaign.pk)],
        "scene_id": _values(campaign.scenes.all()),
        "character_id": _values(sheet),
        "invitation_id": _values(Invitation.objects.filter(campaign=campaign)),
        "membership_id": _values(Membership.objects.filter(campaign=campaign)),
        "note_id": _values(SceneNote.objects.filter(scene__campaign=campaign)),
        "story_id": _values(Story.objects.filter(campaign=campaign)),
        "aspect_id": _values(Aspect.objects.filter(character__campaign=campaign)),
        "specialty_id": _values(Specialty.objects.filter(character__campaign=campaign)),
        "merit_id": _values(Merit.objects.filter(character__campaign=campaign)),
        "item_id": _values(Item.objects.filter(character__campaign=campaign)),
        "purchase_id": _values(XpPurchase.objects.filter(character__campaign=campaign)),
        "roll_id": _values(Roll.objects.filter(campaign=campaign, character=character)),
        "combat_id": _values(combat),
        "participant_id": _values(CombatParticipant.objects.filter(combat__in=combat)),
        "attack_id": _values(CombatAttack.objects.filter(combat__in=combat)),
        "key": keys,
        "token": tokens,
        "uidb64": ["MQ", "Mg"],
        "content_type_id": [str(ContentType.objects.get_for_model(Character).pk)],
        "app_label": ["campaigns", "characters", "auth", "axes"],
        "url": ["campaigns/", "nada/"],
        "id": _values(User.objects.all()),
    }


def _admin_values(campaign) -> dict[str, list[str]]:
    """Primary keys per admin model ("app_model"), of rows of this campaign if it has any."""
    found = {}
    for model in apps.get_models():
        meta = model._meta
        queryset = model.objects.all()
        if model is Campaign:
            queryset = queryset.filter(pk=campaign.pk)
        elif any(f.name == "campaign" for f in meta.fields):
            queryset = queryset.filter(campaign=campaign)
        elif any(f.name == "character" for f in meta.fields):
            queryset = queryset.filter(character__campaign=campaign)
        found[f"{meta.app_label}_{meta.model_name}"] = _values(queryset)
    return found


def _admin_model(route: Route) -> str | None:
    match = re.match(r"admin/(\w+)/(\w+)/", route.route)
    return f"{match[1]}_{match[2]}" if match else None


def real_values(table: Table, route: Route, system: str) -> dict[str, list[str]]:
    """Candidate values of each path parameter of `route` in one system's campaign."""
    known = table.ids[system]
    values = {}
    for _converter, name in route.params:
        if name == "object_id":
            values[name] = table.admin_ids[system].get(_admin_model(route) or "", [])
        else:
            values[name] = known.get(name, [])
        values[name] = [quote(v, safe="") for v in values[name]] or ["1"]
    return values


# Reading the pages ------------------------------------------------------------------------


def forms_of(html: str) -> list[FormSpec]:
    """The forms of a page (and the htmx controls that post on their own)."""
    specs = []
    page = parse(html)
    for element in page.iter():
        attrs = element.attrs
        posts = attrs.get("hx-post")
        if element.tag != "form" and not posts:
            continue
        method = "post" if posts or attrs.get("method", "get").lower() == "post" else "get"
        fields = []
        controls = element.iter() if element.tag == "form" else [element]
        for control in controls:
            name = control.attrs.get("name")
            if not name or control.tag not in ("input", "select", "textarea", "button"):
                continue
            kind = control.attrs.get("type", control.tag).lower()
            if control.tag == "select":
                options = [o.attrs.get("value", o.text()) for o in control.find_all("option")]
            elif control.tag == "textarea":
                options = [control.text()]
            elif kind in ("checkbox", "radio"):
                options = [control.attrs.get("value", "on")]
            else:
                options = [control.attrs.get("value", "")]
            fields.append((name, kind, options))
        for name, value in _hx_vals(attrs.get("hx-vals", "")).items():
            fields.append((name, "hidden", [str(value)]))
        action = posts or attrs.get("action") or attrs.get("hx-get") or ""
        specs.append(FormSpec(method=method, action=action, fields=fields))
    return specs


def _hx_vals(text: str) -> dict:
    try:
        values = json.loads(text) if text else {}
    except ValueError:
        return {}
    return values if isinstance(values, dict) else {}


def _crawl(table: Table) -> None:
    """GET every route as the GM (and a character's pages as its player too), and keep
    the forms, links and query parameters the pages offer, by route. A sheet's pages
    differ by system: those are read in every campaign, the others in one each, in turn."""
    clients = {}
    for role in ("gm", "player"):
        clients[role] = Client()
        clients[role].force_login(table.users[role])
    systems = sorted(table.campaigns)
    for number, route in enumerate(routes()):
        if route.name in ("logout", "admin:logout"):
            continue
        names = {name for _converter, name in route.params}
        in_turn = [systems[number % len(systems)]]
        for system in systems if "character_id" in names else in_turn:
            real = real_values(table, route, system)
            path = route.fill({name: options[0] for name, options in real.items()})
            for role in ("gm", "player") if "character_id" in names else ("gm",):
                response = clients[role].get(path)
                if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                    _read(table, path, response.content.decode())
    owner = clients["player"]
    character = Character.objects.filter(owner=table.users["player"]).first()
    export = owner.get(f"/campaigns/{character.campaign_id}/characters/{character.pk}/export.json")
    table.export = json.loads(export.content)


def _read(table: Table, path: str, html: str) -> None:
    for spec in forms_of(html):
        action = urlsplit(spec.action or path)
        route = route_of(action.path or urlsplit(path).path)
        if route is None:
            continue
        if spec.method == "post":
            table.forms[route].append(spec)
        else:
            for name, _kind, options in spec.fields:
                table.queries[route][name].update(options[:5])
        for name, value in parse_qsl(action.query):
            table.queries[route][name].add(value)
    for link in re.findall(r'(?:href|hx-get)="([^"#]+)"', html):
        parts = urlsplit(link.replace("&amp;", "&"))
        route = None if parts.netloc else route_of(parts.path or path)
        if route is None:
            continue
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            table.queries[route][name].add(value)


# Row counts -------------------------------------------------------------------------------


def data_tables() -> list[str]:
    return [
        model._meta.db_table
        for model in apps.get_models()
        if model._meta.app_label not in NOT_DATA
        and model._meta.db_table not in NOT_DATA_TABLES
        and not model._meta.proxy
    ]


def row_counts(tables: list[str]) -> dict[str, int]:
    """Rows in each table, in one query."""
    quoted = [connection.ops.quote_name(t) for t in tables]
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t})" for t in quoted)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(zip(tables, cursor.fetchone(), strict=True))
