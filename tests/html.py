"""Read a page as elements, so a test asserts on the element that holds a value rather
than on a substring that could match anywhere (a "6" inside "fs-6")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        """The words inside, with runs of blanks made one space."""
        parts = [child if isinstance(child, str) else child.text() for child in self.children]
        return re.sub(r"\s+", " ", " ".join(parts)).strip()

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Element]:
        """Elements by tag and attributes (`class_` for class; True: the attribute is there).
        A class matches one of the element's classes."""
        wanted = {key.rstrip("_").replace("_", "-"): value for key, value in attrs.items()}
        return [
            element
            for element in self.iter()
            if (tag is None or element.tag == tag)
            and all(_matches(element, key, value) for key, value in wanted.items())
        ]

    def one(self, tag: str | None = None, **attrs: str | bool) -> Element:
        """The single element that matches; fails when there are none or several."""
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} elements match {tag} {attrs}"
        return found[0]


def _matches(element: Element, key: str, value: str | bool) -> bool:
    if key not in element.attrs:
        return False
    if value is True:
        return True
    if key == "class":
        return value in element.attrs["class"].split()
    return element.attrs[key] == value


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag):
        # Close up to the matching open element; a stray end tag is ignored.
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(content: str | bytes) -> Element:
    """The page as a tree of elements (from a response's content or any HTML text)."""
    builder = _Builder()
    builder.feed(content.decode() if isinstance(content, bytes) else content)
    builder.close()
    return builder.root


def lazy_panel(page: str, address: str) -> Element:
    """The <details> of a page that loads the form posted to `address`, or holds it
    (components/lazy_form.html)."""
    [found] = [
        details
        for details in parse(page).find_all("details")
        if address
        in (details.attrs.get("hx-get"), *(f.attrs["action"] for f in details.find_all("form")))
    ]
    return found
