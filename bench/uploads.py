"""Upload benchmark: the CPU time `campaigns.images.clean_upload` takes to check and redraw
a 4000 × 4000 picture (the largest accepted) as JPEG, PNG and WebP: median of a few runs.
CPU time of this process, not wall time: on a shared machine it is what a worker spends.

Run: .venv/bin/python bench/uploads.py [--runs 5]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django

django.setup()

from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from PIL import Image  # noqa: E402

from campaigns.images import MAX_SIDE, clean_upload  # noqa: E402


def picture(image_format: str) -> bytes:
    """A picture in colour, under 5 MB in each format (grain only where lossy: a PNG of
    grain is larger)."""
    side = MAX_SIDE
    bands = [
        Image.linear_gradient("L").resize((side, side)),
        Image.radial_gradient("L").resize((side, side)),
        Image.linear_gradient("L").rotate(90).resize((side, side)),
    ]
    colour = Image.merge("RGB", bands)
    if image_format != "PNG":
        colour = Image.blend(colour, Image.effect_noise((side, side), 30).convert("RGB"), 0.1)
    out = io.BytesIO()
    colour.save(out, format=image_format, quality=90)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"clean_upload of a {MAX_SIDE} × {MAX_SIDE} picture, CPU median of {args.runs} runs:")
    for image_format in ("JPEG", "PNG", "WEBP"):
        data = picture(image_format)
        times = []
        for _ in range(args.runs):
            upload = SimpleUploadedFile(f"x.{image_format.lower()}", data)
            start = time.process_time()
            clean_upload(upload)
            times.append(time.process_time() - start)
        print(
            f"{image_format:5} {len(data) / 1e6:5.1f} MB  "
            f"{statistics.median(times) * 1000:7.0f} ms  (min {min(times) * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
