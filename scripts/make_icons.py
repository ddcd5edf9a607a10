"""Draw Crónica's favicon and app icons: a crimson ten-sided die on ink.

One geometry makes the SVG favicon and the PNG app icons (192 and 512 px, drawn with
Pillow), so they always match. Run from anywhere: `.venv/bin/python scripts/make_icons.py`.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
BOX = 64  # the drawing's own units
INK, CRIMSON, SHADE, BONE = "#1d1612", "#8c1c2b", "#5f111c", "#e9dfcf"
# A d10 seen face on: the outline, the front kite face, and the two shaded side faces.
OUTLINE = [(32, 5), (58, 28), (58, 37), (32, 59), (6, 37), (6, 28)]
FRONT = [(32, 5), (45, 33), (32, 42), (19, 33)]
LEFT = [(32, 5), (19, 33), (6, 28)]
RIGHT = [(32, 5), (58, 28), (45, 33)]
EDGES = [
    [(6, 37), (19, 33)],
    [(58, 37), (45, 33)],
    [(32, 42), (32, 59)],
]
RADIUS = 14  # corner radius of the ink tile


def _points(points) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def svg() -> str:
    stroke = f'fill="none" stroke="{BONE}" stroke-width="2.2" stroke-linejoin="round"'
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {BOX} {BOX}">',
            f'<rect width="{BOX}" height="{BOX}" rx="{RADIUS}" fill="{INK}"/>',
            f'<polygon points="{_points(OUTLINE)}" fill="{CRIMSON}"/>',
            f'<polygon points="{_points(LEFT)}" fill="{SHADE}"/>',
            f'<polygon points="{_points(RIGHT)}" fill="{SHADE}"/>',
            f'<polygon points="{_points(OUTLINE)}" {stroke}/>',
            f'<polygon points="{_points(FRONT)}" {stroke}/>',
            *(f'<polyline points="{_points(edge)}" {stroke}/>' for edge in EDGES),
            "</svg>",
            "",
        ]
    )


def png(size: int) -> Image.Image:
    # Draw at 4x and scale down: Pillow's polygons are not anti-aliased.
    scale = size * 4 / BOX
    image = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)

    def at(points):
        return [(x * scale, y * scale) for x, y in points]

    draw.rounded_rectangle((0, 0, size * 4 - 1, size * 4 - 1), RADIUS * scale, fill=INK)
    draw.polygon(at(OUTLINE), fill=CRIMSON)
    draw.polygon(at(LEFT), fill=SHADE)
    draw.polygon(at(RIGHT), fill=SHADE)
    width = round(2.2 * scale)
    for shape in (OUTLINE, FRONT):
        draw.line(at([*shape, shape[0]]), fill=BONE, width=width, joint="curve")
    for edge in EDGES:
        draw.line(at(edge), fill=BONE, width=width)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "favicon.svg").write_text(svg(), encoding="utf-8")
    for size in (192, 512):
        png(size).save(ICONS / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
