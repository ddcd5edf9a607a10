"""Settings for the page and load benchmarks: the production settings (debug off, the
manifest static storage, HTTPS behind a proxy) with the bench's URLs, which add the
bare view beside the site's own. Only the benchmarks use this module."""

import os

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
# collectstatic runs into a throw-away folder; the manifest lookup costs what it costs
# in production (whitenoise's subclass only adds compression at collectstatic time).
STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
