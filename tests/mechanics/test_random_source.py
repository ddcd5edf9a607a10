"""Chi-square goodness of fit of the production random source on common dice."""

import math

import pytest

from mechanics.rules.dice import default_rng, roll_die

# Upper critical values of chi-square at alpha = 0.001 for (faces - 1) degrees of freedom.
CRITICAL_0_001 = {3: 16.266, 5: 20.515, 7: 24.322, 9: 27.877}


@pytest.mark.parametrize("faces", [4, 6, 8, 10])
def test_production_random_source_is_uniform_on_each_die(faces):
    rng = default_rng()
    rolls = 60_000
    counts = [0] * faces
    for _ in range(rolls):
        counts[roll_die(rng, faces) - 1] += 1
    expected = rolls / faces
    chi_square = sum((count - expected) ** 2 / expected for count in counts)
    assert chi_square < CRITICAL_0_001[faces - 1], (counts, chi_square)
    assert math.isclose(sum(counts), rolls)


def test_production_random_source_is_the_system_csprng():
    import secrets

    assert isinstance(default_rng(), secrets.SystemRandom)
