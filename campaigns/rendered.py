"""Markdown rendered once, when its text is saved, so that pages never parse it.

A model keeps its Markdown in an ordinary text field and declares a companion
`RenderedMarkdownField(source="body")`, filled with `render_markdown` of the source on
every save (bulk_create too, through `pre_save`). Models that use one inherit
`RendersMarkdown`, so a save limited to some `update_fields` that names the source also
writes its HTML. Templates show the stored HTML as it is: it was sanitised on the way in.
"""

from __future__ import annotations

from django.db import models
from django.utils.safestring import SafeString, mark_safe

from campaigns.markdown import render_markdown

BATCH = 500


class RenderedMarkdownField(models.TextField):
    """The sanitised HTML of the model's `source` field; not editable by hand."""

    def __init__(self, *args, source: str, **kwargs) -> None:
        self.source = source
        kwargs.setdefault("editable", False)
        kwargs.setdefault("blank", True)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["source"] = self.source
        for key, value in (("editable", False), ("blank", True), ("default", "")):
            if kwargs.get(key) == value:
                del kwargs[key]
        return name, path, args, kwargs

    def pre_save(self, model_instance: models.Model, add: bool) -> SafeString:
        html = render_markdown(getattr(model_instance, self.source))
        setattr(model_instance, self.attname, html)
        return html

    def from_db_value(self, value, expression, connection):
        # Sanitised when it was stored; the database is not user input.
        return value if value is None else mark_safe(value)


def rendered_fields(model: type[models.Model]) -> list[RenderedMarkdownField]:
    return [f for f in model._meta.concrete_fields if isinstance(f, RenderedMarkdownField)]


class RendersMarkdown(models.Model):
    """A model with RenderedMarkdownFields: partial saves keep the HTML in step."""

    class Meta:
        abstract = True

    def save(self, *args, update_fields=None, **kwargs) -> None:
        if update_fields is not None:
            update_fields = set(update_fields)
            update_fields |= {
                field.name for field in rendered_fields(type(self)) if field.source in update_fields
            }
        super().save(*args, update_fields=update_fields, **kwargs)


def fill_rendered(model: type[models.Model]) -> int:
    """Render every row's HTML again (a data migration passes its historical model).

    Returns how many rows were written."""
    fields = rendered_fields(model)
    if not fields:
        return 0
    names = [field.attname for field in fields]
    rows = model._base_manager.only("pk", *[field.source for field in fields]).order_by("pk")
    batch: list[models.Model] = []
    written = 0
    for row in rows.iterator(chunk_size=BATCH):
        for field in fields:
            setattr(row, field.attname, render_markdown(getattr(row, field.source)))
        batch.append(row)
        if len(batch) == BATCH:
            model._base_manager.bulk_update(batch, names)
            written += len(batch)
            batch = []
    if batch:
        model._base_manager.bulk_update(batch, names)
        written += len(batch)
    return written
