// Character creation, progressive enhancement only: the form works without this file.
(function () {
  // A merit row's "other merit" name is only needed for a custom merit.
  function syncMerit(select) {
    var row = select.closest("[data-merit-row]");
    var custom = row && row.querySelector("[data-custom-merit]");
    if (!custom) return;
    var input = custom.querySelector("input");
    custom.hidden = select.value !== "custom" && !(input && input.value);
  }

  // Choosing a Virtue or a Vice opens its text and closes the others of its group.
  function openChosen(radio) {
    document.querySelectorAll("input[name='" + radio.name + "']").forEach(function (other) {
      var details = other.closest(".moral-option").querySelector("details");
      if (details) details.open = other.checked;
    });
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches("[data-merit-row] select")) syncMerit(target);
    if (target.matches(".moral-option input[type=radio]")) openChosen(target);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-merit-row] select").forEach(syncMerit);
  });
})();
