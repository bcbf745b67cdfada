"""kill -9 while the trial is played, with real processes: the trial's scenarios behind tests/
deliberation/services/test_recovery.py (which asserts what happened) and bench/recovery.py (which
prints how long it took). The rounds' scenarios are tests/recovery.py, whose helpers these share.

The witnesses answer through the real LiteLLM client against a local server speaking the OpenAI
protocol that answers each call after ``THINK_SECONDS``; AI counsel's questions and speeches and the
judge's words are the offline engine's and instant. The slow part of a trial step, where a kill
lands, is the witness's answer, which is prepared before the step's transaction. Each scenario
waits until a witness's answer has been asked of the model, kills the process producing it with
SIGKILL, starts a fresh one at once as a supervisor would, and watches the database:

- ``room``: a room holding the trial (autostart, nobody claims counsel), AI counsel arguing both
  sides at the class's reading pace; the room's clock plays each step (on the Celery worker in
  service mode, on Daphne's background thread in embedded mode), which is killed;
- ``ai``: a single-player game whose player leaves the trial to AI counsel on both sides: the trial
  task plays it (the worker / Daphne's thread), which is killed at the second witness answer;
- ``counsel``: a single-player game whose player is counsel for the defence and plays over HTTP as
  a browser does (her opening speech, letting the prosecution's answers stand, a question of her
  own to its witness, no further questions). AI counsel's steps after her move run in her request,
  in the web process in either mode: Daphne is killed while the prosecution's next witness answers.

The broker's visibility timeout keeps its default (900 s), so a killed worker's message does not
come back within a scenario: what brings the trial back is the takeover of a step whose mark went
stale (``services.claims.trial_playing``), not a redelivery.

"Stored" is when the step whose answer was cut off (the question and its answer) is in the record;
"moved on" when the trial has gone past it (the room's or the AI trial's next step is stored, or
the trial waits for the student's move again). Nothing may be lost or doubled: every question is
asked once, no answer is stored twice, and the student's own moves are in the record once each.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.course import TrialState
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer
from tests.live import LiveServer, live_server
from tests.recovery import (
    CASE,
    HTTP_TIMEOUT,
    THINK_SECONDS,
    _curator_cookie,
    _environment,
    _public_id,
    _wait,
    _watch,
)

GAMES = ("room", "ai", "counsel")
ROOM_AUTOSTART_SECONDS = 5  # the room starts alone; its trial opens after the window to claim counsel
OPENING = "Members of the jury, the prosecution must prove who held that pistol, and it cannot."
OWN_QUESTION = "How long did you see his face?"
STEP_KINDS = ("question", "call", "speech", "directions")  # what begins a step of the trial
KILL_AT_ANSWER = {"room": 1, "ai": 2, "counsel": 1}  # which witness answer (from the kill's watch) is cut off


@dataclass
class TrialOutcome:
    """What a trial scenario saw after the kill (times from the kill, in seconds)."""

    game: str
    killed_question: str  # the question whose answer the killed process was waiting for
    taken_over_after: float | None = None  # a live process asked the witness that question again (None: never)
    stored_after: float = 0.0  # that question and its answer are in the record
    moved_on_after: float = 0.0  # the trial went past it (next step stored, or waits for the student)
    visible_after: float = 0.0  # the first update pushed to the watching browser after the kill
    restarted_after: float = 0.0  # the fresh process is up (Daphne answers; the worker says it is ready)
    asked: int = 0  # how often the killed question is in the record
    answered: int = 0  # answers stored after it before the next question
    doubled: list[str] = field(default_factory=list)  # questions asked twice, or answered twice
    own_moves: dict[str, int] = field(default_factory=dict)  # the student's moves: times each is in the record
    waits_for: str = ""  # what the trial waits for at the end ("defense:review": the student's move)
    phase: str = ""


class Witnesses:
    """The model server's answers, each after ``THINK_SECONDS``: a witness says the first line of
    her record the prompt gives her (an answer the trial keeps as the model's), a juror (in the room,
    after the trial) the default. Notes the moment and question of every witness call."""

    def __init__(self, model: ScriptedOpenAIServer) -> None:
        self.calls: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        model.responder = self._answer

    def _answer(self, body: dict[str, Any]) -> Reply:
        prompt = str(body.get("messages", [{}])[-1].get("content", ""))
        if not prompt.startswith("Your testimony:") or "Question: " not in prompt:
            return Reply(delay=THINK_SECONDS)  # a juror
        record, question = prompt.rsplit("Question: ", 1)
        with self._lock:
            self.calls.append((time.monotonic(), question.strip()))
        said = next((line[2:] for line in record.splitlines() if line.startswith("- ") and "(nothing" not in line), "")
        return Reply(text=said or "I couldn't say.", delay=THINK_SECONDS)

    def count(self) -> int:
        with self._lock:
            return len(self.calls)

    def after(self, moment: float, question: str) -> float | None:
        with self._lock:
            return next((at for at, asked in self.calls if at > moment and asked == question), None)

    def last_question(self) -> str:
        with self._lock:
            return self.calls[-1][1]


def _record(server: LiveServer, deliberation_id: int) -> list[tuple[str, str]]:
    """The trial's record in order: (kind, text) of every trial turn."""
    rows = server.query(
        "SELECT strategy, content FROM deliberation_turn WHERE deliberation_id = ? AND kind = 'trial' "
        "ORDER BY sequence",
        (deliberation_id,),
    )
    return [(kind, text) for kind, text in rows]


