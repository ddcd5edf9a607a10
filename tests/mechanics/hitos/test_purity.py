import subprocess
import sys
from pathlib import Path

import mechanics.rules.hitos as package

ROOT = Path(__file__).resolve().parents[3]

MODULES = ("catalogue", "traits", "rolls", "odds", "health", "cli")


def test_the_hitos_engine_imports_neither_django_nor_icepool():
    code = (
        "import sys\n"
        + "".join(f"import mechanics.rules.hitos.{name}\n" for name in MODULES)
        + "assert 'django' not in sys.modules, 'django'\n"
        + "assert 'icepool' not in sys.modules, 'icepool'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_hitos_engine_uses_no_global_random_state_or_clock():
    for name in ("catalogue", "traits", "rolls", "odds", "health"):
        source = (Path(package.__file__).parent / f"{name}.py").read_text()
        assert "import random" not in source
        assert "import time" not in source
        assert "datetime" not in source
