// Progressive enhancement only: every page works without this file.
(function () {
  // Forms marked data-autosubmit submit when a select changes (their button is hidden with JS).
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-autosubmit]");
    if (form && event.target.tagName === "SELECT") form.submit();
  });

  // A field marked autofocus (the login page's user name) takes the focus also when the
  // address ends in a fragment around it (the skip link's #main, kept by the redirect to
  // sign in), where browsers skip autofocus. Not before the page's load: going to the
  // fragment focuses the page itself, after the parsing.
  window.addEventListener("load", function () {
    var field = document.querySelector("[autofocus]");
    var place = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    var active = document.activeElement;
    if (field && place && place.contains(field) && (!active || active === document.body)) field.focus();
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

  // Unsent long texts. A send can fail after all was typed: an expired session sends the
  // form's POST to the login page, a token renewed in another tab gets a 403. So the
  // browser keeps what is typed in a long text until a send goes through, and a page that
  // draws the field again offers it back. A copy is {text, time, sent}, kept by page path
  // and field name; `sent` marks one whose send has not been answered yet.
  var UNSENT = "cronica:unsent:";
  var typing = null;
  var typingPause = null;

  // Private modes and full quotas throw: the page goes on without keeping anything.
  function readCopy(key) {
    try {
      var copy = JSON.parse(window.localStorage.getItem(key));
      return copy && typeof copy.text === "string" && typeof copy.time === "number" ? copy : null;
    } catch (error) {
      return null;
    }
  }

  function writeCopy(key, copy) {
    try {
      window.localStorage.setItem(key, JSON.stringify(copy));
    } catch (error) {
      // Not kept: the field still holds the text.
    }
  }

  function removeCopy(key) {
    try {
      window.localStorage.removeItem(key);
    } catch (error) {
      // Nothing could have been kept either.
    }
  }

  function copyKeys() {
    var keys = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key.indexOf(UNSENT) === 0) keys.push(key);
      }
    } catch (error) {
      // No storage, no copies.
    }
    return keys;
  }

  function copyKey(textarea) {
    return UNSENT + window.location.pathname + "#" + textarea.name;
  }

  // The server trims a text and a form sends CRLF: neither makes two texts different.
  function sameText(one, other) {
    return one.replace(/\r\n?/g, "\n").trim() === other.replace(/\r\n?/g, "\n").trim();
  }

  function keepText(textarea, sent) {
    var key = copyKey(textarea);
    // What the page drew, or a field emptied, is nothing to lose.
    if (!textarea.value.trim() || sameText(textarea.value, textarea.defaultValue)) {
      removeCopy(key);
      return key;
    }
    var copy = readCopy(key);
    var time = copy && copy.text === textarea.value ? copy.time : Date.now();
    writeCopy(key, { text: textarea.value, time: time, sent: sent });
    return key;
  }

  function keepTyped() {
    window.clearTimeout(typingPause);
    if (typing) keepText(typing, false);
    typing = null;
  }

  document.addEventListener("input", function (event) {
    if (!event.target.matches(LIMITED)) return;
    if (typing && typing !== event.target) keepText(typing, false);
    typing = event.target;
    window.clearTimeout(typingPause);
    typingPause = window.setTimeout(keepTyped, 500);
  });
  window.addEventListener("pagehide", keepTyped);

  // Keys marked sent by a form's submit, for an htmx form to settle when its answer comes.
  var sending = new WeakMap();
  document.addEventListener("submit", function (event) {
    var form = event.target;
    keepTyped();
    var keys = Array.prototype.filter.call(form.elements, function (field) {
      return field.matches(LIMITED);
    }).map(function (textarea) { return keepText(textarea, true); });
    if (keys.length) sending.set(form, keys);
  });

  function settle(key, delivered) {
    var copy = readCopy(key);
    if (!copy || !copy.sent) return;
    if (delivered) {
      removeCopy(key);
    } else {
      copy.sent = false;
      writeCopy(key, copy);
    }
  }

  // The page a form's send led to (its POST/redirect/GET comes from the form's page, the
  // referrer) settles the copies of that page: the send went through, unless this page
  // says it did not (the login page, the CSRF failure page), and the copy stays. A copy
  // of this page's own path still marked sent had no answer that ran this file (a browser
  // error page): it is unsent again.
  function answeredPath() {
    var navigation = window.performance.getEntriesByType("navigation")[0];
    if (!document.referrer || (navigation && navigation.type !== "navigate")) return null;
    var from = new URL(document.referrer);
    return from.origin === window.location.origin ? from.pathname : null;
  }

  function settleSentCopies(answered) {
    var kept = document.querySelector("[data-unsent-kept]") !== null;
    copyKeys().forEach(function (key) {
      var path = key.slice(UNSENT.length, key.indexOf("#", UNSENT.length));
      if (path === answered) settle(key, !kept);
      else if (path === window.location.pathname) settle(key, false);
    });
  }
  // A page shown again from the back/forward cache answers no send.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) settleSentCopies(null);
  });

  // An htmx form's send is answered in the page: a 2xx answer went through, unless it
  // sends the page to sign in (an expired session: SignInAgainMiddleware) or is a page
  // that says the send did not go through.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.requestConfig && event.detail.requestConfig.elt;
    var keys = form && sending.get(form);
    if (!keys) return;
    sending.delete(form);
    var xhr = event.detail.xhr;
    var delivered = xhr.status >= 200 && xhr.status < 300 && !xhr.getResponseHeader("HX-Redirect") &&
      xhr.responseText.indexOf("data-unsent-kept") === -1;
    keys.forEach(function (key) { settle(key, delivered); });
  });

  function formatTime(time) {
    var options = { dateStyle: "medium", timeStyle: "short" };
    return new Date(time).toLocaleString(document.documentElement.lang || undefined, options);
  }

  function offerCopy(textarea) {
    var shown = textarea.previousElementSibling;
    if (!textarea.hasAttribute("data-unsent-text") || (shown && shown.hasAttribute("data-unsent-alert"))) return;
    var key = copyKey(textarea);
    var copy = readCopy(key);
    if (!copy || copy.sent) return;
    if (sameText(copy.text, textarea.value)) {
      keepText(textarea, false);
      return;
    }
    var alert = document.createElement("div");
    alert.className = "alert alert-info d-flex flex-wrap align-items-center gap-2 py-2";
    alert.setAttribute("role", "status");
    alert.setAttribute("data-unsent-alert", "");
    var words = document.createElement("span");
    words.className = "me-auto";
    words.textContent = textarea.getAttribute("data-unsent-text").replace("{time}", formatTime(copy.time));
    var restore = document.createElement("button");
    restore.type = "button";
    restore.className = "btn btn-primary btn-sm btn-touch";
    restore.textContent = textarea.getAttribute("data-unsent-restore");
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "btn btn-outline-secondary btn-sm btn-touch";
    discard.textContent = textarea.getAttribute("data-unsent-discard");
    alert.append(words, restore, discard);
    restore.addEventListener("click", function () {
      alert.remove();
      textarea.value = copy.text;
      // The count follows, and the copy stays until this text is sent.
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
      textarea.focus();
    });
    discard.addEventListener("click", function () {
      alert.remove();
      removeCopy(key);
      textarea.focus();
    });
    textarea.insertAdjacentElement("beforebegin", alert);
  }

  function offerCopies(root) {
    if (root.matches && root.matches(LIMITED)) offerCopy(root);
    root.querySelectorAll(LIMITED).forEach(offerCopy);
  }
  document.addEventListener("DOMContentLoaded", function () {
    settleSentCopies(answeredPath());
    offerCopies(document);
  });
  document.addEventListener("htmx:load", function (event) { offerCopies(event.target); });

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
