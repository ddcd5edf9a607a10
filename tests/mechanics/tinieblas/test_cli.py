"""The tinieblas CLI commands, run as a GM would run them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run(*args):
    completed = subprocess.run(
        [sys.executable, "-m", "mechanics.rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return completed


def run_json(*args):
    completed = run(args[0], "tinieblas", "--json", *args[1:])
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_odds_command_prints_probabilities_and_distribution():
    data = run_json("odds", "--pool", "3", "--again", "8", "--rote")
    assert data["pool"] == 3
    assert data["p_success"] == pytest.approx(1 - 0.49**3)
    assert data["p_dramatic_failure"] == 0.0
    assert sum(data["distribution"].values()) == pytest.approx(1.0, abs=1e-12)
    assert 0 < data["p_exceptional"] < 1


def test_odds_command_with_no_dice_is_a_chance_die():
    data = run_json("odds", "--pool=-2", "--again", "none")
    assert data["chance_die"] is True
    assert data["p_success"] == pytest.approx(0.3)
    assert data["p_dramatic_failure"] == pytest.approx(0.1)


def test_roll_command_with_a_seed_repeats():
    first = run_json("roll", "--pool", "6", "--again", "9", "--seed", "42")
    again = run_json("roll", "--pool", "6", "--again", "9", "--seed", "42")
    assert first == again
    assert first["system"] == "tinieblas"
    assert len(first["dice"]) >= 6
    assert first["result"] == sum(1 for i in first["kept"] if first["dice"][i]["value"] >= 8)


def test_health_command_reads_the_barman_track():
    data = run_json("health", "--apply", "2B", "2L", "3L")
    assert data == {
        "track": "LLLLLBB",
        "state": "Incapacitado",
        "unconscious": True,
        "dead": False,
        "penalty": -5,
        "cannot_act": True,
        "heal_time": {"months": 3, "weeks": 1, "days": 4, "hours": 18},
    }


def test_health_command_on_a_longer_track_shows_empty_boxes():
    data = run_json("health", "--boxes", "9", "--apply", "2B")
    assert data["track"] == "BB......."
    assert data["state"] is None
    assert data["penalty"] == 0


def test_health_command_reports_death():
    data = run_json("health", "--apply", "7L", "1B")
    assert data["dead"] is True
    assert data["heal_time"] is None


def test_health_command_refuses_bad_damage():
    completed = run("health", "tinieblas", "--json", "--apply", "2X")
    assert completed.returncode == 2
    assert json.loads(completed.stdout) == {"error": "damage must look like 2B, 1L or 3A"}


@pytest.mark.parametrize(
    ("trait", "current", "cost"),
    [
        ("attribute", 2, 10),
        ("skill", 2, 6),
        ("skill", 0, 3),
        ("morality", 7, 24),
        ("willpower", 5, 10),
    ],
)
def test_xp_cost_command(trait, current, cost):
    assert run_json("xp-cost", "--trait", trait, "--current", str(current)) == {"cost": cost}


def test_human_output_is_readable():
    completed = run("odds", "tinieblas", "--pool", "5")
    assert completed.returncode == 0
    assert "p_success: 0.8" in completed.stdout
