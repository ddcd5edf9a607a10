// Progressive enhancement only: every page works without this file.
(function () {
  // Forms marked data-autosubmit submit when a select changes (their button is hidden with JS).
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-autosubmit]");
    if (form && event.target.tagName === "SELECT") form.submit();
  });

  // The campaign form shows only the chosen system's house rules.
  function showHouseRules(select) {
    document.querySelectorAll("[data-house-rules]").forEach(function (group) {
      group.hidden = group.getAttribute("data-house-rules") !== select.value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[name=system]")) showHouseRules(event.target);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("select[name=system]");
    if (select) showHouseRules(select);
  });

  // Destructive forms (data-confirm) ask in a dialog, then post with confirmed=1; the
  // capture phase runs before htmx's own submit handler on the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var dialog = document.getElementById("confirm-dialog");
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (!question || !dialog || !dialog.showModal || form.querySelector("input[name=confirmed]")) return;
    event.preventDefault();
    event.stopPropagation();
    var submitter = event.submitter;
    document.getElementById("confirm-dialog-question").textContent = question;
    document.getElementById("confirm-dialog-ok").textContent = form.getAttribute("data-confirm-button");
    dialog.returnValue = "";
    dialog.addEventListener("close", function () {
      if (dialog.returnValue !== "confirm") return;
      var confirmed = document.createElement("input");
      confirmed.type = "hidden";
      confirmed.name = "confirmed";
      confirmed.value = "1";
      form.appendChild(confirmed);
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
      confirmed.remove();
    }, { once: true });
    dialog.showModal();
  }, true);

  // A live form whose refresh replaces the form itself (the combat attack form) drops the
  // refresh in flight when the user edits a field, so a late answer never replaces the
  // form under what was just typed; the field's change event then asks again with every
  // current value. Forms that refresh another element (the odds) keep their requests.
  function refreshReplacesForm(form) {
    var target = form.getAttribute("hx-target");
    if (target === "this") return true;
    var element = target && document.querySelector(target);
    return Boolean(element && element.contains(form));
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[hx-sync]");
    if (form && window.htmx && refreshReplacesForm(form)) window.htmx.trigger(form, "htmx:abort");
  });

  // Long texts (LongTextarea, campaigns/texts.py) have no maxlength, which would cut a paste
  // short without a word; a count under each says how much of its limit is used, red past it
  // (the server then refuses the text with a message and shows it all again). The count on
  // screen follows every key; screen readers hear it once typing pauses, not at every key.
  var LIMITED = "textarea[data-limit]";
  var pause = null;

  function characters(text) {
    // As the server counts: code points, and each line break twice (a form sends CRLF).
    return Array.from(text).length + (text.match(/\n/g) || []).length;
  }

  function showCount(textarea, announce) {
    var id = textarea.id + "-count";
    var count = document.getElementById(id);
    if (!count) {
      count = document.createElement("div");
      count.id = id;
      count.className = "form-text";
      count.innerHTML = '<span aria-hidden="true"></span><span class="visually-hidden" aria-live="polite"></span>';
      textarea.insertAdjacentElement("afterend", count);
    }
    var limit = Number(textarea.getAttribute("data-limit"));
    var used = characters(textarea.value);
    var text = textarea.getAttribute("data-limit-text").replace("{count}", used).replace("{limit}", limit);
    count.firstChild.textContent = text;
    count.classList.toggle("text-danger-emphasis", used > limit);
    if (!announce) return;
    window.clearTimeout(pause);
    pause = window.setTimeout(function () { count.lastChild.textContent = text; }, 1000);
  }

  function showCounts() {
    document.querySelectorAll(LIMITED).forEach(function (textarea) { showCount(textarea, false); });
  }
  document.addEventListener("DOMContentLoaded", showCounts);
  document.addEventListener("htmx:load", showCounts);
  document.addEventListener("input", function (event) {
    if (event.target.matches(LIMITED)) showCount(event.target, true);
  });

  // A request htmx makes that fails (no connection, an error answer, which htmx does not
  // draw) says so instead of doing nothing; the live table's own refreshes retry by
  // themselves and stay quiet (static/js/live.js). After the session ended, what the user
  // asked for goes to sign in (config.middleware.SignInAgainMiddleware), but a refresh
  // the live table asked for leaves the page (and what is being typed) where it is.
  var QUIET = { "sse:change": true, "cronica:poll": true };

  function heard(detail) {
    var trigger = detail.requestConfig && detail.requestConfig.triggeringEvent;
    return !(trigger && QUIET[trigger.type]);
  }

  function trouble(kind, status) {
    var notice = document.getElementById("request-trouble");
    if (!notice) return;
    var text = notice.getAttribute(kind).replace("{status}", status);
    document.getElementById("request-trouble-text").textContent = text;
    notice.hidden = false;
    // Emptied first, so the same words a second time are still a change to announce.
    var announcer = document.getElementById("request-trouble-announcer");
    announcer.textContent = "";
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (heard(event.detail)) trouble("data-offline", "");
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (heard(event.detail)) trouble("data-failed", event.detail.xhr.status);
  });
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    if (heard(event.detail) || !event.detail.xhr.getResponseHeader("HX-Redirect")) return;
    event.preventDefault();
    trouble("data-signed-out", "");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // A request the user makes again that goes through ends the notice.
    var notice = document.getElementById("request-trouble");
    if (notice && event.detail.successful && heard(event.detail)) notice.hidden = true;
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-trouble]");
    if (!button) return;
    if (button.getAttribute("data-trouble") === "reload") window.location.reload();
    else document.getElementById("request-trouble").hidden = true;
  });

  // Copy buttons: data-copy holds the text to copy.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button || !navigator.clipboard) return;
    navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
      button.classList.add("copied");
      button.setAttribute("aria-live", "polite");
    });
  });
})();
