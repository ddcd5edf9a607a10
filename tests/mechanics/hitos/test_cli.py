import json
import subprocess
import sys
from pathlib import Path

import pytest

from mechanics.rules.hitos.odds import odds
from mechanics.rules.hitos.rolls import spec_for_bonus

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.filterwarnings("ignore")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mechanics.rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_odds_command_prints_the_exact_odds_as_json():
    result = run("odds", "hitos", "--json", "--bonus", "10", "--difficulty", "15", "--shift", "-1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    expected = odds(spec_for_bonus(10, 15, -1))
    assert data["p_success"] == pytest.approx(expected.p_success)
    assert data["p_exceptional"] == pytest.approx(0.028)
    assert data["p_dramatic_failure"] == pytest.approx(0.028)
    assert sum(data["distribution"].values()) == pytest.approx(1.0)


def test_odds_command_reads_the_equal_succeeds_setting():
    result = run(
        "odds", "hitos", "--json", "--bonus", "10", "--difficulty", "15", "--equal-succeeds"
    )
    assert json.loads(result.stdout)["p_success"] == pytest.approx(0.648)


def test_roll_command_with_a_seed_is_reproducible():
    args = ("roll", "hitos", "--json", "--bonus", "8", "--difficulty", "15", "--seed", "7")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    record = json.loads(first.stdout)
    assert record == json.loads(second.stdout)
    assert record["system"] == "hitos"
    assert len(record["dice"]) == 3
    assert record["result"] == record["kept"][0] + 8


def test_roll_command_can_roll_an_attack():
    result = run(
        "roll", "hitos", "--json", "--bonus", "20", "--difficulty", "5", "--seed", "1",
        "--weapon", "C+1", "--rd", "1",
    )  # fmt: skip
    record = json.loads(result.stdout)
    assert record["kind"] == "attack"
    assert record["effects"]["damage"] == record["details"]["C"]


def test_health_command_applies_damage():
    result = run("health", "hitos", "--json", "--aguante", "5", "--apply", "3", "--apply", "4")
    data = json.loads(result.stdout)
    assert data["state"] == "Herido"
    assert data["penalty"] == -2
    assert data["massive_damage_tests"] == []
    assert data["time_to_full_hours"] == 3 * 168 + 4 * 24  # lost 7: three weeks, four days


def test_invalid_arguments_print_an_error():
    result = run("odds", "hitos", "--json", "--bonus", "99", "--difficulty", "15")
    assert result.returncode == 2
    assert "bonus" in json.loads(result.stdout)["error"]
    missing = run("odds", "hitos", "--json", "--bonus", "9")
    assert missing.returncode == 2
    assert "difficulty" in json.loads(missing.stdout)["error"]
