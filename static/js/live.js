// The live table: a campaign's page hears of each change over its stream (htmx's SSE
// extension on <main>: live/templatetags/live.py, live/views.py) and each live region
// fetches itself again through its own view (hx-trigger "sse:change, cronica:poll
// from:body"); a region that is up to date answers 204 and stays as it is.
//
// - Until the stream says hello (no stream under a WSGI server, a proxy that buffers),
//   the page asks every 2 s whether its reader's sequence moved (live.views.check: one
//   request, whatever the page's regions) and, when it did or the answer is not a plain
//   "no" (a session that ended), the regions fetch themselves as on a change event; once
//   the stream is up, the polling stops.
// - A region's refresh that was asked before one of this page's own writes ended may
//   carry the state before that write: it is dropped and asked again, so the write's own
//   answer (and the notice it carries) is never replaced by an older state.
// - A region where a field is being filled in (focused, or changed and not sent) is left
//   as it is, whether the typing began before the refresh was asked or while its answer
//   was on the way: a refresh never takes what the user typed. Nor a tap under way: a
//   region pressed (a pointer, or Space on a button) and not yet released is drawn once
//   the tap has ended.
// - Pages refresh their parts through one hidden element ({% live_refresh %}) that swaps
//   in the parts it names; each part is spared the same way, and the page's version then
//   stays behind, so that the part is drawn once the user has left it.
// - A panel with a form (the roll panel) reloads itself with its choices through a hidden
//   element in it ({% live_reload %}), spared the same way.
// - A section the user opened (<details>) stays open when a live swap draws it again.
// - A control tapped again and again (a pool's − and +) counts every tap, though the
//   answer to each draws it again.
// - htmx drops a request for a region still waiting for an answer (hx-sync): a change heard
//   meanwhile would be lost if that answer was computed before it, so the page asks again
//   once the answer is in.
(function () {
  var main = document.querySelector("main[data-live-seq]");
  if (!main || !window.htmx) return;
  var POLL_MS = 2000;
  var LIVE = { "sse:change": true, "cronica:poll": true };
  var up = false;
  var writes = 0;
  var waiting = new WeakSet();
  var owed = false;

  main.addEventListener("htmx:sseOpen", function (event) {
    event.detail.source.addEventListener("hello", function () {
      up = true;
      main.setAttribute("data-live", "up");
    });
  });
  main.addEventListener("htmx:sseError", function () {
    up = false;
    main.setAttribute("data-live", "down");
  });
  var seq = main.getAttribute("data-live-seq");
  var check = main.getAttribute("data-live-check");
  window.setInterval(function () {
    if (up || document.hidden) return;
    fetch(check, { headers: { "HX-Request": "true", "X-Cronica-Since": seq } }).then(
      function (response) {
        if (response.status === 204) return;
        if (!response.ok) return htmx.trigger(document.body, "cronica:poll");
        return response.text().then(function (text) {
          seq = text;
          htmx.trigger(document.body, "cronica:poll");
        });
      },
      function () {}
    );
  }, POLL_MS);

  function isLive(detail) {
    // htmx:confirm carries the triggering event; the later events, in their requestConfig.
    var trigger = detail.triggeringEvent || (detail.requestConfig && detail.requestConfig.triggeringEvent);
    return Boolean(trigger && LIVE[trigger.type]);
  }

  function changed(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      // With no option marked, a single select shows its first.
      var marked = Array.prototype.some.call(field.options, function (option) { return option.defaultSelected; });
      return Array.prototype.some.call(field.options, function (option, index) {
        return option.selected !== (marked ? option.defaultSelected : !field.multiple && index === 0);
      });
    }
    return field.value !== field.defaultValue;
  }

  function editing(region) {
    var active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, select, textarea, [contenteditable]")) {
      return true;
    }
    return Array.prototype.some.call(region.querySelectorAll("input, select, textarea"), changed);
  }

  // A tap under way (pressed, not yet released) in a region: drawing the region then would
  // take the control from under it, and the tap would be lost. The answer is dropped and
  // asked again once the tap has ended, after the click it makes (a roll goes first).
  // Space held on a button is a tap too: the button clicks when it is let go.
  var pressed = null;
  var pressedButton = null; // the button under a press, and where it was drawn (clickMoved)
  var owedRelease = false;
  var BUTTON = "button, [role=button], input[type=submit], input[type=button]";
  document.addEventListener("pointerdown", function (event) {
    pressed = event.target;
    var button = event.target.closest && event.target.closest(BUTTON);
    pressedButton = button ? { button: button, box: button.getBoundingClientRect() } : null;
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === " " && !event.repeat && event.target.matches(BUTTON)) pressed = event.target;
  }, true);
  document.addEventListener("keyup", function (event) {
    if (event.key === " ") released(event);
  }, true);
  function released(event) {
    retapReplaced(pressed, event);
    if (event && event.type === "pointerup") clickMoved(event);
    pressed = pressedButton = null;
    if (!owedRelease) return;
    owedRelease = false;
    window.setTimeout(function () { htmx.trigger(document.body, "cronica:poll"); });
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  window.addEventListener("blur", released);

  // A control tapped again and again (a pool's − and +: [data-repeats], with an id) counts
  // every tap, though the answer to each draws it again:
  // - tapped while its form waits for the answer to the tap before (htmx would queue the
  //   tap on that form, which the answer then replaces), it is tapped again once the
  //   answer is in, in the place it was drawn in;
  // - pressed when that answer drew it again under the finger (or under Space), it is
  //   tapped again in its new place, if the press ends there.
  var owedTaps = [];
  function busy(control) {
    return Boolean(control.form && control.form.classList.contains("htmx-request"));
  }
  document.addEventListener("click", function (event) {
    var control = event.target.closest && event.target.closest("[data-repeats][id]");
    if (!control || !busy(control)) return;
    event.preventDefault();
    owedTaps.push(control.id);
  }, true);
  function payOwedTap() {
    if (!owedTaps.length) return;
    var control = document.getElementById(owedTaps[0]);
    if (control && busy(control)) return; // its answer pays the next
    var id = owedTaps.shift();
    if (control && !control.disabled) control.click();
    else owedTaps = owedTaps.filter(function (owed) { return owed !== id; });
  }
  document.addEventListener("htmx:afterRequest", function () { window.setTimeout(payOwedTap); });

  // A press on a button that the page moves from under the pointer ends on something else,
  // and clicks nothing. On a roll panel, pressing «Tirar» leaves the field just typed in,
  // and the odds above the button, answering that change, may be drawn taller or shorter
  // before the press ends. A press let go where the button was when it began is made on
  // the button.
  function clickMoved(event) {
    var press = pressedButton;
    if (!press || !press.button.isConnected || press.button.disabled) return;
    if (press.button.contains(event.target)) return; // the browser clicks it
    var was = press.box;
    var now = press.button.getBoundingClientRect();
    if (now.top === was.top && now.left === was.left) return; // a press let go elsewhere
    var x = event.clientX;
    var y = event.clientY;
    if (x < was.left || x > was.right || y < was.top || y > was.bottom) return;
    window.setTimeout(function () { press.button.click(); });
  }

  var TAP_ENDS = { pointerup: true, keyup: true }; // not a press cancelled or left
  function retapReplaced(target, event) {
    var control = target && !target.isConnected && target.closest("[data-repeats][id]");
    if (!control || !event || !TAP_ENDS[event.type]) return;
    var drawn = document.getElementById(control.id);
    var there = event.type === "keyup" ? document.activeElement : event.target;
    if (!drawn || !there || !drawn.contains(there)) return;
    // Owed, and paid after this event's own click, which reaches nothing: the pressed
    // control is gone.
    owedTaps.push(control.id);
    window.setTimeout(payOwedTap);
  }

  function tapped(region) {
    if (!pressed || !region.contains(pressed)) return false;
    owedRelease = true;
    return true;
  }

  // Asks again once the user has left `region` with nothing in it unsent.
  var watched = new WeakSet();
  function askWhenLeft(region) {
    if (watched.has(region)) return;
    watched.add(region);
    region.addEventListener("focusout", function later() {
      if (editing(region)) return;
      region.removeEventListener("focusout", later);
      watched.delete(region);
      htmx.trigger(document.body, "cronica:poll");
    });
  }

  document.addEventListener("htmx:confirm", function (event) {
    // What the answer replaces (a panel reloaded by a hidden element in it).
    var region = event.detail.target;
    if (isLive(event.detail) && waiting.has(region)) owed = true;
    if (!isLive(event.detail) || !editing(region)) return;
    event.preventDefault();
    askWhenLeft(region);
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    waiting.add(event.detail.target);
    if (isLive(event.detail)) event.detail.requestConfig.cronicaWrites = writes;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    waiting.delete(event.detail.target);
    var config = event.detail.requestConfig;
    if (config && config.verb !== "get") writes += 1;
    if (owed) {
      owed = false;
      htmx.trigger(document.body, "cronica:poll");
    }
  });
  var liveSwap = null; // during a live answer's swap: who asked, and whether a part is spared
  document.addEventListener("htmx:beforeSwap", function (event) {
    var asked = event.detail.requestConfig && event.detail.requestConfig.cronicaWrites;
    if (asked === undefined) return;
    if (asked !== writes) {
      event.detail.shouldSwap = false;
      htmx.trigger(document.body, "cronica:poll");
      return;
    }
    // Typing may have begun while the answer was on its way.
    if (editing(event.detail.target)) {
      event.detail.shouldSwap = false;
      askWhenLeft(event.detail.target);
      return;
    }
    if (tapped(event.detail.target)) {
      event.detail.shouldSwap = false;
      return;
    }
    // The swap runs right after this event, before any microtask.
    var elt = event.detail.elt;
    var parts = (elt.getAttribute("hx-select-oob") || "").split(",").map(function (entry) {
      var selector = entry.split(":")[0].trim(); // "#id" or "#id:swap style"
      return selector && document.querySelector(selector);
    });
    liveSwap = {
      elt: elt,
      spared: parts.some(function (part) { return part && part !== elt && (editing(part) || tapped(part)); }),
    };
    var opened = Array.prototype.map.call(document.querySelectorAll("details[open]"), detailsKey);
    queueMicrotask(function () {
      liveSwap = null;
      // A section the user opened stays open in what the swap drew in its place.
      Array.prototype.forEach.call(document.querySelectorAll("details:not([open])"), function (details) {
        if (opened.indexOf(detailsKey(details)) !== -1) details.open = true;
      });
    });
  });

  // A <details> as a swap draws it again: where it is, and what its summary says.
  function detailsKey(details) {
    var holder = details.parentElement && details.parentElement.closest("[id]");
    var summary = details.querySelector("summary");
    return [holder ? holder.id : "", details.className, summary ? summary.textContent.trim() : ""].join("|");
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!liveSwap || !target) return;
    if (target === liveSwap.elt) {
      // The page's version ({% live_refresh %}) stays behind a part left as it is, so
      // that part is drawn when asked again.
      if (liveSwap.spared) event.detail.shouldSwap = false;
    } else if (editing(target)) {
      event.detail.shouldSwap = false;
      askWhenLeft(target);
    } else if (tapped(target)) {
      event.detail.shouldSwap = false;
    }
  });
})();
