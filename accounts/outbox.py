"""Mail sent after the response, by one background thread.

A password-reset request for an address with an account renders and sends a mail; one for
an address without does not. Done inline, the answer came 20 ms later for a known address,
telling anyone who has an account. The request path now only queues the work, so both
answers take the same time; the thread renders and sends in the request's language.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
from collections.abc import Callable

from django.utils import translation

log = logging.getLogger(__name__)

_jobs: queue.Queue[tuple[str | None, Callable[[], object]]] = queue.Queue()
_started = threading.Lock()
_worker: threading.Thread | None = None


def _work() -> None:
    while True:
        language, job = _jobs.get()
        try:
            with translation.override(language):
                job()
        except Exception:
            log.exception("Mail not sent")
        finally:
            _jobs.task_done()


def send_later(job: Callable[[], object]) -> None:
    """Run `job` (which sends mail) after this request, in its language."""
    global _worker
    with _started:
        if _worker is None:
            _worker = threading.Thread(target=_work, name="cronica-outbox", daemon=True)
            _worker.start()
    _jobs.put((translation.get_language(), job))


def wait() -> None:
    """Until every queued mail is sent: for tests, and at exit so none is lost."""
    _jobs.join()


atexit.register(wait)
