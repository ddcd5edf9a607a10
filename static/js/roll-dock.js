// A click on a trait of the sheet (a[data-roll-trait]) docks the roll panel in view with
// that trait chosen; without this file the link opens the full roll page instead.
(function () {
  var opener = null;

  function panelOf(dock) {
    return dock.querySelector(".roll-panel, .roll-panel-slot");
  }

  // `focus`: what gets the focus (a saved roll keeps it on its button), else the panel's choice.
  function open(dock, focus) {
    var place = dock.parentElement;
    if (!dock.classList.contains("is-open")) {
      // The place keeps its height so the page below does not move up.
      place.style.minHeight = place.offsetHeight + "px";
      // The page makes room for the dock (roll-dock.css); if that moves what was clicked
      // out of view, the page follows it back to where it was.
      var anchor = opener && document.contains(opener) ? opener : null;
      var before = anchor && anchor.getBoundingClientRect().top;
      document.documentElement.classList.add("roll-dock-open");
      dock.classList.add("is-open");
      dock.setAttribute("role", "dialog");
      dock.setAttribute("aria-modal", "false");
      var box = anchor && anchor.getBoundingClientRect();
      if (box && (box.top < 0 || box.bottom > window.innerHeight)) {
        window.scrollBy({ top: box.top - before, behavior: "instant" });
      }
    }
    var panel = dock.querySelector(".roll-panel");
    var target = focus || (panel && document.getElementById(panel.getAttribute("data-focus")));
    (target || dock.querySelector("[data-roll-dock-close]")).focus({ preventScroll: true });
  }

  function close(dock) {
    dock.classList.remove("is-open");
    document.documentElement.classList.remove("roll-dock-open");
    dock.removeAttribute("role");
    dock.removeAttribute("aria-modal");
    dock.parentElement.style.minHeight = "";
    if (opener && document.contains(opener)) opener.focus({ preventScroll: true });
    opener = null;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-roll-trait]");
    var dock = document.querySelector("[data-roll-dock]");
    if (event.target.closest("[data-roll-dock-close]")) {
      close(event.target.closest("[data-roll-dock]"));
      return;
    }
    if (!link || !dock || !window.htmx || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    opener = link;
    chooseTrait(dock, link.getAttribute("data-roll-trait"));
  });

  // The panel answers one request at a time (hx-sync, roll_panel.html), and htmx would drop
  // a trait's reload sent while another is in flight. A trait is the user's choice: it
  // cancels a reload heard from the stream (live.js) or an earlier trait's, and waits for
  // a roll in flight, then goes to the panel the roll left.
  var rolling = null;
  var afterRoll = null;

  function chooseTrait(dock, trait) {
    if (rolling) {
      afterRoll = function () { chooseTrait(dock, trait); };
      return;
    }
    var target = panelOf(dock);
    var panel = target.matches(".roll-panel") ? target : undefined;
    // The slot's first load still on its way would come after and draw the panel without
    // the trait: the trait's answer draws the panel instead.
    htmx.trigger(target, "htmx:abort");
    // Sent as the panel's own reload: the panel's choices go along (hx-include), so the
    // trait changes only what it sets, and a roll tapped meanwhile cancels it.
    htmx.ajax("GET", dock.getAttribute("data-roll-url"), {
      source: panel,
      target: target,
      swap: "outerHTML",
      values: { trait: trait },
    }).then(function () { open(dock); }, function () {
      // Cancelled by a roll tapped meanwhile: the roll's answer takes the panel.
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig.verb === "post" && event.detail.target.closest("[data-roll-dock]")) {
      rolling = event.detail.xhr;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!rolling || event.detail.xhr !== rolling) return;
    rolling = null;
    var next = afterRoll;
    afterRoll = null;
    // After htmx has released the panel (it does so once this event is over).
    if (next) window.setTimeout(next);
  });

  // A saved roll at the top of the sheet rolls in one tap: its form posts with htmx into the
  // docked panel, which opens with the result in view (without JS it posts as a page).
  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-roll-saved]");
    var dock = document.querySelector("[data-roll-dock]");
    if (!form || !dock || !window.htmx) return;
    event.preventDefault();
    var button = form.querySelector("button");
    opener = button;
    var values = { saved: form.querySelector("input[name=saved]").value };
    // The scene the panel has chosen, if it offers a choice.
    var scene = dock.querySelector("form.roll-form select[name=scene]");
    if (scene && scene.value) values.scene = scene.value;
    htmx.ajax("POST", dock.getAttribute("data-roll-url"), {
      source: form,
      target: panelOf(dock),
      swap: "outerHTML",
      values: values,
    }).then(function () { open(dock, button); });
  });

  // The phone's dock is short: after a roll it scrolls itself to the result (the page
  // does not move). A trait's click keeps the set-up in view instead.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    var dock = document.querySelector("[data-roll-dock].is-open");
    if (!dock || !config || config.verb !== "post") return;
    var result = dock.querySelector("[id^=roll-result-] .roll-card");
    if (!result) return;
    // The dock alone scrolls (scrollIntoView could move the page too): its bottom, or its
    // top if it is taller than the dock.
    var box = result.getBoundingClientRect();
    var view = dock.getBoundingClientRect();
    var below = Math.min(box.bottom - view.bottom, box.top - view.top);
    if (below > 0) dock.scrollTop += below;
  });

  // Enter in the saved roll's name saves it (the form's first button would roll).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches("input[name=saved_name]")) return;
    var save = event.target.closest("details").querySelector("button[formaction]");
    if (save) {
      event.preventDefault();
      save.click();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var dock = document.querySelector("[data-roll-dock].is-open");
    if (dock) {
      event.preventDefault();
      close(dock);
    }
  });
})();
