import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mechanics.rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_cli_odds_prints_the_exact_odds_as_json():
    done = _run("odds", "ndp", "--json", "--level", "4", "--adversity", "12", "--gracias", "1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["p_success"] == pytest.approx(0.9201388888888888)
    assert data["p_exceptional"] == 0.0
    assert data["p_dramatic_failure"] == 0.0
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
    assert data["p_progress"] == pytest.approx(0.375)
    assert data["dp"] == 12


def test_cli_odds_human_output_names_the_values():
    done = _run("odds", "ndp", "--level", "2", "--adversity", "9", "--dice", "4")
    assert done.returncode == 0, done.stderr
    assert "p_success:" in done.stdout
    assert "p_progress:" in done.stdout


def test_cli_roll_with_a_seed_is_reproducible():
    args = ("roll", "ndp", "--json", "--level", "3", "--adversity", "10", "--desgracias", "1")
    first = _run(*args, "--seed", "11")
    second = _run(*args, "--seed", "11")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["system"] == "ndp"
    assert len(record["dice"]) == 4
    assert record["outcome"] in {"success", "failure"}


def test_cli_reports_invalid_input_as_an_error():
    done = _run("odds", "ndp", "--json", "--level", "3", "--adversity", "10", "--dice", "5")
    assert done.returncode == 2
    assert "error" in json.loads(done.stdout)
    done = _run("roll", "ndp", "--json", "--level", "30")
    assert json.loads(done.stdout) == {"error": "NdP must be between 0 and 20"}
