/* A room in the browser, beside court.js: the countdown, this viewer's own seat, and care with
 * the controls.
 *
 * Everything pushed over the websocket is the same for every viewer, so this script marks the
 * viewer's own seat and words (the page says which seat in <meta name="angry-seat">). The turn
 * banner carries the turn's deadline, which static/js/countdown.js counts down; this script keeps
 * the speaker's own countdown on the banner's deadline (frozen while paused, moved by more time).
 *
 * A pushed banner is rendered once for the whole room. It carries the key of every viewer's
 * controls (data-keys, by role) and every participant's "when is my turn" line (data-when): this
 * browser fetches its own controls only when its key changed (on a turn change, the seat that had
 * the floor and the seat that takes it), and otherwise updates the line in place (and, for the
 * host, the seat number its floor buttons name; for a participant, how close the jury is to a
 * verdict). A fetched copy
 * that shows the same thing as before (its data-key) is dropped, so words being typed are never
 * wiped. A banner pushed by this browser's own move waits for that move's answer, which carries
 * the new controls, instead of fetching them a second time; when the answer comes first, the banner
 * still shown is older than the controls (data-stamp) and is not followed.
 *
 * Words typed in the speech box are kept in sessionStorage until the room takes them, so a turn
 * that runs out mid-sentence loses nothing: they come back with the box.
 */
