"""A form renderer that writes Django's commonest widgets in Python.

Django renders every widget, and every option of a select, through small templates of its
own; the nine selects of a roll panel cost a third of its request. This renderer writes
the same markup as those templates (tests/test_form_renderer.py compares both, widget by
widget) and hands every other template, and any option it does not know, to Django's.
"""

from html import escape

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime

WIDGETS = "django/forms/widgets/"
# Widget templates that are only `{% include "django/forms/widgets/input.html" %}`.
PLAIN_INPUTS = {
    f"{WIDGETS}{name}.html"
    for name in (
        "checkbox",
        "color",
        "date",
        "datetime",
        "email",
        "hidden",
        "input",
        "number",
        "password",
        "search",
        "tel",
        "text",
        "time",
        "url",
    )
}
INPUT_OPTIONS = {f"{WIDGETS}radio_option.html", f"{WIDGETS}checkbox_option.html"}
SELECT = f"{WIDGETS}select.html"
SELECT_OPTION = f"{WIDGETS}select_option.html"


def _shown(value) -> str:
    """`{{ value }}`: localized and escaped unless already safe. A plain string (most
    names and labels; a lazy one once translated) is escaped as Django's `escape` does,
    without its checks for lazy arguments, which cost more than the escaping."""
    if isinstance(value, Promise):
        value = str(value)
    if type(value) is str:
        return escape(value)
    return conditional_escape(localize(template_localtime(value)))


def _formatted(value) -> str:
    """`{{ value|stringformat:'s' }}`: the filter keeps a safe value safe."""
    if type(value) is str:
        return escape(value)
    if type(value) is int:  # digits and a minus sign: nothing to escape
        return str(value)
    return conditional_escape(str(value) if isinstance(value, tuple) else "%s" % (value,))


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html"""
    if not attrs:
        return ""
    return "".join(
        f" {_shown(name)}" if value is True else f' {_shown(name)}="{_formatted(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _input(widget: dict) -> str:
    value = "" if widget["value"] is None else f' value="{_formatted(widget["value"])}"'
    return (
        f'<input type="{_shown(widget["type"])}" name="{_shown(widget["name"])}"{value}'
        f"{_attrs(widget['attrs'])}>"
    )


def _input_option(widget: dict) -> str:
    """django/forms/widgets/input_option.html"""
    if not widget["wrap_label"]:
        return _input(widget)
    target = widget["attrs"].get("id")
    target = f' for="{_shown(target)}"' if target else ""
    # input.html ends in a newline, which the include keeps inside the label.
    return f"<label{target}>{_input(widget)}\n {_shown(widget['label'])}</label>"


def _select(widget: dict) -> str:
    """django/forms/widgets/select.html with select_option.html for each option (whose
    file ends in a newline, which the include keeps)."""
    parts = [f'<select name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_shown(group_name)}">')
        parts.extend(
            f'\n  <option value="{_formatted(option["value"])}"'
            f"{_attrs(option['attrs'])}>{_shown(option['label'])}</option>\n"
            for option in options
        )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def _options_are_plain(widget: dict) -> bool:
    return all(
        option["template_name"] == SELECT_OPTION
        for _group, options, _index in widget["optgroups"]
        for option in options
    )


class FastWidgetRenderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        widget = context.get("widget")
        if template_name in PLAIN_INPUTS:
            return mark_safe(_input(widget))
        if template_name in INPUT_OPTIONS:
            return mark_safe(_input_option(widget))
        if template_name == SELECT and _options_are_plain(widget):
            return mark_safe(_select(widget))
        return super().render(template_name, context, request)
