// The debrief's print button, and every listener's reaction shown on paper (details open while printing).
(function () {
  "use strict";
  var opened = [];
  function openAll() {
    opened = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) {
      d.open = true;
      return true;
    });
  }
  function restore() {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  }
  window.addEventListener("beforeprint", openAll);
  window.addEventListener("afterprint", restore);
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-print]");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
