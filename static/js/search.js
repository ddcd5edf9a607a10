// "/" focuses the campaign's search box (as on many sites), unless the user is typing.
(function () {
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var box = document.getElementById("search-page-q") || document.getElementById("nav-search-q");
    if (!box) return;
    event.preventDefault();
    box.focus();
    box.select();
  });
})();
