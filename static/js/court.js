/* The courtroom in the browser: kinetic text, the judge's voice, and care with live fragments.
 *
 * The server renders every piece of HTML; this script only animates it. Fragments arrive over
 * the websocket (htmx ws extension, swapped out of band by id) or as answers to the controls.
 * Screen readers get each message whole from a visually hidden copy; the typed copy is hidden
 * from them, so nothing is read out letter by letter.
 */
(function () {
  "use strict";

  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  // The text speed, chosen on the page and kept in this browser: instant, fast or read-along.
  var SPEED_KEY = "angry.textSpeed";
  var SPEEDS = {
    fast: { charMs: 9, maxMessageMs: 2500 }, // about 110 characters a second
    read: { charMs: 28, maxMessageMs: 9000 } // read-along: about 35 characters a second
  };
  var CHAR_MS = 28;
  var VARIANCE_MS = 12;
  var MAX_MESSAGE_MS = 9000; // long speeches type faster rather than hold the room up
  function textSpeed() {
    var value = null;
    try { value = localStorage.getItem(SPEED_KEY); } catch (e) { value = null; }
    return value === "instant" || value === "read" ? value : "fast";
  }
  function applySpeed() {
    var speed = textSpeed();
    var pace = SPEEDS[speed] || SPEEDS.fast;
    CHAR_MS = pace.charMs;
    MAX_MESSAGE_MS = pace.maxMessageMs;
    document.querySelectorAll('input[name="text-speed"]').forEach(function (input) {
      input.checked = input.value === speed;
    });
  }
  function instant() { return reduceMotion || textSpeed() === "instant"; }
  var MUTE_KEY = "angry.judgeMuted";
  var PLAYED_PREFIX = "angry.played.";

  /* ---- Stale fragments: never let an older state replace a newer one --------------------- */
  function stampOf(el) {
    var value = el && el.getAttribute && el.getAttribute("data-stamp");
    return value === null || value === undefined ? null : parseInt(value, 10);
  }
  function olderThanPage(incoming, target) {
    var next = stampOf(incoming), current = stampOf(target);
    return next !== null && current !== null && next < current;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var fragment = evt.detail.fragment, target = evt.detail.target;
    var incoming = fragment && (fragment.firstElementChild || fragment);
    if (incoming && target && incoming.id && incoming.id === target.id && olderThanPage(incoming, target)) {
      evt.detail.shouldSwap = false;
    } else if (target && target.id === "judge" && incoming && mergeJudge(incoming, target)) {
      evt.detail.shouldSwap = false;
    }
  });
  // Messages the chat already shows are dropped before they go in, not after: the chat is a live
  // region, and a screen reader would read a round delivered twice (a push crossing a catch-up) twice.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target, fragment = evt.detail.fragment;
    if (!target || target.id !== "chat" || !fragment || !fragment.querySelectorAll) return;
    fragment.querySelectorAll("li[id]").forEach(function (li) {
      if (li.parentNode === fragment && document.getElementById(li.id)) li.remove();
    });
  });
  // More pieces of the line already being spoken: add them beside the playing one instead of
  // replacing it (an <audio> taken out of the page stops mid-word).
  function mergeJudge(incoming, target) {
    var next = incoming.querySelector && incoming.querySelector(".judge-line");
    var line = target.querySelector(".judge-line");
    if (!next || !line || next.getAttribute("data-narration") !== line.getAttribute("data-narration")) return false;
    next.querySelectorAll(".judge-audio").forEach(function (audio) {
      if (!line.querySelector('.judge-audio[data-index="' + audio.getAttribute("data-index") + '"]')) {
        audio.muted = muted();
        line.insertBefore(audio, line.querySelector(".judge-words"));
      }
    });
    ["data-pending", "data-speaking"].forEach(function (name) {
      if (next.hasAttribute(name)) line.setAttribute(name, "1");
      else line.removeAttribute(name);
    });
    line.setAttribute("data-duration", next.getAttribute("data-duration") || "");
    return true;
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target, text = evt.detail.serverResponse || "";
    var match = /data-stamp="(\d+)"/.exec(text);
    if (match && target && stampOf(target) !== null && parseInt(match[1], 10) < stampOf(target)) {
      evt.detail.shouldSwap = false;
    }
  });

  /* ---- Kinetic typing of new messages, one after another -------------------------------- */
  var queue = [], typing = null;

  function finish(job) {
    job.el.textContent = job.text;
    job.el.classList.remove("typing");
    if (job.done) job.done();
  }
  /* Counsel's moves wait for the stand: while a new question, answer, objection or ruling is still
   * being typed on the stand, the counsel's buttons hold (a student objects to an answer they have
   * read, not one still appearing). Esc or "Skip the typing" shows it all at once. */
  function holdCounsel() {
    var busy = !!document.querySelector("#on-stand .msg.waiting, #on-stand .kinetic.typing");
    document.querySelectorAll("form[data-hold-while-typing]").forEach(function (form) {
      form.classList.toggle("is-held", busy);
      form.querySelectorAll("button").forEach(function (button) { button.disabled = busy; });
      var note = form.querySelector(".counsel-wait");
      if (note) note.hidden = !busy;
    });
  }
  function showSkip() {
    var button = document.getElementById("skip-typing");
    if (button) button.hidden = !(typing || queue.length);
    holdCounsel();
    if (held.length && !typing && !queue.length) setTimeout(releaseHeld, 0);
  }

  /* ---- The verdict waits for the last speeches ------------------------------------------ */
  /* The verdict is pushed the moment the jury decides, with (or just after) the round's last
   * speeches, which are then still to be typed. The parts of a message that carry it (the server
   * marks them data-verdict: the banner, the turn panel, the announcement) are held, with every
   * message after them in their order, until the typing is done (or skipped); the rest of the
   * message goes in at once. Nobody reads the verdict before the words that led to it. Held parts
   * are handed back to the socket, whose own handler swaps them in as if they had just arrived. */
  var held = [], socketNow = null, replaying = false;
  function handBack(message) {
    if (!socketNow) { window.location.reload(); return; } // nowhere to hand it: the page is rebuilt
    replaying = true;
    try { socketNow.dispatchEvent(new MessageEvent("message", { data: message })); }
    finally { replaying = false; }
  }
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail.message;
    if (replaying || typeof message !== "string" || instant()) return;
    if (held.length) { held.push(message); evt.preventDefault(); return; }
    var speeches = /data-kinetic="new"/.test(message);
    if (!/data-verdict/.test(message) || !(typing || queue.length || speeches)) return;
    evt.preventDefault();
    var parsed = document.createElement("template");
    parsed.innerHTML = message;
    var now = [], later = [];
    Array.prototype.forEach.call(parsed.content.children, function (el) {
      var verdict = el.hasAttribute("data-verdict") || el.querySelector("[data-verdict]");
      (verdict ? later : now).push(el.outerHTML);
    });
    held.push(later.join(""));
    if (now.length) handBack(now.join("")); // the speeches go in (and start typing) now
    showSkip();
  });
  function releaseHeld() {
    if (!held.length || typing || queue.length) return;
    var messages = held;
    held = [];
    messages.forEach(handBack);
  }
  function typeNext() {
    showSkip();
    if (typing || !queue.length) return;
    var job = queue.shift();
    while (job && !document.body.contains(job.el)) {
      // A line the next push has already replaced (the stand's panel moves on with every step):
      // nobody can see it, so it holds up nobody; the next visible line starts at once.
      finish(job);
      job = queue.shift();
    }
    if (!job) { showSkip(); return; }
    typing = job;
    var text = job.text, i = 0;
    var pace = Math.min(CHAR_MS, MAX_MESSAGE_MS / Math.max(text.length, 1));
    job.el.textContent = "";
    job.el.classList.add("typing");
    job.msg && job.msg.classList.remove("waiting");
    function step() {
      if (typing !== job) return;
      if (job.skip || i >= text.length || !document.body.contains(job.el)) {
        finish(job);
        typing = null;
        typeNext();
        return;
      }
      var burst = pace < 8 ? 3 : 1; // very fast paces reveal a few letters per tick
      i = Math.min(text.length, i + burst);
      job.el.textContent = text.slice(0, i);
      scrollChat(false);
      setTimeout(step, Math.max(4, pace * burst + (Math.random() - 0.5) * VARIANCE_MS));
    }
    step();
  }
  function skipAll() {
    if (typing) typing.skip = true;
    queue.forEach(function (job) { job.msg && job.msg.classList.remove("waiting"); finish(job); });
    queue = [];
    setTimeout(showSkip, 0);
  }
  function animateNew(root) {
    var seen = {};
    document.querySelectorAll("#chat > li[id]").forEach(function (li) {
      if (seen[li.id]) li.remove(); else seen[li.id] = true; // a round delivered twice shows once
    });
    (root || document).querySelectorAll('#chat .msg[data-kinetic="new"], #on-stand .msg[data-kinetic="new"]').forEach(function (msg) {
      msg.removeAttribute("data-kinetic");
      var el = msg.querySelector(".kinetic");
      if (!el || instant()) return;
      msg.classList.add("waiting");
      queue.push({ el: el, msg: msg, text: el.textContent });
    });
    scrollChat(true);
    typeNext();
  }
  function scrollChat(force) {
    var chat = document.getElementById("chat");
    if (!chat) return;
    var nearBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 120;
    if (force || nearBottom) chat.scrollTop = chat.scrollHeight;
  }
  document.addEventListener("keydown", function (evt) { if (evt.key === "Escape") skipAll(); });
  document.addEventListener("change", function (evt) {
    if (evt.target.name !== "text-speed") return;
    try { localStorage.setItem(SPEED_KEY, evt.target.value); } catch (e) { /* private mode: this page only */ }
    applySpeed();
    if (evt.target.value === "instant") skipAll();
  });
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("#chat .msg")) skipAll();
  });

  /* ---- Announcements: keep the last few ------------------------------------------------- */
  function pruneAnnouncements() {
    var box = document.getElementById("announcements");
    if (!box) return;
    while (box.children.length > 3) box.removeChild(box.firstElementChild);
    Array.prototype.forEach.call(box.children, function (note) {
      if (note.dataset.expires) return;
      note.dataset.expires = "1";
      setTimeout(function () { note.remove(); }, 15000); // the chat keeps the record; this is a notice
    });
  }

  /* ---- The judge's voice and words ------------------------------------------------------ */
  function muted() { return localStorage.getItem(MUTE_KEY) === "1"; }
  function syncMuteButton() {
    var button = document.getElementById("judge-mute");
    if (!button) return;
    button.setAttribute("aria-pressed", muted() ? "true" : "false");
    button.textContent = muted() ? "Unmute the judge" : "Mute the judge";
    document.querySelectorAll(".judge-audio").forEach(function (audio) { audio.muted = muted(); });
  }
  /* A line is a playlist of pieces (<audio data-index>): a long line arrives piece by piece while
   * the server is still voicing it (data-speaking), and the voice starts with the first piece.
   * Each piece carries the span of the words it speaks, so the words appear in step with it. */
  var judgeRun = 0;
  var playing = { id: null, index: 0, waiting: false };
  function currentLine() { return document.querySelector("#judge .judge-line"); }
  function pieceOf(line, index) { return line.querySelector('.judge-audio[data-index="' + index + '"]'); }
  function typeJudge(words, text, audio) {
    var run = ++judgeRun;
    words.classList.add("typing");
    if (instant()) { words.textContent = text; words.classList.remove("typing"); return; }
    var i = 0;
    (function step() {
      if (run !== judgeRun) return;
      i += 1;
      words.textContent = text.slice(0, i);
      if (i < text.length) setTimeout(step, 32 + (Math.random() - 0.5) * VARIANCE_MS);
      else words.classList.remove("typing");
    })();
  }
  function followPiece(words, text, audio) {
    // In step with the voice: reveal the share of this piece's words that matches the share played.
    var run = ++judgeRun;
    var from = parseInt(audio.getAttribute("data-start"), 10) || 0;
    var to = parseInt(audio.getAttribute("data-end"), 10) || text.length;
    words.classList.add("typing");
    if (instant()) { words.textContent = text.slice(0, to); return; }
    (function frame() {
      if (run !== judgeRun) return;
      var share = isFinite(audio.duration) && audio.duration > 0 ? Math.min(1, audio.currentTime / audio.duration) : 0;
      words.textContent = text.slice(0, Math.ceil(from + (to - from) * share));
      if (audio.ended || share >= 1) { words.textContent = text.slice(0, to); return; }
      if (audio.paused) return;
      requestAnimationFrame(frame);
    })();
  }
  function finishWords(line) {
    var words = line.querySelector(".kinetic");
    if (words) { words.textContent = line.getAttribute("data-text") || words.textContent; words.classList.remove("typing"); }
  }
  function playPiece(line, index, fromGesture) {
    var words = line.querySelector(".kinetic");
    if (!words) return;
    var text = line.getAttribute("data-text") || words.textContent;
    line.setAttribute("data-text", text);
    var id = line.getAttribute("data-narration");
    playing = { id: id, index: index, waiting: false };
    var audio = pieceOf(line, index);
    if (!audio || muted()) {
      if (audio === null && line.hasAttribute("data-pending") && !muted()) {
        // Not voiced this far yet: the next piece starts the moment it arrives.
        playing.waiting = true;
        if (index === 0) { ++judgeRun; words.textContent = ""; words.classList.add("typing"); }
        return;
      }
      if (index === 0) typeJudge(words, text, null); else finishWords(line);
      return;
    }
    audio.muted = false;
    audio.currentTime = 0;
    audio.onended = function () {
      var now = currentLine();
      if (now && now.getAttribute("data-narration") === id && playing.id === id && playing.index === index) {
        playPiece(now, index + 1, true);
      }
    };
    var attempt = audio.play();
    if (attempt && attempt.then) {
      attempt.then(function () { followPiece(words, text, audio); }).catch(function () {
        // Autoplay refused: show the words now and speak at the first touch or key press.
        typeJudge(words, text, null);
        if (!fromGesture) waitForGesture(line);
      });
    } else {
      followPiece(words, text, audio);
    }
  }
  function playJudge(line, fromGesture) {
    document.querySelectorAll(".judge-audio").forEach(function (a) { a.pause(); });
    playPiece(line, 0, fromGesture);
  }
  function waitForGesture(line) {
    var hint = document.getElementById("judge-replay");
    if (hint) hint.classList.add("attention");
    function go() {
      document.removeEventListener("pointerdown", go, true);
      document.removeEventListener("keydown", go, true);
      if (hint) hint.classList.remove("attention");
      var now = currentLine();
      if (now && !muted()) playJudge(now, true);
    }
    document.addEventListener("pointerdown", go, true);
    document.addEventListener("keydown", go, true);
  }
  function judgeArrived(onLoad) {
    var line = currentLine();
    if (!line) return;
    var id = line.getAttribute("data-narration");
    if (!onLoad && playing.id === id) {
      // More of the line being spoken: carry on where the voice stopped, never from the start.
      if (playing.waiting) playPiece(line, playing.index, true);
      return;
    }
    var key = PLAYED_PREFIX + id;
    var played = sessionStorage.getItem(key) === "1";
    sessionStorage.setItem(key, "1");
    if (onLoad && played) return; // a reload does not read the same line again
    playJudge(line, false);
  }
  document.addEventListener("click", function (evt) {
    var target = evt.target;
    if (target.id === "judge-mute") {
      localStorage.setItem(MUTE_KEY, muted() ? "0" : "1");
      if (muted()) document.querySelectorAll(".judge-audio").forEach(function (a) { a.pause(); });
      syncMuteButton();
    } else if (target.closest && target.closest("#skip-typing")) {
      skipAll();
    } else if (target.id === "judge-replay") {
      var line = currentLine();
      if (line) playJudge(line, true);
    }
  });

  /* ---- Wiring ----------------------------------------------------------------------------- */
  var wasClosed = false;
  document.addEventListener("htmx:wsClose", function () { wasClosed = true; });
  document.addEventListener("htmx:wsOpen", function (evt) {
    socketNow = evt.detail.event && evt.detail.event.target; // held messages are handed back to it
    // Anything missed while disconnected is in the database: rebuild the page from it.
    if (wasClosed) window.location.reload();
  });
  document.addEventListener("htmx:wsAfterMessage", function (evt) {
    if (/id="push-stale"/.test(evt.detail.message || "")) { catchUp(); return; }
    animateNew(document);
    holdCounsel();
    pruneAnnouncements();
    if (/id="judge"/.test(evt.detail.message || "")) { syncMuteButton(); judgeArrived(false); }
  });
  document.addEventListener("htmx:afterSwap", function (evt) {
    holdCounsel(); // fresh controls hold while the stand is still being typed
    if (evt.detail.target && evt.detail.target.id === "controls") {
      var error = document.querySelector("#controls .form-error");
      if (error) { error.setAttribute("tabindex", "-1"); error.focus(); }
    }
  });
  /* ---- The keyboard's place across a swap of the controls ---------------------------------- */
  /* A move's answer or a pushed update replaces the controls, and with them the element that had
   * the focus: the browser would send a keyboard user back to the top of the page, to tab through
   * every message of the chat again. The focus goes to the same control in the new copy, else (it
   * is gone or disabled while the jurors speak) to the controls' heading; a confirmation that
   * appears (calling the final vote) takes it, so a screen reader reads the question. */
  var focusWas = null;
  function sameControl(el, was) {
    if (was.id) return el.id === was.id;
    return el.tagName === was.tag && el.getAttribute("name") === was.name &&
      el.getAttribute("value") === was.value && el.textContent.trim() === was.text;
  }
  function keepFocus(target) {
    var active = document.activeElement;
    var controls = active && active.closest && active.closest("#controls, #room-controls");
    if (!target || !controls || !target.contains(controls)) return; // the controls, or the court read again
    focusWas = { id: active.id, tag: active.tagName, name: active.getAttribute("name"),
                 value: active.getAttribute("value"), text: active.textContent.trim() };
  }
  function giveFocusBack() {
    var was = focusWas;
    focusWas = null;
    var root = document.getElementById("controls") || document.getElementById("room-controls");
    var active = document.activeElement;
    if (!was || !root || (active && active !== document.body && document.body.contains(active))) return;
    var next = root.querySelector('[role="alertdialog"]');
    if (!next) {
      next = Array.prototype.find.call(root.querySelectorAll("button, input, select, textarea, a[href], summary"),
        function (el) { return !el.disabled && !el.closest("fieldset:disabled") && sameControl(el, was); });
    }
    next = next || root.querySelector("h3, h4");
    if (!next) return;
    if (!next.matches("button, input, select, textarea, a[href], summary")) next.setAttribute("tabindex", "-1");
    next.focus();
  }
  document.addEventListener("htmx:beforeSwap", function (evt) { keepFocus(evt.detail.target); });
  document.addEventListener("htmx:oobBeforeSwap", function (evt) { keepFocus(evt.detail.target); });
  document.addEventListener("htmx:afterSettle", giveFocusBack);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(giveFocusBack, 0); });

  /* An update went out between this page's rendering and its socket joining (consumers.py): read
   * the page again into place. The socket stays open meanwhile, so nothing after it is missed, and
   * no second socket is opened (a reload would open one, and could miss again while a round runs).
   *
   * The person may act while the page is read again. What they tick or type is taken at the moment
   * the new page goes in (not when it was asked for), so a tick made meanwhile stays. A move of
   * theirs and a catch-up never cross: a catch-up waits for a move on its way (the page it read
   * could be from before the move), and a move sent while a catch-up is on its way is followed by
   * one more catch-up once answered (its answer went into controls the catch-up replaced). The
   * form a move was sent from is not filled in again: what it held has been sent. */
  var catching = false;
  var catchUpDue = false;
  var movesOnTheirWay = 0;
  var sentForms = {};
  var keptAtSwap = {};
  function isCatchUp(evt) {
    var target = evt.detail.target;
    return !!(target && target.id === "court");
  }
  function catchUp() {
    var court = document.getElementById("court");
    if (!court || !court.dataset.page) { window.location.reload(); return; }
    if (catching || movesOnTheirWay > 0) { catchUpDue = true; return; }
    catching = true;
    var done = function () {
      catching = false;
      if (!catchUpDue) sentForms = {};
      catchUpWhenDue();
    };
    // The court is the request's source: a request with no source is the page body's, and one more
    // body request (a room's controls) would queue behind it and drop it from the queue.
    htmx.ajax("GET", court.dataset.page, { source: "#court", target: "#court", select: "#court > *", swap: "innerHTML" })
      .then(done, done);
  }
  function catchUpWhenDue() {
    if (catchUpDue && !catching && movesOnTheirWay === 0) { catchUpDue = false; catchUp(); }
  }
  document.addEventListener("htmx:beforeSend", function (evt) {
    if (isCatchUp(evt) || !evt.detail.xhr) return;
    movesOnTheirWay += 1;
    if (catching) {
      catchUpDue = true;
      var elt = evt.detail.elt;
      var form = elt && (elt.form || (elt.closest && elt.closest("form")));
      if (form) sentForms[formKey(form)] = true;
    }
    evt.detail.xhr.addEventListener("loadend", function () { movesOnTheirWay -= 1; catchUpWhenDue(); });
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (isCatchUp(evt)) keptAtSwap = choicesIn(evt.detail.target);
  });
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (isCatchUp(evt)) { restoreChoices(evt.detail.target, keptAtSwap); keptAtSwap = {}; }
  });

  /* What the person has ticked, chosen or typed in the court's forms, so that reading the page
   * again into place leaves it as they had it (a first vote ticked while the judge still speaks). */
  function formKey(form) {
    return form.getAttribute("id") || form.getAttribute("action") || "";
  }
  function fieldKey(el) {
    var form = el.form ? formKey(el.form) : "";
    var choice = el.type === "radio" || el.type === "checkbox" ? "=" + el.value : "";
    return form + "|" + el.name + choice;
  }
  function choicesIn(root) {
    var kept = {};
    root.querySelectorAll("input[name], textarea[name], select[name]").forEach(function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked !== el.defaultChecked) kept[fieldKey(el)] = el.checked;
      } else if (el.tagName === "SELECT") {
        var chosen = el.options[el.selectedIndex];
        if (chosen && !chosen.defaultSelected) kept[fieldKey(el)] = el.value;
      } else if (el.value !== el.defaultValue) {
        kept[fieldKey(el)] = el.value;
      }
    });
    return kept;
  }
  function restoreChoices(root, kept) {
    if (!root) return;
    root.querySelectorAll("input[name], textarea[name], select[name]").forEach(function (el) {
      var key = fieldKey(el);
      if (!(key in kept) || el.disabled || (el.form && sentForms[formKey(el.form)])) return;
      if (el.type === "radio" || el.type === "checkbox") el.checked = kept[key];
      else el.value = kept[key];
    });
  }
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "court") ready();
  });

  function ready() {
    applySpeed();
    syncMuteButton();
    scrollChat(true);
    judgeArrived(true);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
