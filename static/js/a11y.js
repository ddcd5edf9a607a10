// Keyboard and screen-reader paths; progressive enhancement only (every page works without it).
(function () {
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

  // --- A skip link into a panel that htmx loads (the sheet's roll panel): its first visible
  // control takes the focus. Until the panel is in, the plain link jumps to its place. ---
  var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled])";

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-skip-into]");
    var place = link && document.querySelector(link.getAttribute("data-skip-into"));
    if (!place) return;
    var control = Array.prototype.find.call(place.querySelectorAll(FOCUSABLE), function (elt) {
      return elt.getClientRects().length > 0;
    });
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
