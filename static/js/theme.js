// Follow the system colour scheme (Bootstrap 5.3 data-bs-theme), before first paint.
(function () {
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
  function apply() {
    document.documentElement.setAttribute("data-bs-theme", dark && dark.matches ? "dark" : "light");
  }
  apply();
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);
})();
