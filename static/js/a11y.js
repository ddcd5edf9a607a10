// Keyboard and screen-reader paths; progressive enhancement only (every page works without it).
(function () {
  // Drawn on the page (not hidden, nor in a closed part).
  var VISIBLE = function (elt) { return elt.getClientRects().length > 0; };

  // --- After a roll: the focus stays on the control used, and #roll-announcer (outside the
  // swapped panel) says the result once. A panel is the player's (.roll-panel, or the slot it
  // loads into) or any other marked data-roll-panel (the GM's two-sided roll, the free roller). ---
  var PANELS = ".roll-panel, .roll-panel-slot, [data-roll-panel]";
  var RESULTS = "[data-roll][data-summary]"; // a result card and its one-line summary
  var used = null; // the control that posted into a roll panel
  var request = null; // and its request, to know its swap
  var scrolled = null; // where the page was when the answer came
  var known = null; // the results on the page before that swap (their roll ids)
  var pending = ""; // the stored roll's id (the cronica:roll event), until its card is in
  var announced = []; // the summaries of the last results said, so the feed does not say them again

  function controlOf(elt) {
    // A form posts (the free roller, a saved roll from roll-dock.js): the control used is its
    // focused field or button, else its button.
    if (!elt.matches("form")) return elt;
    return elt.contains(document.activeElement) ? document.activeElement : elt.querySelector("button");
  }

  function rollIds() {
    return Array.prototype.map.call(document.querySelectorAll(RESULTS), function (card) {
      return card.getAttribute("data-roll");
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (detail.requestConfig.verb !== "post" || !detail.target) return;
    if (!detail.target.matches(PANELS)) return;
    used = controlOf(detail.elt);
    request = detail.requestConfig;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!used || event.detail.requestConfig !== request) return;
    scrolled = [window.scrollX, window.scrollY];
    known = rollIds();
  });

  document.addEventListener("cronica:roll", function (event) {
    if (event.detail && event.detail.roll) pending = String(event.detail.roll);
  });

  // Each result: who, what and the result (the card's one-line summary), then the card's
  // lines: what was rolled (pool or traits, modifiers, difficulty), the progress of an
  // extended action... (a log card's notes, not its effects). Several results (a GM's
  // opposed roll) are said together.
  function announce(cards) {
    var region = document.getElementById("roll-announcer");
    if (!region) return;
    announced = cards.map(function (card) { return card.getAttribute("data-summary"); });
    var text = cards.map(function (card, index) {
      var lines = card.querySelectorAll(".roll-setup, .roll-lines li, .roll-effects li:not(.roll-effect)");
      return [announced[index]].concat(Array.prototype.map.call(lines, function (line) {
        return line.textContent.trim();
      })).join(" · ");
    }).join(" · ");
    // Emptied first, so the same words for a second roll are still a change to announce.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var fresh = [];
    if (used && event.detail.requestConfig === request) {
      // The panel was replaced: the control is the new element with the same id.
      var control = document.contains(used) ? used : used.id && document.getElementById(used.id);
      used = null;
      if (control && document.activeElement !== control) control.focus({ preventScroll: true });
      // The browser's scroll anchoring can move the page when the whole panel is replaced
      // (the full roll page on a phone): the page stays where the roller had it.
      if (scrolled && (window.scrollX !== scrolled[0] || window.scrollY !== scrolled[1])) {
        window.scrollTo({ left: scrolled[0], top: scrolled[1], behavior: "instant" });
      }
      scrolled = null;
      // A roll without the event's id (the GM's and the free roller's): the results this
      // swap brought in.
      var before = known;
      known = null;
      fresh = Array.prototype.filter.call(document.querySelectorAll(RESULTS), function (card) {
        return before && before.indexOf(card.getAttribute("data-roll")) === -1;
      });
    }
    if (pending) {
      var card = document.querySelector(RESULTS.replace("[data-roll]", '[data-roll="' + pending + '"]'));
      if (card) {
        pending = "";
        announce([card]);
      }
    } else if (fresh.length) {
      announce(fresh);
    }
  });

  // The roll feed announces each new roll too: not one just said here.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (detail.target.id !== "roll-feed-status") return;
    var text = detail.fragment.textContent;
    if (announced.some(function (summary) { return text.indexOf(summary) !== -1; })) {
      detail.shouldSwap = false;
    }
  });

  // --- A swap that replaces the focused control (a GM's form sent with htmx on the sheet or
  // the scene, or a live refresh of that part): the focus goes to what takes its place, not
  // to the page's body. Never into a plain field (static/js/live.js holds back the live
  // refreshes of a part with a focused field) but the first field in error of a refused
  // form; else the same button, the same section's <summary>, the part's heading or the part
  // itself. Without scrolling: the page stays where the user had it. Roll panels keep their
  // own rule above. ---
  var left = null; // the focused control when a swap began

  function sentBy(control) {
    // What a button does: its form's address, its name and value, its words and its label.
    var form = control.form || control.closest("form");
    var action = control.getAttribute("hx-post") || (form && (form.getAttribute("hx-post") || form.getAttribute("action")));
    return [control.tagName, action, control.name, control.value, control.textContent.trim(), control.getAttribute("aria-label")].join("|");
  }

  // The one element of `part` that passes `test`: with two alike (a row's button beside
  // another row's), neither.
  function only(part, selector, test) {
    var found = Array.prototype.filter.call(part.querySelectorAll(selector), test);
    return found.length === 1 ? found[0] : null;
  }

  // The parts drawn again that stood for the lost control's sections, nearest first (the
  // old ones are out of the page with it, their ids on the new ones).
  function partsOf(lost) {
    var parts = [];
    for (var node = lost.parentElement; node; node = node.parentElement) {
      var part = node.id && document.getElementById(node.id);
      if (part && part !== node) parts.push(part);
    }
    return parts;
  }

  function standIn(lost, parts) {
    var invalid = null;
    parts.some(function (part) {
      invalid = Array.prototype.find.call(part.querySelectorAll('[aria-invalid="true"]'), function (field) {
        return !field.disabled && VISIBLE(field);
      });
      return Boolean(invalid);
    });
    if (invalid) return invalid;
    var part = parts[0];
    var wanted = lost.matches("button, a[href]") && sentBy(lost);
    var section = lost.closest("details");
    var summary = section && section.querySelector(":scope > summary");
    var said = summary && summary.textContent.trim();
    var found = (wanted && only(part, "button, a[href]", function (control) {
      return !control.disabled && VISIBLE(control) && sentBy(control) === wanted;
    })) || (part.matches("details") && part.querySelector(":scope > summary")) || (said && only(part, "summary", function (other) {
      return VISIBLE(other) && other.textContent.trim() === said;
    })) || Array.prototype.find.call(part.querySelectorAll("h1, h2, h3, h4, h5, h6"), VISIBLE) || part;
    if (found.matches("summary, button, a[href]")) return found;
    // A heading or a part takes the focus only from a script, and gives that up on leaving.
    if (!found.hasAttribute("tabindex")) {
      found.setAttribute("tabindex", "-1");
      found.addEventListener("blur", function () { found.removeAttribute("tabindex"); }, { once: true });
    }
    return found;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var active = document.activeElement;
    var target = detail.target;
    left = null;
    if (!active || active === document.body) return;
    // Where the target's replacement will be, should it have no id to find it by.
    left = {
      control: active, request: detail.requestConfig, target: target.contains(active) ? target : null,
      parent: target.parentElement, before: target.previousElementSibling
    };
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!left || event.detail.requestConfig !== left.request) return;
    var was = left;
    left = null;
    var active = document.activeElement;
    if (was.control.isConnected || (active && active !== document.body)) return;
    var parts = partsOf(was.control);
    if (!parts.length && was.target) {
      // The target itself when only its content was replaced, else what replaced it.
      var part = was.target.isConnected ? was.target
        : was.before ? was.before.nextElementSibling : was.parent && was.parent.firstElementChild;
      if (part) parts.push(part);
    }
    if (!parts.length || !parts[0].isConnected) return;
    standIn(was.control, parts).focus({ preventScroll: true });
  });

  // --- A skip link into a panel that htmx loads (the sheet's roll panel): its first visible
  // control takes the focus. Until the panel is in, the plain link jumps to its place. ---
  var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled])";

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-skip-into]");
    var place = link && document.querySelector(link.getAttribute("data-skip-into"));
    if (!place) return;
    var control = Array.prototype.find.call(place.querySelectorAll(FOCUSABLE), VISIBLE);
    if (!control) return;
    event.preventDefault();
    control.focus();
  });

  // --- A trait's dot buttons are one tab stop (a toolbar with a roving tabindex), moved with
  // the arrow keys, Home and End; Enter or Space sets the rating as before. Without this
  // file every dot is its own tab stop. ---
  function rove(group) {
    var dots = Array.prototype.slice.call(group.querySelectorAll("button"));
    if (!dots.length) return;
    var filled = group.querySelectorAll("button.filled");
    var stop = dots.indexOf(document.activeElement) !== -1 ? document.activeElement
      : filled.length ? filled[filled.length - 1] : dots[0];
    group.setAttribute("role", "toolbar");
    dots.forEach(function (dot) { dot.tabIndex = dot === stop ? 0 : -1; });
  }

  function roveAll(root) {
    if (!root || !root.querySelectorAll) return;
    if (root.matches(".dot-buttons")) rove(root);
    root.querySelectorAll(".dot-buttons").forEach(rove);
  }

  var MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

  document.addEventListener("keydown", function (event) {
    var group = event.target.closest && event.target.closest(".dot-buttons[role=toolbar]");
    if (!group || !(event.key in MOVES) || event.altKey || event.ctrlKey || event.metaKey) return;
    var dots = Array.prototype.slice.call(group.querySelectorAll("button"));
    var here = dots.indexOf(event.target);
    var next = Math.min(dots.length - 1, Math.max(0, here + MOVES[event.key]));
    event.preventDefault();
    dots[here].tabIndex = -1;
    dots[next].tabIndex = 0;
    dots[next].focus();
  });

  document.addEventListener("htmx:load", function (event) { roveAll(event.target); });
  document.addEventListener("DOMContentLoaded", function () { roveAll(document.body); });
})();
