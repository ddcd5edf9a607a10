"""`{{ form|crispy_cached }}` and `{{ form.field|crispy_field_cached }}`: crispy's rendering
of an unbound form or field, cached by what it shows; `{% fragment %}`, a block of the
sheet cached by the values it is made of.

Crispy renders a template per field, a few milliseconds a form, and a GM's sheet shows
the same empty forms on every request. As in `campaigns.fragments`, the key is a digest of
the HTML's inputs, so there is nothing to invalidate: the form's class, prefix and ids,
and each field's name, label, help text, flags, widget with its attributes, choices and
initial value, in the active language. A write that changes any of them (a detail's
current value, a choice that goes away, another character's ids) makes another key.
Bound forms (a refused submission, with its values and errors) are rendered every time.
"""

from __future__ import annotations

from crispy_forms.templatetags.crispy_forms_filters import as_crispy_field, as_crispy_form
from django import forms, template
from django.core.cache import caches
from django.db import models
from django.utils.safestring import mark_safe

from campaigns.forms.menus import option_tags
from campaigns.fragments import (
    CACHE,
    NESTED,
    cached_fragment,
    cached_htmls,
    fragment_key,
    row_state,
)

register = template.Library()
register.filter("option_tags", option_tags)


def _choices(choices) -> list:
    """Choices as plain text (a model choice's value object has no stable repr)."""
    plain = []
    for value, label in choices:
        if isinstance(label, list | tuple):  # an optgroup
            plain.append((str(value), _choices(label)))
        else:
            plain.append((str(value), str(label)))
    return plain


def _field_state(bound) -> tuple:
    field, widget = bound.field, bound.field.widget
    return (
        bound.html_name,
        bound.auto_id,
        str(bound.label),
        str(field.help_text),
        field.required,
        field.disabled,
        field.show_hidden_initial,
        field.localize,
        type(field).__qualname__,
        type(widget).__module__,
        type(widget).__qualname__,
        widget.template_name,
        widget.attrs,
        [sub.attrs for sub in getattr(widget, "widgets", ())],
        _choices(getattr(widget, "choices", ())),
        repr(bound.value()),
    )


def _form_state(form) -> tuple:
    return (
        type(form).__module__,
        type(form).__qualname__,
        form.prefix,
        form.auto_id,
        form.label_suffix,
        getattr(form, "required_css_class", None),
    )


def _cached(key: str, render) -> str:
    cache = caches[CACHE]
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, 3600)
    return mark_safe(html)  # crispy's templates escaped it


@register.filter
def crispy_cached(form):
    if form.is_bound or not isinstance(form, forms.BaseForm):
        return as_crispy_form(form)
    state = (_form_state(form), [_field_state(bound) for bound in form])
    return _cached(fragment_key("crispy-form", state), lambda: as_crispy_form(form))


@register.filter
def crispy_field_cached(bound):
    if bound.form.is_bound:
        return as_crispy_field(bound)
    state = (_form_state(bound.form), _field_state(bound))
    return _cached(fragment_key("crispy-field", state), lambda: as_crispy_field(bound))


# The template's `{% fragment %}` nodes, as its parser met them (`read_fragments_ahead`).
FRAGMENTS = "cronica-fragments"


class FragmentNode(template.Node):
    def __init__(self, name: str, parts: list, nodelist):
        self.name, self.parts, self.nodelist = name, parts, nodelist

    def key(self, context) -> str:
        values = []
        for part in self.parts:
            value = part.resolve(context)
            # A row's key is every value it holds (its repr names only the row).
            values.append(row_state(value) if isinstance(value, models.Model) else repr(value))
        return fragment_key(self.name, *values)

    def render(self, context) -> str:
        def render(extra: dict) -> str:
            with context.push(**extra):
                return self.nodelist.render(context)

        return cached_fragment(context.request, self.key(context), render)


@register.tag
def fragment(parser, token):
    """`{% fragment "name" value ... %}…{% endfragment %}`: the block rendered once per
    set of values (and language) and cached (`campaigns.fragments.cached_fragment`, so a
    form's CSRF token is the request's own). The values must be everything the block
    shows: plain values, dataclasses, rows (taken whole)."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("fragment needs a name")
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    name = bits[1].strip("\"'")
    node = FragmentNode(name, [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
    parser.extra_data.setdefault(FRAGMENTS, []).append(node)
    return node


class AheadNode(template.Node):
    def __init__(self, fragments: list[FragmentNode]):
        self.fragments = fragments  # filled as the parser goes on

    def render(self, context) -> str:
        cached_htmls(context.request, [node.key(context) for node in self.fragments])
        return ""


@register.tag
def read_fragments_ahead(parser, token):
    """`{% read_fragments_ahead %}`: every `{% fragment %}` of this template read from the
    cache here, in one round trip to a shared cache rather than one each (the chrome of
    base.html). For fragments whose values are all set at this point: one keyed by a value
    set later is not found ahead, and its own tag reads it."""
    return AheadNode(parser.extra_data.setdefault(FRAGMENTS, []))


class KeyedFragmentNode(template.Node):
    def __init__(self, key, nodelist):
        self.key, self.nodelist = key, nodelist

    def render(self, context) -> str:
        key = self.key.resolve(context)
        if not key:
            return self.nodelist.render(context)

        request = context.request

        def render(extra: dict) -> str:
            # The fragments inside keep the CSRF placeholder: this one is stored with it.
            nested = getattr(request, NESTED, False)
            setattr(request, NESTED, True)
            try:
                with context.push(**extra):
                    return self.nodelist.render(context)
            finally:
                setattr(request, NESTED, nested)

        return cached_fragment(request, key, render)


@register.tag
def fragment_at(parser, token):
    """`{% fragment_at key %}…{% endfragment_at %}`: the block stored under a cache key the
    view computed (from everything the block shows), or rendered plainly when the key is
    empty (a view that shows errors or bound forms)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("fragment_at needs one key")
    nodelist = parser.parse(("endfragment_at",))
    parser.delete_first_token()
    return KeyedFragmentNode(parser.compile_filter(bits[1]), nodelist)
