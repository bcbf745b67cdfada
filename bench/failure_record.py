"""Failed model calls made vs recorded, by kind and by cause, with a share of calls failing.

Run: .venv/bin/python bench/failure_record.py [--games 6] [--rate 0.3] [--seed 12]

Single-player games (the player argues every round, twelve rounds each, stable votes do not end
them) through the services and the real LiteLLM client, against the local OpenAI-protocol test
server (tests/deliberation/minds/openai_server.py) answering like a cooperative model, except
that ``--rate`` of the requests, drawn with ``--seed``, time out, get a 429 or a 500, or come back
as garbage. Retries are off, so one failed request is one failed call. "made" counts what the
server injected; "recorded" what the database holds (RoundStats.failures); the two must match.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from bench._django import setup

FAULT_CAUSES = {"timeout": "timeout", "rate_limit": "rate_limit", "server_error": "server_error", "garbage": "unusable"}
ENGINE = "openai/juror-model"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    setup()
    from django.conf import settings
    from django.core.management import call_command

    from cases.models import Case
    from deliberation import services
    from deliberation.engine.failures import CALL_KINDS, CAUSES
    from deliberation.minds.factory import mind_for
    from deliberation.models import Deliberation, Phase, RoundStats, Turn, TurnKind
    from tests.deliberation.minds.jury import JURY, speak_request
    from tests.deliberation.minds.jury_room import call_kind, jury_room
    from tests.deliberation.minds.openai_server import Faults, ScriptedOpenAIServer

    call_command("load_cases", stdout=io.StringIO())
    case = Case.objects.get(slug="kessler-market-robbery")
    os.environ.setdefault("OPENAI_API_KEY", "sk-local-bench")
    with ScriptedOpenAIServer() as server:
        server.responder = jury_room
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_TIMEOUT = 2.0
        settings.ANGRY_LLM_RETRIES = 0
        asyncio.run(mind_for(ENGINE).speak(speak_request(JURY[0], ())))  # LiteLLM's slow first call
        server.requests.clear()
        server.faults = Faults(rate=args.rate, seed=args.seed)
        games = []
        for seed in range(1, args.games + 1):
            game = services.deliberation_start(
                case=case, engine=ENGINE, seed=seed, player_side="defend", host_session_key="bench", max_rounds=12
            )
            state = game.engine_state
            state["settings"] = {**state["settings"], "stability_rounds": 1000}
            Deliberation.objects.filter(pk=game.pk).update(engine_state=state)
            while game.phase == Phase.DELIBERATION:
                services.player_speak(deliberation_id=game.pk, seat_number=7, strategy="reasonable_doubt", start=False)
                services.round_run(deliberation_id=game.pk)
                game.refresh_from_db()
            games.append(game)
        calls = Counter(call_kind(body) for body in server.requests)
        made = Counter((call_kind(f.body), FAULT_CAUSES[f.fault]) for f in server.injected)

    stats = list(RoundStats.objects.filter(deliberation__in=games))
    recorded = Counter((f["kind"], f["cause"]) for s in stats for f in s.failures)
    stand_ins = Turn.objects.filter(deliberation__in=games, is_fallback=True).count()
    notes = Turn.objects.filter(deliberation__in=games, kind=TurnKind.NOTE).count()
    rounds = sum(g.round_number for g in games)
    print(f"{len(games)} games, {rounds} rounds, {sum(calls.values())} model calls, fault rate {args.rate}")
    print(f"{'kind':<10} {'calls':>6} {'failed made':>12} {'failed recorded':>16}")
    for kind in CALL_KINDS:
        made_k = sum(n for (k, _), n in made.items() if k == kind)
        rec_k = sum(n for (k, _), n in recorded.items() if k == kind)
        print(f"{kind:<10} {calls[kind]:>6} {made_k:>12} {rec_k:>16}")
    print(f"{'cause':<13} {'made':>5} {'recorded':>9}")
    for cause in CAUSES:
        made_c = sum(n for (_, c), n in made.items() if c == cause)
        rec_c = sum(n for (_, c), n in recorded.items() if c == cause)
        if made_c or rec_c:
            print(f"{cause:<13} {made_c:>5} {rec_c:>9}")
    total_made, total_recorded = sum(made.values()), sum(recorded.values())
    same = made == recorded
    print(f"total: {total_made} failed calls made, {total_recorded} recorded (equal by kind and cause: {same})")
    failed_calls = sum(s.failed_calls for s in stats)
    print(f"stand-in turns {stand_ins}, engine notes {notes}, RoundStats.failed_calls sum {failed_calls}")
    if made != recorded:
        raise SystemExit("failed calls made and recorded differ")


if __name__ == "__main__":
    main()
