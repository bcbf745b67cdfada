"""Recovery after kill -9 mid-round, or while a witness answers at the trial: how long until what
was cut off is stored and the game moves on.

Run (service-mode scenarios need PostgreSQL and Redis; without them only the embedded ones run):
    DATABASE_URL=postgresql://... REDIS_URL=redis://... .venv/bin/python bench/recovery.py [--stale 30]
    [--only service|embedded] [--part rounds|trial]

Four scenarios with real processes (tests/recovery.py describes them; tests/deliberation/services/
test_recovery.py asserts their outcomes): the Celery worker killed while it runs a round (service
mode), and Daphne killed while its background thread runs one (embedded mode), each in a room and in
a single-player game. A fresh process is started right after the kill, as a supervisor would. The
jurors think through LiteLLM against a local OpenAI-protocol server that answers each call after
0.7 s. Times run from the kill; they include the fresh process's start-up and the round run again
from the start (with this slow model a round takes several seconds, and the fresh worker's first
one also loads LiteLLM and builds the case's index). "Taken over" is when a live process claimed the
killed round again: at least the stale limit (``ANGRY_ROUND_STALE_SECONDS``, 10 s by default)
after the round's last heartbeat, which came at most a third of that before the kill.

Six scenarios at the trial (tests/recovery_trial.py describes them), the witnesses answering
through the same slow local model: a room whose trial AI counsel hold on both sides, and a
single-player game left to AI counsel, each with its worker killed (service mode) or Daphne killed
(embedded) while a witness answers; and a single-player game whose player is defence counsel, with
Daphne killed (in either mode: her request plays AI counsel's next steps) while the prosecution's
next witness answers. "Taken over" is when a live process asked the witness that question again;
"stored" when the question and its answer are in the record; the trial "moves on" when its next
step is stored, or it waits for the student's move again. Each line says whether the step was asked
and answered once, and whether anything was doubled or the student's moves lost.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tests.recovery import Outcome, web_killed_mid_round, worker_killed_mid_round  # noqa: E402
from tests.recovery_trial import TrialOutcome, trial_killed  # noqa: E402


def show(label: str, outcome: Outcome, moved: str) -> None:
    print(
        f"{label}: first update on the watching browser {outcome.visible_after:.1f} s after the kill, "
        f"round {outcome.killed_round} taken over after {outcome.taken_over_after:.1f} s, "
        f"stored after {outcome.stored_after:.1f} s, "
        f"{moved} after {outcome.moved_on_after:.1f} s; rounds stored {outcome.rounds}"
        + (f"; round_run deliveries {outcome.round_deliveries}" if outcome.round_deliveries else "")
    )


def show_trial(label: str, outcome: TrialOutcome) -> None:
    moved = "waits for the student's move" if outcome.game == "counsel" else "next step stored"
    taken = "never" if outcome.taken_over_after is None else f"after {outcome.taken_over_after:.1f} s"
    checks = f"asked {outcome.asked}, answered {outcome.answered}, doubled {outcome.doubled or 'nothing'}"
    if outcome.own_moves:
        checks += f", the student's moves in the record {outcome.own_moves}"
    print(
        f"{label}: fresh process up after {outcome.restarted_after:.1f} s, "
        f"first update on the watching browser {outcome.visible_after:.1f} s after the kill, "
        f"witness asked again {taken}, step stored after {outcome.stored_after:.1f} s, "
        f"{moved} after {outcome.moved_on_after:.1f} s; {checks}"
    )


def trial_scenarios(service: bool) -> list[tuple[str, str, bool, bool, int]]:
    """(label, game, embedded, Daphne killed, Redis database)."""
    scenarios = [
        ("trial, web process killed (embedded), room", "room", True, True, 13),
        ("trial, web process killed (embedded), single player, AI counsel", "ai", True, True, 14),
        ("trial, web process killed (embedded), single player, student counsel", "counsel", True, True, 15),
    ]
    if service:
        scenarios[:0] = [
            ("trial, worker killed, room", "room", False, False, 11),
            ("trial, worker killed, single player, AI counsel", "ai", False, False, 12),
            ("trial, web process killed (service mode), single player, student counsel", "counsel", False, True, 13),
        ]
    return scenarios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stale", type=float, default=10.0, help="ANGRY_ROUND_STALE_SECONDS for the servers")
    parser.add_argument("--only", choices=("service", "embedded"), default=None, help="run one mode's scenarios")
    parser.add_argument("--part", choices=("rounds", "trial"), default=None, help="run the rounds' or the trial's")
    args = parser.parse_args()
    service = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    scratch = Path(tempfile.mkdtemp(prefix="angry-recovery-"))
    print(f"stale limit {args.stale:.0f} s")
    scenarios = [
        ("web process killed (embedded), room", web_killed_mid_round, True, 13),
        ("web process killed (embedded), single player", web_killed_mid_round, False, 14),
    ]
    if service:
        scenarios[:0] = [
            ("worker killed, room", worker_killed_mid_round, True, 11),
            ("worker killed, single player", worker_killed_mid_round, False, 12),
        ]
    else:
        print("DATABASE_URL and REDIS_URL not set: the worker scenarios need service mode, skipped")
    if args.only:
        scenarios = [s for s in scenarios if ("embedded" in s[0]) == (args.only == "embedded")]
    for index, (label, scenario, room, redis_db) in enumerate(scenarios if args.part != "trial" else []):
        outcome = scenario(scratch / str(index), room=room, stale_seconds=args.stale, redis_db=redis_db)
        moved = ("verdict reached" if outcome.finished else "next round stored") if room else "controls free"
        show(label, outcome, moved)
    trial = trial_scenarios(service) if args.part != "rounds" else []
    if args.only:
        trial = [t for t in trial if t[2] == (args.only == "embedded")]
    for index, (label, game, embedded, kill_web, redis_db) in enumerate(trial):
        outcome_ = trial_killed(
            scratch / f"trial-{index}",
            game=game,
            embedded=embedded,
            stale_seconds=args.stale,
            redis_db=redis_db,
            kill_web=kill_web,
        )
        show_trial(label, outcome_)


if __name__ == "__main__":
    main()
