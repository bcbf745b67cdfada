"""Recovery after kill -9 mid-round: how long until the killed round is stored and the game moves on.

Run (service-mode scenarios need PostgreSQL and Redis; without them only the embedded ones run):
    DATABASE_URL=postgresql://... REDIS_URL=redis://... .venv/bin/python bench/recovery.py [--stale 30]

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


def show(label: str, outcome: Outcome, moved: str) -> None:
    print(
        f"{label}: first update on the watching browser {outcome.visible_after:.1f} s after the kill, "
        f"round {outcome.killed_round} taken over after {outcome.taken_over_after:.1f} s, "
        f"stored after {outcome.stored_after:.1f} s, "
        f"{moved} after {outcome.moved_on_after:.1f} s; rounds stored {outcome.rounds}"
        + (f"; round_run deliveries {outcome.round_deliveries}" if outcome.round_deliveries else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stale", type=float, default=10.0, help="ANGRY_ROUND_STALE_SECONDS for the servers")
    parser.add_argument("--only", choices=("service", "embedded"), default=None, help="run one mode's scenarios")
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
    for index, (label, scenario, room, redis_db) in enumerate(scenarios):
        outcome = scenario(scratch / str(index), room=room, stale_seconds=args.stale, redis_db=redis_db)
        moved = ("verdict reached" if outcome.finished else "next round stored") if room else "controls free"
        show(label, outcome, moved)


if __name__ == "__main__":
    main()
