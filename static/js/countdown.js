/* Turn clocks that tick between pushes (rooms/_countdown.html).
 *
 * A clock carries the turn's deadline and the server's time when it was rendered (epoch ms). On
 * first sight the script notes how far this browser's clock is from the server's, then shows the
 * seconds from the server's "now" to the deadline, four times a second, so a clock reads the same
 * on every screen whatever their own clocks say. A paused clock has no deadline and stands. The
 * server stays the authority: when time runs out it passes the turn and pushes the next clock.
 */
(function () {
  "use strict";

  function secondsLeft(el, now) {
    if (!el.dataset.skew) el.dataset.skew = String(el.dataset.now ? now - Number(el.dataset.now) : 0);
    var serverNow = now - Number(el.dataset.skew);
    return Math.max(0, Math.round((Number(el.dataset.deadline) - serverNow) / 1000));
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = secondsLeft(el, now);
      if (el.textContent !== String(left)) el.textContent = String(left);
      el.setAttribute("data-seconds", String(left));
      el.classList.toggle("countdown-low", left <= 10);
    });
  }

  window.angryCountdown = { tick: tick };
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("htmx:wsAfterMessage", tick);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
})();
