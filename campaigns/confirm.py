"""Destructive actions ask first.

With JavaScript, a `<form data-confirm="question">` opens a small dialog (static/js/app.js)
and posts with `confirmed=1`. Without it, the POST arrives unconfirmed and the view answers
with a page that asks the same question and re-posts the form with `confirmed=1`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"


def ask_first(
    request: HttpRequest, *, question: str, button: str, cancel_url: str
) -> HttpResponse | None:
    """None when the POST is confirmed; otherwise the page that asks.

    Call it after the permission checks and object lookups, so that a member who may not
    act gets the same 403/404 whether or not they confirmed.
    """
    if request.POST.get(CONFIRMED) == "1":
        return None
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in {"csrfmiddlewaretoken", CONFIRMED}
        for value in values
    ]
    response = render(
        request,
        "components/confirm.html",
        {
            "question": question,
            "button": button,
            "action": request.get_full_path(),
            "fields": fields,
            "cancel_url": cancel_url,
        },
    )
    if getattr(request, "htmx", False):
        # An htmx form that skipped the dialog: show the question as the page.
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    return response
