import json
import pathlib
import subprocess
import sys

import pytest

from mechanics.rules.objetivo.odds import odds
from mechanics.rules.objetivo.rolls import ObjetivoSpec

ROOT = pathlib.Path(__file__).parents[3]


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "mechanics.rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_odds_command_prints_the_exact_odds_as_json():
    done = run("odds", "objetivo", "--json", "--bonus", "12", "--difficulty", "20", "--shift", "1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    exact = odds(ObjetivoSpec(bonus=12, difficulty=20, shift=1))
    assert data["p_success"] == pytest.approx(exact.p_success)
    assert data["p_exceptional"] == pytest.approx(exact.p_exceptional)
    assert data["p_dramatic_failure"] == pytest.approx(0.001)
    assert sum(data["distribution"].values()) == pytest.approx(1.0)


def test_odds_command_for_an_attribute_roll_in_human_form():
    done = run("odds", "objetivo", "--bonus", "16", "--difficulty", "25", "--attribute-roll")
    assert done.returncode == 0, done.stderr
    assert "p_success: 0.104000" in done.stdout  # a 9 or 10 on the median die: 76 + 28 in 1000


def test_roll_command_with_a_seed_is_repeatable():
    args = ("roll", "objetivo", "--json", "--bonus", "10", "--difficulty", "15", "--seed", "7")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["system"] == "objetivo"
    assert record["kind"] == "skill"
    assert len(record["dice"]) >= 3


def test_invalid_input_prints_a_rule_error():
    done = run("odds", "objetivo", "--json", "--bonus", "99", "--difficulty", "20")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": "bonus out of range -20..50"}
