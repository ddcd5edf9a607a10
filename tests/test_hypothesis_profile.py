"""Property tests run under the project's profile (tests/conftest.py), whatever the load.

Under Hypothesis's default profile an example slower than 200 ms fails, and slow data
generation fails a health check: both depend on the machine, not on the code.
"""

from hypothesis import HealthCheck, settings


def test_property_tests_have_no_deadline_and_no_speed_health_check():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
