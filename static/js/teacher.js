/* The teacher's view, live (templates/rooms/teacher.html).
 *
 * The page listens to the room's own websocket, the one every screen in the room listens to (the
 * room's group, fed by the one broadcaster). Whatever the room pushes (a vote, a turn, a round, a
 * seat taken) means the table may have changed, so the page fetches its live part again over
 * HTTP: a fixed number of queries, at most once a second, the last change always fetched. The
 * pushed fragments themselves are meant for the room page and are not swapped in here; streamed
 * words (many small messages while the jurors speak) are ignored, their round's end is not.
 *
 * Only if the socket fails does the page ask every few seconds instead, while it tries to
 * reconnect; it stops both at the verdict, or when the room is no longer the viewer's to see.
 */
(function () {
  "use strict";

  var MIN_GAP_MS = 1000;
  var RETRY_MS = [2000, 5000, 10000, 30000];
  var CLOSE_NOT_FOUND = 4404; // consumers.CLOSE_NOT_FOUND: this browser may not see the room
  var STREAMED = /^\s*<span hx-swap-oob="beforeend:#stream-/;

  var follow = null;
  var socket = null;
  var fetchTimer = null;
  var pollTimer = null;
  var retryTimer = null;
  var retries = 0;
  var lastFetch = 0;
  var leaving = false;
  var state = "live";

  function finished() {
    var live = document.getElementById("teacher-live");
    return !live || live.hasAttribute("data-finished");
  }

  function fetchLive() {
    fetchTimer = null;
    lastFetch = Date.now();
    htmx.ajax("GET", follow.dataset.live, { target: "#teacher-live", swap: "outerHTML" });
  }

  function soon() {
    if (fetchTimer || leaving) return;
    fetchTimer = setTimeout(fetchLive, Math.max(0, MIN_GAP_MS - (Date.now() - lastFetch)));
  }

  function showState() {
    var word = document.querySelector("#teacher-updates .teacher-updates-word");
    if (!word || finished()) return;
    var text = state === "live" ? "Live" : "Reconnecting; refreshing every " + follow.dataset.poll + " s";
    if (word.textContent !== text) word.textContent = text;
    var dot = document.querySelector("#teacher-updates .live-dot");
    if (dot) dot.classList.toggle("is-off", state !== "live");
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  function startPolling() {
    if (pollTimer || finished()) return;
    var seconds = parseInt(follow.dataset.poll, 10) || 3;
    pollTimer = setInterval(function () {
      if (finished()) stopPolling();
      else soon();
    }, seconds * 1000);
  }

  function connect() {
    retryTimer = null;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var opened = new WebSocket(scheme + location.host + follow.dataset.socket);
    socket = opened;
    opened.onopen = function () {
      var recovered = retries > 0;
      retries = 0;
      state = "live";
      stopPolling();
      showState();
      if (recovered) soon(); // whatever happened while the socket was down
    };
    opened.onmessage = function (event) {
      // Any update but streamed words, and the socket's word that this page missed one (?seen=).
      if (typeof event.data === "string" && !STREAMED.test(event.data)) soon();
    };
    opened.onclose = function (event) {
      if (socket === opened) socket = null;
      if (leaving || finished() || event.code === CLOSE_NOT_FOUND) {
        stopPolling();
        return;
      }
      state = "polling";
      showState();
      startPolling();
      retryTimer = setTimeout(connect, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
      retries += 1;
    };
  }

  function afterSwap() {
    showState();
    if (!finished()) return;
    stopPolling();
    if (retryTimer) clearTimeout(retryTimer);
    if (socket) socket.close(1000);
  }

  function start() {
    follow = document.getElementById("teacher-follow");
    if (!follow || finished()) return;
    document.addEventListener("htmx:afterSettle", afterSwap);
    if (!window.WebSocket) {
      state = "polling";
      showState();
      startPolling();
      return;
    }
    window.addEventListener("pagehide", function () {
      leaving = true;
      if (socket) socket.close(1000);
    });
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return;
      leaving = false; // back from the browser's cache: listen again, and catch up
      retries = 1;
      if (!socket && !finished()) connect();
    });
    connect();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
