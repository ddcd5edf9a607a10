// Before first paint: follow the system colour scheme (Bootstrap 5.3 data-bs-theme), and
// mark the page as scripted so no-JS fallbacks (.js-hide) never flash and shift the layout.
(function () {
  document.documentElement.classList.add("js");
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
  function apply() {
    document.documentElement.setAttribute("data-bs-theme", dark && dark.matches ? "dark" : "light");
  }
  apply();
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);
})();
