/* Turn clocks that tick between pushes (rooms/_countdown.html).
 *
 * A clock carries the turn's deadline and the server's time when it was rendered (epoch ms). On
 * first sight the script notes how far this browser's clock is from the server's, then shows the
 * seconds from the server's "now" to the deadline, four times a second, so a clock reads the same
 * on every screen whatever their own clocks say. A paused clock has no deadline and stands. The
 * server stays the authority: when time runs out it passes the turn and pushes the next clock.
 *
 * The gap a clock shows at first sight is the browser's offset plus the time the clock took to
 * arrive, and a pushed clock can take seconds on a busy server: so the page counts from the
 * smallest gap any clock has shown (the offset, and the quickest delivery), not each clock's own,
 * and a late push does not read seconds more than the turn has left.
 */
(function () {
  "use strict";

  var pageSkew = null; // the smallest gap between this browser's clock and a clock's server time

  function secondsLeft(el, now) {
    if (!el.dataset.skew) el.dataset.skew = String(el.dataset.now ? now - Number(el.dataset.now) : 0);
    var skew = Number(el.dataset.skew);
    if (el.dataset.now) {
      if (pageSkew === null || skew < pageSkew) pageSkew = skew;
      skew = pageSkew;
    }
    return Math.max(0, Math.round((Number(el.dataset.deadline) - (now - skew)) / 1000));
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = secondsLeft(el, now);
      // A lesson's clock (data-format="mmss") reads minutes and seconds: "12:05".
      var shown = el.dataset.format === "mmss" ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : String(left);
      if (el.textContent !== shown) el.textContent = shown;
      el.setAttribute("data-seconds", String(left));
      el.classList.toggle("countdown-low", left <= (el.dataset.format === "mmss" ? 300 : 10));
    });
  }

  window.angryCountdown = { tick: tick };
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("htmx:wsAfterMessage", tick);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
})();