(function () {
  "use strict";

  function mySeat() {
    var meta = document.querySelector('meta[name="angry-seat"]');
    return meta ? meta.getAttribute("content") : "";
  }

  /* ---- The countdown: static/js/countdown.js ticks every clock from its deadline --------- */
  function tick() {
    if (window.angryCountdown) window.angryCountdown.tick();
  }

  /* ---- This viewer's seat and words ------------------------------------------------------- */
  function markMine() {
    var seat = mySeat();
    if (!seat) return;
    var box = document.getElementById("seat-" + seat);
    if (box && !box.classList.contains("seat-player")) {
      box.classList.add("seat-player");
      var name = box.querySelector(".seat-name");
      if (name && !name.querySelector(".you-badge")) {
        var badge = document.createElement("span");
        badge.className = "you-badge";
        badge.textContent = "you";
        name.appendChild(document.createTextNode(" "));
        name.appendChild(badge);
      }
    }
    document.querySelectorAll('#chat .msg[data-seat="' + seat + '"]').forEach(function (msg) {
      msg.classList.add("msg-you");
    });
  }

  /* ---- Controls: keep what is being typed, and never go back in time ---------------------- */
  /* Every request whose answer replaces the controls is numbered when it is sent, and only the
   * answer to the latest one replaces them; an older answer is dropped. A fetch sent just before a
   * vote and answered first would otherwise replace the form the vote came from, so the vote's
   * answer (carrying the vote) would go nowhere and "none yet" would stay on screen: the vote
   * changes no turn, so no banner asks for the controls again. The latest answer is at least as
   * new as the ones dropped, and the banner is followed once it is in (followBanner). */
  /* A fetch sent while this browser's own move is on its way is not newer than that move's answer:
   * the server may read the room before it has stored the move (a vote), and its copy would then
   * say "none yet" over the vote. Such a fetch's answer is dropped; once the move's answer is in,
   * the banner is followed again (followBanner) and fetched only if the room changed since. */
  var sentSerial = 0;
  var latestSerial = 0; // the newest request whose answer may replace the controls
  function forControls(evt) {
    var target = evt.detail.target;
    return !!(target && target.id === "room-controls");
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig;
    if (!forControls(evt) || !config) return;
    config.controlsSerial = ++sentSerial;
    if (config.verb === "get" && moving && Date.now() - movingSince < MOVE_WAIT_MS) config.duringMove = moving;
    else latestSerial = config.controlsSerial;
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    var config = evt.detail.requestConfig;
    if (!forControls(evt) || !config) return;
    var serial = config.controlsSerial || 0;
    if (config.duringMove || (serial && serial < latestSerial)) { evt.detail.shouldSwap = false; return; }
    if (config.verb !== "get") return;
    var match = /data-key="([^"]*)"/.exec(evt.detail.serverResponse || "");
    var current = target.getAttribute("data-key");
    if (match && current !== null && match[1] === current) evt.detail.shouldSwap = false;
  });

  function parsed(value) {
    try {
      return JSON.parse(value || "{}");
    } catch (e) {
      return {};
    }
  }

  /* ---- This viewer's own move: its answer is the new controls ----------------------------- */
  /* A move posted from the controls (speak, pass, vote...) is answered with this browser's new
   * controls, and the banner its change pushes usually arrives first: fetching on that banner
   * would ask for the controls the answer is already bringing (one request more per speech for
   * every class). While a move is on its way the banner waits; once every move is answered, the
   * banner is compared with the controls' key, and only a change since is fetched. Of two moves
   * on their way at once (a vote pressed while the speech's answer is coming), the later decides. */
  var MOVE_WAIT_MS = 10000; // a move unanswered for this long no longer holds the banner back
  var movingSince = 0;
  var moving = 0; // the number of the latest move still unanswered
  function ownMove(evt) {
    var config = evt.detail.requestConfig;
    return forControls(evt) && !!(config && config.verb !== "get");
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (!ownMove(evt)) return;
    moving = evt.detail.requestConfig.controlsSerial;
    movingSince = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!ownMove(evt) || evt.detail.requestConfig.controlsSerial !== moving) return;
    moving = 0;
    movingSince = 0;
    followBanner(); // the answer is in place: fetch only if the room changed since
  });

  function followBanner() {
    var banner = document.getElementById("room-turn");
    var controls = document.getElementById("room-controls");
    if (!banner || !controls || !banner.dataset.controls) return;
    // Controls newer than the banner (a move's answer that came before the banner it pushed): the
    // banner speaks of a room these controls have left, and its newer copy is on its way.
    if (Number(banner.dataset.stamp) < Number(controls.dataset.stamp)) return;
    var key = parsed(banner.dataset.keys)[controls.dataset.role];
    if (key && key !== controls.dataset.key) {
      if (moving && Date.now() - movingSince < MOVE_WAIT_MS) return; // the answer brings them
      htmx.ajax("GET", banner.dataset.controls, { target: "#room-controls", swap: "outerHTML" });
      return;
    }
    var when = parsed(banner.dataset.when)[mySeat()];
    var line = controls.querySelector(".when-next");
    if (when && line && line.textContent !== when) line.textContent = when;
    followOutlook(banner, controls);
    // The host's "Seat N has the floor", "+30 s for seat N" and "Skip seat N" follow the floor.
    var floor = banner.dataset.floor;
    if (floor) {
      controls.querySelectorAll(".floor-seat").forEach(function (el) {
        if (el.textContent !== floor) el.textContent = floor;
      });
    }
  }

  /* How close the jury is to a verdict ("Close to a verdict: 11 of 12..."), the same line for every
   * participant: another's vote changes it without changing these controls, so the banner that vote
   * pushes carries the line (data-outlook) and it is put in place here, the form left alone. */
  function followOutlook(banner, controls) {
    if (banner.dataset.outlook === undefined) return;
    var text = banner.dataset.outlook;
    var line = document.getElementById("outlook");
    var form = controls.querySelector("#speak-form");
    if (!text) { if (line) line.remove(); return; }
    if (line) { if (line.textContent !== text) line.textContent = text; return; }
    var heading = document.getElementById("room-controls-heading");
    if (!form || !heading || !controls.contains(heading)) return; // away, or not deliberating: no line
    line = document.createElement("p");
    line.id = "outlook";
    line.className = "outlook";
    line.setAttribute("role", "status");
    line.textContent = text;
    heading.parentNode.insertBefore(line, heading);
  }

  /* ---- The host's clock: pause, more time ------------------------------------ */
  /* The speaker's own countdown follows the banner's: frozen while paused, reset when the host
   * gives more time. Only the numbers change, so words being typed are left alone. */
  function followClock() {
    var banner = document.getElementById("room-turn");
    if (!banner) return;
    var clock = banner.querySelector(".countdown[data-deadline]");
    document.querySelectorAll("#room-controls .countdown").forEach(function (el) {
      if (clock) {
        el.classList.remove("is-paused");
        ["deadline", "now", "skew"].forEach(function (name) {
          if (clock.dataset[name] !== undefined && el.dataset[name] !== clock.dataset[name]) el.dataset[name] = clock.dataset[name];
        });
      } else if (banner.dataset.paused) {
        el.removeAttribute("data-deadline"); // the number stands where it was until the host resumes
        el.classList.add("is-paused");
      }
    });
  }

  /* A move refused because the host paused the room ("The host has paused the room; ...") is
   * gone once the banner says the room runs again: the controls are not fetched on a resume (they
   * show the same thing), so the refusal would stand beside a running clock. */
  function clearPauseRefusal() {
    var banner = document.getElementById("room-turn");
    if (!banner || banner.dataset.paused) return;
    document.querySelectorAll("#room-controls [data-paused-refusal]").forEach(function (el) { el.remove(); });
  }

  /* ---- This browser lost its seat (removed, or taken back on another device) ---------------- */
  document.addEventListener("htmx:wsClose", function (evt) {
    var event = evt.detail && evt.detail.event;
    if (!event || event.code !== 4403) return; // the close code of consumers.CLOSE_SEAT_LOST
    var controls = document.getElementById("room-controls");
    if (controls) {
      controls.innerHTML = '<p class="form-error" role="alert">This screen no longer holds a seat: ' +
        "it was taken back on another device, or the host removed it.</p>";
    }
    document.querySelectorAll(".hide-msg").forEach(function (form) { form.remove(); });
  });

  /* ---- Your turn: bring the controls into view (on a phone they sit far below the chat) ---- */
  var shownTurn = null;
  function showYourTurn() {
    var turn = document.getElementById("your-turn");
    var controls = document.getElementById("room-controls");
    if (!turn || !controls) { shownTurn = null; return; }
    var key = controls.getAttribute("data-key") || "turn";
    if (key === shownTurn) return; // once per turn: never yank the page while someone types
    shownTurn = key;
    var heading = document.getElementById("room-controls-heading") || turn;
    heading.scrollIntoView({ block: "start", behavior: "smooth" });
    var box = controls.querySelector("textarea");
    if (box) box.focus({ preventScroll: true });
  }

  /* ---- The window to claim counsel: its buttons brought into view once ------------------- */
  /* The trial's claim window is short and the judge's opening plays over it; on a phone the
   * buttons sit screens below the jury box. When the window opens for a student with no side,
   * the buttons are brought into view once (the notice pinned at the top keeps a jump to them). */
  var shownClaim = null;
  function showClaim() {
    var claim = document.querySelector("#room-controls #claim-now");
    var buttons = document.getElementById("counsel-claim");
    if (!claim || !buttons) { shownClaim = null; return; }
    var key = document.getElementById("room-controls").getAttribute("data-key") || "claim";
    if (key === shownClaim) return;
    shownClaim = key;
    buttons.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  /* ---- Words being typed outlive a turn that runs out ------------------------------------- */
  /* A turn that runs out replaces the form under the student's fingers. What they type is kept in
   * this tab's sessionStorage as they type, put back in the box when the box comes back empty
   * (their next turn, or after "I'm back"), and forgotten once the room has taken the speech. The
   * same holds at the trial for counsel's question and speech boxes: a move that runs out (AI
   * counsel makes it) leaves the words for the next question, until the court takes one. */
  var DRAFT_BOXES = [
    { box: "#speak-form textarea[name=content]", key: "" },
    { box: "#room-controls #counsel-question", key: ":question" },
    { box: "#room-controls #counsel-speech", key: ":speech" }
  ];
  function draftKey(kind) {
    return "angry-draft:" + location.pathname + ":" + mySeat() + kind.key;
  }
  function readDraft(kind) {
    try { return sessionStorage.getItem(draftKey(kind)) || ""; } catch (e) { return ""; }
  }
  function writeDraft(kind, text) {
    try {
      if (text) sessionStorage.setItem(draftKey(kind), text);
      else sessionStorage.removeItem(draftKey(kind));
    } catch (e) { /* storage refused (private mode): the words live only in the box */ }
  }
  function draftOf(element) {
    for (var i = 0; i < DRAFT_BOXES.length; i++) {
      var box = document.querySelector(DRAFT_BOXES[i].box);
      if (box && element && (element === box || (element.contains && element.contains(box)))) {
        return DRAFT_BOXES[i];
      }
    }
    return null;
  }
  document.addEventListener("input", function (evt) {
    var kind = draftOf(evt.target);
    if (kind && evt.target.tagName === "TEXTAREA") writeDraft(kind, evt.target.value);
  });
  /* Before the swap, while the form is still in the page: the answer replaces #room-controls,
   * form and all, and an event fired from a form no longer in the page never reaches document. */
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var config = evt.detail.requestConfig;
    var form = (config && config.elt) || evt.detail.elt;
    if (form && form.tagName !== "FORM" && form.closest) form = form.closest("form");
    var kind = form ? draftOf(form) : null;
    if (!kind) return;
    var xhr = evt.detail.xhr;
    if (!xhr || xhr.status < 200 || xhr.status >= 300) return;
    var answer = xhr.responseText || "";
    // the room took the speech (or the court the question): no refusal in the answer
    if (answer.indexOf('id="move-error"') === -1 && answer.indexOf('id="trial-error"') === -1) writeDraft(kind, "");
  });
  function restoreDraft() {
    DRAFT_BOXES.forEach(function (kind) {
      var box = document.querySelector(kind.box);
      var draft = readDraft(kind);
      if (!box || !draft || box.value) return;
      box.value = draft;
      if (!document.getElementById("draft-back")) {
        var note = document.createElement("p");
        note.id = "draft-back";
        note.className = "muted draft-back";
        note.setAttribute("role", "status");
        note.textContent = "Your words from before the time ran out are back in the box.";
        box.parentNode.insertBefore(note, box);
      }
    });
  }

  /* ---- Away: the "I'm back" button is brought into view once ------------------------------ */
  var shownAway = null;
  function showAway() {
    var away = document.querySelector("#room-controls .room-away");
    if (!away) { shownAway = null; return; }
    var key = document.getElementById("room-controls").getAttribute("data-key") || "away";
    if (key === shownAway) return;
    shownAway = key;
    away.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  function refresh() {
    markMine();
    tick();
    followClock();
    clearPauseRefusal();
    restoreDraft();
    showYourTurn();
    showAway();
    showClaim();
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    followBanner();
    refresh();
  });
  document.addEventListener("htmx:afterSettle", refresh);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
