"""The server log: a refused request writes one line, a server error its traceback."""

import logging

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _request_records(caplog):
    return [record for record in caplog.records if record.name == "django.request"]


def test_a_403_logs_one_line_without_a_traceback(client, caplog, campaign, player):
    client.force_login(player)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("campaigns:edit", args=[campaign.pk]))
    assert response.status_code == 403
    [record] = _request_records(caplog)
    assert record.getMessage().startswith("Forbidden (Permission denied): ")
    assert record.exc_info is None
    assert "Traceback" not in caplog.text


def test_the_gm_reaches_the_page_and_a_stranger_gets_a_404(client, gm, stranger, campaign):
    client.force_login(gm)
    assert client.get(reverse("campaigns:edit", args=[campaign.pk])).status_code == 200
    client.force_login(stranger)
    assert client.get(reverse("campaigns:edit", args=[campaign.pk])).status_code == 404


def test_other_errors_keep_their_traceback():
    from config.logging import ForbiddenInOneLine

    try:
        raise ValueError("boom")
    except ValueError as error:
        record = logging.LogRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "Internal Server Error",
            (),
            (
                ValueError,
                error,
                error.__traceback__,
            ),
        )
    record.status_code = 500
    assert ForbiddenInOneLine().filter(record)
    assert record.exc_info is not None
