"""The rules engine stays pure: no Django, no clock, no global random state."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "mechanics" / "rules"
FORBIDDEN_MODULES = {"django", "time", "datetime"}
FORBIDDEN_RANDOM_CALLS = {
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "uniform",
    "seed",
    "sample",
}


def engine_files():
    return sorted(RULES.rglob("*.py"))


def test_importing_every_engine_module_does_not_import_django():
    modules = [
        ".".join(path.relative_to(RULES.parents[1]).with_suffix("").parts)
        for path in engine_files()
        if path.name != "__main__.py"
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(leaked)\n"
        "sys.exit(1 if leaked else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=RULES.parents[1], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_source_has_no_django_clock_or_global_random():
    problems = []
    for path in engine_files():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.module == "random":
                    problems += [
                        f"{path.name}: from random import {alias.name}"
                        for alias in node.names
                        if alias.name in FORBIDDEN_RANDOM_CALLS
                    ]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr in FORBIDDEN_RANDOM_CALLS
            ):
                problems.append(f"{path.name}:{node.lineno}: random.{node.func.attr}()")
                continue
            else:
                continue
            problems += [
                f"{path.name}:{node.lineno}: imports {name}"
                for name in names
                if name.split(".")[0] in FORBIDDEN_MODULES
            ]
    assert problems == []
