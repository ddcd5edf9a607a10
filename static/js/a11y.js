// Keyboard and screen-reader paths; progressive enhancement only (every page works without it).
(function () {
  // --- After a roll: the focus stays on the control used, and #roll-announcer (outside the
  // swapped panel) says the result once. ---
  var used = null; // the control that posted into a roll panel
  var request = null; // and its request, to know its swap
  var scrolled = null; // where the page was when the answer came
  var pending = ""; // the stored roll's id (the cronica:roll event), until its card is in
  var announced = ""; // the summary of the last result said, so the feed does not say it again

  function controlOf(elt) {
    // A saved roll posts its form (roll-dock.js): its button is the control used.
    return elt.matches("form") ? elt.querySelector("button") : elt;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (detail.requestConfig.verb !== "post" || !detail.target) return;
    if (!detail.target.matches(".roll-panel, .roll-panel-slot")) return;
    used = controlOf(detail.elt);
    request = detail.requestConfig;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (used && event.detail.requestConfig === request) scrolled = [window.scrollX, window.scrollY];
  });

  document.addEventListener("cronica:roll", function (event) {
    if (event.detail && event.detail.roll) pending = String(event.detail.roll);
  });

  // Who, what and the result (the card's one-line summary), then the card's lines: the pool
  // rolled, the difficulty, the progress of an extended action...
  function announce(card) {
    var region = document.getElementById("roll-announcer");
    if (!region) return;
    announced = card.getAttribute("data-summary");
    var lines = Array.prototype.map.call(card.querySelectorAll(".roll-lines li"), function (line) {
      return line.textContent.trim();
    });
    var text = [announced].concat(lines).join(" · ");
    // Emptied first, so the same words for a second roll are still a change to announce.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
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
    }
    if (pending) {
      var card = document.querySelector('.roll-card[data-roll="' + pending + '"][data-summary]');
      if (card) {
        pending = "";
        announce(card);
      }
    }
  });

  // The roll feed announces each new roll too: not the one just said here.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (announced && detail.target.id === "roll-feed-status" && detail.fragment.textContent.indexOf(announced) !== -1) {
      detail.shouldSwap = false;
    }
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
