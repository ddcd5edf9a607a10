"""Logging filters for the settings' LOGGING."""

from __future__ import annotations

import logging


class ForbiddenInOneLine(logging.Filter):
    """A refused request (403) is everyday traffic, not a fault: its log record keeps its
    one line ("Forbidden (Permission denied): /path") and drops the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
