"""How often a single-player game hangs, with the player's vote locked to their side vs their own.

Run: .venv/bin/python bench/player_vote.py [--games N] [--engine offline]

N seeded single-player games on the shipped library (offline engine, SQLite, the real services),
each played twice by a scripted player who argues every round (a strategy drawn from the four that
need no target) and never calls the vote:

* locked: the game as it was: the side is chosen at the start, seat 7's vote is the side's and
  never changes, the jury may end on its own from round 1;
* own vote: the courtroom game now: the player casts a first vote (the side's), and votes by hand
  with the jury once at least ten of the eleven AI jurors vote the other way; the jury waits for
  the player's vote and two turns.

Prints, per policy: verdicts (hung / guilty / not guilty), hung juries where seat 7 is the lone
holdout (11-1), end reasons, mean rounds, and games that ended before the player's third turn.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _django import setup

STRATEGIES = ("challenge_evidence", "question_witness", "reasonable_doubt", "alternative_theory")
PERSUADED_AT = 10  # AI jurors voting the other way before the scripted player joins them


def play(case, seed: int, *, own_vote: bool, engine: str) -> dict:  # type: ignore[no-untyped-def]
    from deliberation import services
    from deliberation.models import Deliberation, Phase, Seat

    player = random.Random(seed)
    side = "defend" if seed % 2 == 0 else "prosecute"
    mine = "not_guilty" if side == "defend" else "guilty"
    if own_vote:
        game = services.deliberation_start(case=case, engine=engine, seed=seed, host_session_key="bench")
        game = services.side_choose(deliberation_id=game.pk, side=side, vote=mine)
    else:  # the side chosen at the start: seat 7 votes the side for the whole game, the jury never waits
        game = services.deliberation_start(case=case, engine=engine, seed=seed, player_side=side)
    voted_with_jury = False
    while game.phase == Phase.DELIBERATION:
        services.player_speak(deliberation_id=game.pk, seat_number=7, strategy=player.choice(STRATEGIES), start=False)
        services.round_run(deliberation_id=game.pk)
        game = Deliberation.objects.get(pk=game.pk)
        if own_vote and game.phase == Phase.DELIBERATION:
            others = list(Seat.objects.filter(deliberation=game).exclude(number=7).values_list("vote", flat=True))
            against = sum(1 for vote in others if vote and vote != mine)
            if against >= PERSUADED_AT and not voted_with_jury:
                other = "guilty" if mine == "not_guilty" else "not_guilty"
                services.vote_cast(deliberation_id=game.pk, seat_number=7, value=other)
                voted_with_jury = True
    final = dict(Seat.objects.filter(deliberation=game).values_list("number", "vote"))
    holdout = game.verdict == "hung" and sum(1 for n, v in final.items() if n != 7 and v != final[7]) == 11
    return {
        "verdict": game.verdict,
        "reason": game.end_reason,
        "rounds": game.round_number,
        "holdout": holdout,
        "early": game.round_number < 3,
        "won": game.verdict == mine,
    }


def report(name: str, games: list[dict], seconds: float) -> None:
    verdicts = Counter(g["verdict"] for g in games)
    reasons = Counter(g["reason"] for g in games)
    n = len(games)
    print(f"{name}: {n} games in {seconds:.0f} s")
    print(
        f"  hung {verdicts['hung']} ({verdicts['hung'] / n:.0%}), of which seat 7 the lone 11-1 holdout "
        f"{sum(g['holdout'] for g in games)}; guilty {verdicts['guilty']}, not guilty {verdicts['not_guilty']}; "
        f"the player's side won {sum(g['won'] for g in games)}"
    )
    print(
        f"  end reasons {dict(sorted(reasons.items()))}; "
        f"rounds mean {statistics.mean(g['rounds'] for g in games):.1f}, "
        f"median {statistics.median(g['rounds'] for g in games)}; "
        f"ended before the player's third turn {sum(g['early'] for g in games)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--engine", default="offline")
    args = parser.parse_args()
    os.environ["ANGRY_NARRATION"] = "text"  # the judge's words without synthesis: this measures the game
    setup()
    from django.core.management import call_command

    from cases.models import Case

    call_command("load_cases", stdout=open("/dev/null", "w"))
    cases = list(Case.objects.playable().order_by("slug"))
    print(f"{args.games} seeded single-player games over {len(cases)} shipped cases, engine {args.engine}")
    for name, own in (("locked vote (before)", False), ("own vote (now)", True)):
        start = time.perf_counter()
        games = [play(cases[seed % len(cases)], seed, own_vote=own, engine=args.engine) for seed in range(args.games)]
        report(name, games, time.perf_counter() - start)


if __name__ == "__main__":
    main()