def _trial(server: LiveServer, deliberation_id: int) -> tuple[str, TrialState | None]:
    """The deliberation's phase and its trial's state (None once the trial is over)."""
    phase, stored = server.query(
        "SELECT phase, trial_state FROM deliberation_deliberation WHERE id = ?", (deliberation_id,)
    )[0]
    stored = json.loads(stored) if isinstance(stored, str) else stored
    if phase != "trial" or not stored or "state" not in stored:
        return phase, None
    return phase, TrialState.from_dict(stored["state"])


def _waits_for(server: LiveServer, deliberation_id: int) -> str:
    _phase, state = _trial(server, deliberation_id)
    waiting = trial_steps.awaiting(state) if state is not None else None
    return f"{waiting.side}:{waiting.what}" if waiting is not None else ""


def _answered(record: list[tuple[str, str]], question: str) -> int:
    """Answers stored after ``question`` before the next question, call or speech (-1: not asked)."""
    at = next((i for i, (kind, text) in enumerate(record) if kind == "question" and text == question), None)
    if at is None:
        return -1
    count = 0
    for kind, _text in record[at + 1 :]:
        if kind in STEP_KINDS:
            break
        count += kind == "answer"
    return count


def _doubled(record: list[tuple[str, str]]) -> list[str]:
    questions = [text for kind, text in record if kind == "question"]
    twice = sorted({q for q in questions if questions.count(q) > 1})
    return twice + [f"answered twice: {q}" for q in dict.fromkeys(questions) if _answered(record, q) > 1]


