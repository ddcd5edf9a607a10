"""The layout the project keeps (README, "Layout"): one folder per rule system, and apps
that depend one way.

Both tests read the source, not the running site, so they fail on the line that breaks a
rule, with its file and line number.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mechanics.rules import SYSTEMS

ROOT = Path(__file__).resolve().parents[1]

# Lowest first. A module may import from its own layer and the layers below it, never
# from one above. The longest matching prefix places a module.
LAYERS: tuple[tuple[str, ...], ...] = (
    # The pure rules engine: no Django, no project code outside itself.
    ("mechanics.rules",),
    # What a rule system is and where to find one: the contract every layer may ask.
    ("mechanics.systems.base", "mechanics.systems.registry"),
    # Campaigns, members, invitations, stories and scenes; the one permission module.
    ("campaigns",),
    # Character sheets, diaries and the XP ledger.
    ("characters",),
    # Play: rolls, health events, combat, and each system's folder.
    ("mechanics",),
    # Search: one index over all of the above.
    ("search",),
    # Sign-up, then the project's settings and URLs, which wire everything together.
    ("accounts",),
    ("config",),
)
CONTRACT = 1  # LAYERS' index of what a rule system is
PACKAGES = ("accounts", "campaigns", "characters", "config", "mechanics", "search")
PROJECT = re.compile(r"^(accounts|campaigns|characters|config|mechanics|search)(\.|$)")


def _python_files(*folders: str):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> int:
    best, best_length = None, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    assert best is not None, f"{module} is in no layer"
    return best


def _imports(tree: ast.Module):
    """(module imported, line, inside a function?, under TYPE_CHECKING?) for every import."""
    found = []

    def visit(node, in_function: bool, type_only: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module] + [f"{child.module}.{a.name}" for a in child.names]
                found.append((names, child.lineno, in_function, type_only))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(([alias.name], child.lineno, in_function, type_only))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, True, type_only)
            elif isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING":
                visit(child, in_function, True)
            else:
                visit(child, in_function, type_only)

    visit(tree, False, False)
    return found


def _app_ready(path: Path, tree: ast.Module, line: int) -> bool:
    """Django loads models before AppConfig.ready(): the one place imports wait for it."""
    if path.name != "apps.py":
        return False
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name == "ready"
        and node.lineno <= line <= node.end_lineno
        for node in ast.walk(tree)
    )


def _project_module(names: list[str]) -> str | None:
    """The project module an import names (the longest of `a.b` / `a.b.c` that exists)."""
    for name in reversed(names):
        if not PROJECT.match(name):
            return None
        path = ROOT / Path(*name.split("."))
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            return name
    return names[0] if PROJECT.match(names[0]) else None


def test_apps_import_only_downwards_and_never_inside_a_function():
    problems = []
    for path in _python_files(*PACKAGES):
        if "migrations" in path.parts:
            continue
        module = _module_name(path)
        layer = _layer(module)
        tree = ast.parse(path.read_text(), filename=str(path))
        for names, line, in_function, type_only in _imports(tree):
            target = _project_module(names)
            if target is None:
                continue
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            if in_function and not _app_ready(path, tree, line):
                problems.append(f"{where} inside a function")
            # The contract every layer asks names none of them, not even for types.
            if (not type_only or layer <= CONTRACT) and _layer(target) > layer:
                problems.append(f"{where}, which sits above it")
    assert problems == [], "\n".join(problems)


# --- No system names in generic code -------------------------------------------------------

# A key as a word in any case ("NdP", "Hitos"): `-`, `.`, `/` and `#` end a word, `_` does not.
KEY_WORD = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(SYSTEMS) + r")(?![A-Za-z0-9_])", re.I)
# A system's own packages: its engine and its Django folder.
SYSTEM_MODULE = re.compile(r"^mechanics\.(?:rules|systems)\.(" + "|".join(SYSTEMS) + r")(?:\.|$)")


def _own_system(path: Path) -> str | None:
    """The system a file belongs to (inside mechanics/rules/<key>/ or mechanics/systems/<key>/)."""
    parts = path.relative_to(ROOT).parts
    if parts[:1] == ("mechanics",) and len(parts) > 3 and parts[1] in ("rules", "systems"):
        return parts[2] if parts[2] in SYSTEMS else None
    return None


def _skipped(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return parts[0] in ("tests", ".venv") or "migrations" in parts


def test_generic_code_reaches_a_system_only_through_the_registry():
    """Outside a system's own folders nothing imports its engine or its Django folder, not
    even for types, nor names one as a module path (`import_module`): generic code asks
    `get_system(...)`, so a system's folders can go without breaking anything else."""
    problems = []
    for path in _python_files(*PACKAGES):
        own = _own_system(path)
        # The shared pure engine sits below the registry and cannot ask it (the free roller
        # rolls the one seed's success pool it reads "Nd10" as).
        shared_engine = path.relative_to(ROOT).parts[:2] == ("mechanics", "rules") and not own
        if _skipped(path) or shared_engine:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        named = [(names, line) for names, line, _in_function, _type_only in _imports(tree)]
        named += [
            ([node.value], node.lineno)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
        for names, line in named:
            found = next(filter(None, map(SYSTEM_MODULE.match, names)), None)
            if found and found.group(1) != own:
                problems.append(f"{path.relative_to(ROOT)}:{line}: {found.group(0).rstrip('.')}")
    assert problems == [], "\n".join(problems)


def test_no_system_key_appears_outside_its_own_folders():
    """Generic code and markup never name a system: not its key as a string, in any case,
    nor (in templates, stylesheets and scripts) as a word ("NdP" read to every system)."""
    problems = []
    for path in _python_files(*PACKAGES, "bench", "scripts"):
        if _skipped(path):
            continue
        own = _own_system(path)
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if node.value.lower() in SYSTEMS and node.value.lower() != own:
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    markup = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/**/*.css")]
    markup += [*ROOT.glob("static/**/*.js"), *ROOT.glob("mechanics/systems/*/templates/**/*")]
    markup += [*ROOT.glob("mechanics/systems/*/static/**/*")]
    for path in markup:
        if not path.is_file():
            continue
        own = _own_system(path)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for key in KEY_WORD.findall(line):
                if key.lower() != own:
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {key}")
    assert problems == [], "\n".join(problems)


def test_the_layers_name_every_app():
    """A new app must be placed in LAYERS before it can import or be imported."""
    listed = {prefix.split(".")[0] for prefixes in LAYERS for prefix in prefixes}
    assert listed == set(PACKAGES)


# --- gettext's `_` is never rebound ------------------------------------------------------------


def _imports_gettext_as_underscore(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("django.utils.translation")
        and any(alias.asname == "_" for alias in node.names)
        for node in ast.walk(tree)
    )


def _binds_underscore(node: ast.AST) -> bool:
    """Whether the node binds the name `_` (assignment, loop, with, except, argument...)."""
    if isinstance(node, ast.Name):
        return node.id == "_" and isinstance(node.ctx, ast.Store)
    if isinstance(node, ast.arg):
        return node.arg == "_"
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return node.name == "_"
    return False


def test_no_module_that_imports_gettext_as_underscore_rebinds_it():
    """`_, scene = ...` in a view made `_("...")` call a tuple item: a 500 after the write."""
    problems = []
    for path in _python_files(*PACKAGES, "bench", "scripts", "tests", "ops"):
        tree = ast.parse(path.read_text(), filename=str(path))
        if not _imports_gettext_as_underscore(tree):
            continue
        for node in ast.walk(tree):
            if _binds_underscore(node):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} rebinds `_`")
    assert problems == [], "\n".join(problems)


# --- No private ORM compiler -----------------------------------------------------------------

PRIVATE_COMPILER = ("get_compiler", "as_sql(", "sql_with_params")


def test_no_module_uses_the_orms_private_compiler():
    """Queries go through the ORM's public API: its compiler's internals change between
    Django versions, and SQL written ahead of time skips what the ORM checks per query."""
    problems = []
    for path in _python_files(*PACKAGES, "ops", "bench", "scripts"):
        if _skipped(path):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for name in PRIVATE_COMPILER:
                if name in line:
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert problems == [], "\n".join(problems)
