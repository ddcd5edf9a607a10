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
