/* The class page, live (templates/rooms/class_page.html).
 *
 * Each room's card is pushed over the class's websocket and swapped in by htmx (hx-ws). This
 * script keeps the page from falling behind when the socket cannot hear a push:
 *
 * - the socket says the page missed a card (the page's ?seen= count moved on before it joined, or
 *   while it was down and the extension reconnected): the page fetches its rooms again in place;
 * - while the socket is down, the page fetches its rooms every few seconds, says so, and tries the
 *   socket again;
 * - a fetch answered after a newer push is fetched again, so an older card never stays on top.
 *
 * It stops asking once every room has its verdict, or when the class is no longer the viewer's.
 */
(function () {
  "use strict";

  var CLOSE_NOT_FOUND = 4404; // consumers.CLOSE_NOT_FOUND: this browser may not see the class
  var RECONNECTS = [1006, 1011, 1012, 1013]; // the closes the htmx ws extension reconnects after
  var RETRY_MS = [2000, 5000, 10000, 30000];

  var live = null;
  var pollTimer = null;
  var inFlight = false;
  var again = false;
  var retryTimer = null;
  var retries = 0;

  function allFinished() {
    var cards = document.querySelectorAll("#class-rooms .class-room");
    return cards.length > 0 && document.querySelectorAll("#class-rooms .class-room.is-finished").length === cards.length;
  }

  function say(word, on) {
    var text = document.querySelector("#class-updates .class-updates-word");
    if (text && text.textContent !== word) text.textContent = word;
    var dot = document.querySelector("#class-updates .live-dot");
    if (dot) dot.classList.toggle("is-off", !on);
  }

  function fetchRooms() {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    again = false;
    var done = function () {
      inFlight = false;
      if (again) fetchRooms();
    };
    htmx.ajax("GET", live.dataset.rooms, { target: "#class-rooms", swap: "outerHTML" }).then(done, done);
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  function startPolling() {
    if (pollTimer) return;
    var seconds = parseInt(live.dataset.poll, 10) || 5;
    pollTimer = setInterval(function () {
      if (allFinished()) {
        stopPolling();
        say("Every room has its verdict", false);
      } else fetchRooms();
    }, seconds * 1000);
  }

  function start() {
    live = document.getElementById("class-live");
    if (!live) return;
    document.addEventListener("htmx:wsOpen", function () {
      retries = 0;
      stopPolling();
      if (allFinished()) say("Every room has its verdict", false);
      else say("Live", true);
    });
    document.addEventListener("htmx:wsClose", function (evt) {
      var detail = evt.detail || {};
      var code = detail.event ? detail.event.code : 1006;
      if (code === CLOSE_NOT_FOUND) {
        stopPolling();
        say("Not updating: this class is no longer yours to see", false);
        return;
      }
      if (allFinished()) return;
      say("Reconnecting; refreshing every " + (parseInt(live.dataset.poll, 10) || 5) + " s", false);
      startPolling();
      // The extension tries again by itself after a dropped connection; after any other close
      // (a proxy's, a server going away) this page tries again, less often each time.
      if (RECONNECTS.indexOf(code) < 0 && detail.socketWrapper && !retryTimer) {
        retryTimer = setTimeout(function () {
          retryTimer = null;
          detail.socketWrapper.reconnect();
        }, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
        retries += 1;
      }
    });
    document.addEventListener("htmx:wsAfterMessage", function (evt) {
      var message = evt.detail.message || "";
      if (/id="push-stale"/.test(message)) fetchRooms();
      else if (inFlight) again = true; // a newer card arrived while an older read was on its way
    });
    document.addEventListener("htmx:afterSettle", function () {
      if (allFinished()) say("Every room has its verdict", false);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