class Student:
    """A browser playing a single-player game over HTTP (forms read from the pages, as a person's
    browser posts them)."""

    def __init__(self, server: LiveServer) -> None:
        self.browser = httpx.Client(base_url=server.url, follow_redirects=True, timeout=HTTP_TIMEOUT)
        self.browser.get("/")
        self.token = self.browser.cookies.get("csrftoken") or ""
        court = self.browser.post("/court/start/", data={"case": CASE, "trial": CASE, **self._csrf()})
        side = re.search(r'class="side-choice" method="post" action="([^"]+)"', court.text)
        assert side, "the courtroom offers no side to choose"
        self.side_url = side.group(1)
        self.trial_url = self.side_url.rsplit("/side/", 1)[0] + "/trial/"

    def _csrf(self) -> dict[str, str]:
        return {"csrfmiddlewaretoken": self.token}

    def cookie(self) -> str:
        return "; ".join(f"{key}={value}" for key, value in self.browser.cookies.items())

    def choose(self, *, counsel: bool) -> str:
        vote = {"side": "defend", "vote": "not_guilty", "counsel": "me" if counsel else "ai"}
        return self.browser.post(self.side_url, data={**vote, **self._csrf()}).text

    def move(self, action: str, text: str = "") -> str:
        """A move as counsel: the page it answers with."""
        page = self.browser.post(self.trial_url, data={"action": action, "text": text, **self._csrf()}).text
        error = re.search(r'class="form-error"[^>]*>([^<]+)<', page)
        assert error is None, f"the move {action!r} was refused: {error.group(1)}"
        return page

    def move_cut_off(self, action: str) -> threading.Thread:
        """A move whose request the kill will cut off: posted from a thread, its failure expected."""

        def post() -> None:
            try:
                self.browser.post(self.trial_url, data={"action": action, **self._csrf()})
            except httpx.HTTPError:
                pass  # the web process died under the request

        thread = threading.Thread(target=post, name="cut-off-move", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self.browser.close()


def _counsel_up_to_the_kill(server: LiveServer, student: Student) -> None:
    """The student's moves as defence counsel, up to the prosecution's next witness: her opening,
    letting every answer of its first witness stand, one question of her own in cross-examination."""
    student.choose(counsel=True)
    deliberation_id = _newest(server)
    _wait("the student's opening", lambda: _waits_for(server, deliberation_id) == "defense:speech")
    student.move("speak", OPENING)
    _wait("the prosecution's first question", lambda: _waits_for(server, deliberation_id) == "defense:review")
    student.move("continue")
    _wait("the student's cross-examination", lambda: _waits_for(server, deliberation_id) == "defense:examine")
    student.move("ask", OWN_QUESTION)
    _wait("the student's next question", lambda: _waits_for(server, deliberation_id) == "defense:examine")


def _newest(server: LiveServer) -> int:
    return server.query("SELECT id FROM deliberation_deliberation ORDER BY id DESC LIMIT 1")[0][0]


def trial_killed(
    tmp: Path, *, game: str, embedded: bool, stale_seconds: float, redis_db: int, kill_web: bool | None = None
) -> TrialOutcome:
    """kill -9 the process producing a witness's answer at the trial of a ``game`` (see the module),
    start a fresh one, and watch the trial recover. The process killed is Daphne in embedded mode
    and in the ``counsel`` game (whose AI steps run in the student's request), else the worker."""
    assert game in GAMES, game
    kill_web = embedded or game == "counsel" if kill_web is None else kill_web
    with ScriptedOpenAIServer() as model:
        witnesses = Witnesses(model)
        env = {
            **_environment(model, stale_seconds),
            "ANGRY_ROOM_AUTOSTART_SECONDS": str(ROOM_AUTOSTART_SECONDS),
            "CELERY_VISIBILITY_TIMEOUT": "900",  # the default: a killed worker's message comes back late
        }
        name = f"kill_{'web' if kill_web else 'worker'}_trial_{game}"
        with live_server(tmp, name=name, redis_db=redis_db, env=env, embedded=embedded) as server:
            if not embedded:
                assert server.service_mode, "a worker can be killed only in service mode"
            student: Student | None = None
            if game == "room":
                server.room("--case", CASE, "--autostart", "--open-seats", "2", "--trial", "--pace-seconds", "0.5")
                cookie = _curator_cookie(server)
            else:
                student = Student(server)
                cookie = student.cookie()
            watcher = _watch(server, _public_id(server), cookie)
            deliberation_id = _newest(server)
            if game == "counsel" and student is not None:
                _counsel_up_to_the_kill(server, student)
            calls = witnesses.count()
            if game == "ai" and student is not None:
                student.choose(counsel=False)
            elif game == "counsel" and student is not None:
                student.move_cut_off("rest")  # her move; AI counsel's next question follows in her request
            cut_off = calls + KILL_AT_ANSWER[game]
            _wait("a witness's answer to be asked of the model", lambda: witnesses.count() >= cut_off)
            question = witnesses.last_question()
            server.kill(server.processes[0] if kill_web else server.processes[-1])
            killed_at = time.monotonic()
            if kill_web:
                server.start_web()  # its first request starts the room driver, as a browser's would
            else:
                server.start_worker("fresh")
                log = server.log.parent / "worker-fresh.log"
                _wait("the fresh worker to be ready", lambda: " ready." in log.read_text())
            outcome = TrialOutcome(game=game, killed_question=question, restarted_after=time.monotonic() - killed_at)

            def stored() -> bool:
                return _answered(_record(server, deliberation_id), question) >= 1

            def moved_on() -> bool:
                record = _record(server, deliberation_id)
                at = next(i for i, (kind, text) in enumerate(record) if kind == "question" and text == question)
                if game == "counsel":
                    return _waits_for(server, deliberation_id).startswith("defense:")
                later = [kind for kind, _text in record[at + 1 :] if kind in STEP_KINDS]
                return bool(later) or _trial(server, deliberation_id)[0] != "trial"

            outcome.stored_after = _wait("the cut-off step to be stored", stored) - killed_at
            asked_again = witnesses.after(killed_at, question)
            outcome.taken_over_after = None if asked_again is None else asked_again - killed_at
            outcome.moved_on_after = _wait("the trial to move on", moved_on) - killed_at
            _wait("an update on the watching browser", lambda: watcher.first_after(killed_at) is not None)
            outcome.visible_after = (watcher.first_after(killed_at) or killed_at) - killed_at
            record = _record(server, deliberation_id)
            outcome.asked = sum(1 for kind, text in record if kind == "question" and text == question)
            outcome.answered = _answered(record, question)
            outcome.doubled = _doubled(record)
            if game == "counsel":
                outcome.own_moves = {
                    "opening": sum(1 for kind, text in record if kind == "speech" and text == OPENING),
                    "question": sum(1 for kind, text in record if kind == "question" and text == OWN_QUESTION),
                    "its answer": max(0, _answered(record, OWN_QUESTION)),
                }
            outcome.waits_for = _waits_for(server, deliberation_id)
            outcome.phase = _trial(server, deliberation_id)[0]
            watcher.stop.set()
            watcher.join(timeout=5)
            if student is not None:
                student.close()
            return outcome
