"""The pace of a game: rounds to the verdict and turns per person, by case and by class size.

Run: .venv/bin/python bench/game_pace.py [--seeds N] [--seed S] [--sizes 0,1,2,3,4,5,6] [--cases a,b]
     [--rules NAME] [--workers W] [--room-gate T] [--set params.NAME=VALUE]

The pure engine, the offline mind and the shipped jury, on the five curated cases (two rated clear,
three ambiguous), seeds S .. S+N-1 per case and class size. A class size is how many people hold
seats in the game:

* 0: an AI-only jury (the command line, an experiment; no gate on the verdict);
* 1: the single-player courtroom: the person in seat 7 argues their side before every round (their
  speech is heard first in the round), and the jury reaches no verdict by itself before they have
  voted and had two turns (``turns_before_verdict`` 2, as ``services.lifecycle`` sets it);
* 2-6: a room: people in seats 7, 2, 3, 4, 5, 6; the AI jurors take round 1 at once, then every
  person has one turn, in seat order, before each next round (``rooms.clock``); the jury waits
  for every person's vote and five turns (``turns_before_verdict`` 5, as ``rooms.services`` sets
  it; ``--room-gate`` tries another value).

A person is scripted, deterministic by seed: their first vote is what the seat's persona would
have voted on the first ballot of the AI-only game of the same seed (single player: their side);
on each turn they argue their vote with one of the four strategies that need no target (crafted by
the offline mind, as the courtroom's buttons are), and they go over to the other side when nine or
more of the eleven others vote against them (with an even chance on each turn; always when all
eleven do). They never call the vote, so every game runs until the jury settles or hangs.

Prints per case and class size: games, median and mean rounds to the verdict, the median turns a
person had (rounds with a turn, counted per person, median over people and games), the share of
games that gave a person fewer than five turns, AI speeches per game and the verdicts
(guilty / not guilty / hung). The ambiguous cases are summed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import statistics
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from prompt_growth import load_case, load_jury  # noqa: E402

from deliberation.engine.ending import cast_vote, record_turn  # noqa: E402
from deliberation.engine.initial import cast_initial_ballot, new_state  # noqa: E402
from deliberation.engine.phases import advance  # noqa: E402
from deliberation.engine.results import PlayerMove  # noqa: E402
from deliberation.engine.rounds import run_round  # noqa: E402
from deliberation.engine.session import begin, finish  # noqa: E402
from deliberation.engine.state import EngineSettings  # noqa: E402
from deliberation.minds.offline.mind import OfflineMind  # noqa: E402
from deliberation.minds.stand_ins import argued_points  # noqa: E402

CASES = (
    "alder-street-hit-and-run",
    "copper-kettle-fire",
    "pruitt-basement-killing",
    "kessler-market-robbery",
    "route-nine-fuel-stop-murder",
)
CLEAR = {"kessler-market-robbery", "route-nine-fuel-stop-murder"}
ROOM_SEATS = (7, 2, 3, 4, 5, 6)  # the host, then the seats a room opens first
STRATEGIES = ("challenge_evidence", "question_witness", "reasonable_doubt", "alternative_theory")
COURTROOM_GATE = 2
ROOM_GATE = 5  # rooms.services.ROOM_TURNS_BEFORE_VERDICT
GIVES_WAY_AT = 9  # of the eleven others voting against a person: they may go over
FEW_TURNS = 5


def side_of(vote: str) -> str:
    return "prosecute" if vote == "guilty" else "defend"


async def play(slug: str, size: int, seed: int, rules: str, room_gate: int = ROOM_GATE) -> dict[str, Any]:
    case = load_case(slug)
    shipped = load_jury()
    if size == 0:
        state = begin(case=case, jury=shipped, seed=seed, settings=EngineSettings(rules=rules))
        jury, people = list(shipped), []
    else:
        people = [7] if size == 1 else list(ROOM_SEATS[:size])
        if size == 1:
            first = {7: "not_guilty" if seed % 2 == 0 else "guilty"}
        else:  # the person votes as the seat's persona would have on this seed's AI-only first ballot
            alone = begin(case=case, jury=shipped, seed=seed, settings=EngineSettings(rules=rules))
            first = {seat: alone.votes[seat] for seat in people}
        jury = [replace(j, kind="human") if j.seat in people else j for j in shipped]
        gate = COURTROOM_GATE if size == 1 else room_gate
        side = side_of(first[7]) if size == 1 else "none"
        state = new_state(
            jury=jury, seed=seed, player_side=side, settings=EngineSettings(rules=rules, turns_before_verdict=gate)
        )
        advance(state, "presentation")
        if side != "none":
            advance(state, "side_selection")
        advance(state, "initial_vote")
        state.votes.update(first)
        cast_initial_ballot(state, case=case, jury=jury)
        advance(state, "deliberation")
        for seat in people:
            cast_vote(state, seat=seat, value=first[seat])
    script = random.Random(f"{slug}:{size}:{seed}")
    turns = dict.fromkeys(people, 0)
    speeches = 0
    mind = OfflineMind()
    while not state.end_reason:
        moves: list[PlayerMove] = []
        if people and (size == 1 or state.round_number >= 1):
            for seat in people:
                mine = state.votes[seat]
                against = sum(1 for other, vote in state.votes.items() if other != seat and vote != mine)
                if against >= GIVES_WAY_AT and (against == 11 or script.random() < 0.5):
                    mine = "guilty" if mine == "not_guilty" else "not_guilty"
                    cast_vote(state, seat=seat, value=mine)
                moves.append(PlayerMove(seat=seat, side=side_of(mine), strategy=script.choice(STRATEGIES)))
                record_turn(state, seat=seat)
                turns[seat] += 1
        result = await run_round(
            state, case=case, jury=jury, mind=mind, fallback=mind, reader=argued_points, injected=moves
        )
        speeches += sum(1 for s in result.speeches if s.seat not in turns)
    verdict = finish(state)
    return {
        "case": slug,
        "size": size,
        "seed": seed,
        "rounds": state.round_number,
        "turns": list(turns.values()),
        "speeches": speeches,
        "verdict": verdict,
        "end": state.end_reason,
        "first": dict(state.first_ballot),
    }


def _play(job: tuple[str, int, int, str, int]) -> dict[str, Any]:
    return asyncio.run(play(*job))


def apply_overrides(overrides: list[str]) -> None:
    for override in overrides:
        target, value = override.split("=", 1)
        module, name = target.rsplit(".", 1)
        found = importlib.import_module(f"deliberation.engine.{module}")
        setattr(found, name, type(getattr(found, name))(float(value)))


def row(label: str, games: list[dict[str, Any]]) -> str:
    rounds = [g["rounds"] for g in games]
    turns = [t for g in games for t in g["turns"]]
    verdicts = Counter(g["verdict"] for g in games)
    few = sum(1 for t in turns if t < FEW_TURNS)
    turn_cells = (
        f"{statistics.median(turns):5.1f} {statistics.mean(turns):5.2f} {100 * few / len(turns):5.0f}%"
        if turns
        else f"{'-':>5s} {'-':>5s} {'-':>6s}"
    )
    return (
        f"{label:34s} {len(games):5d} {statistics.median(rounds):6.1f} {statistics.mean(rounds):6.2f} "
        f"{turn_cells} {statistics.mean(g['speeches'] for g in games):7.1f}   "
        f"{verdicts['guilty']:3d} / {verdicts['not_guilty']:3d} / {verdicts['hung']:3d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", default="0,1,2,3,4,5,6")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--rules", default="unanimous")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--room-gate", type=int, default=ROOM_GATE, help="turns a room waits for, to try a value")
    parser.add_argument("--set", action="append", default=[], help="params.NAME=VALUE, to try a value")
    args = parser.parse_args()
    apply_overrides(args.set)
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = args.cases.split(",")
    jobs = [
        (slug, size, seed, args.rules, args.room_gate)
        for slug in cases
        for size in sizes
        for seed in range(args.seed, args.seed + args.seeds)
    ]
    if args.workers > 1:  # forked workers inherit the overrides
        with ProcessPoolExecutor(args.workers) as pool:
            games = list(pool.map(_play, jobs, chunksize=4))
    else:
        games = [_play(job) for job in jobs]
    print(
        f"seeds {args.seed}..{args.seed + args.seeds - 1}, rules {args.rules}, offline mind, shipped jury, "
        f"room gate {args.room_gate}"
    )
    head = (
        f"{'case / people':34s} {'games':>5s} {'rounds':>6s} {'mean':>6s} "
        f"{'turns':>5s} {'mean':>5s} {'<5':>6s} {'AI sp.':>7s}   g / ng / hung"
    )
    print(head)
    by: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for game in games:
        by[(game["case"], game["size"])].append(game)
    for slug in cases:
        for size in sizes:
            print(row(f"{slug[:26]} {size}", by[(slug, size)]))
    print()
    for name, group in (
        ("ambiguous", [c for c in cases if c not in CLEAR]),
        ("clear", [c for c in cases if c in CLEAR]),
    ):
        if not group:
            continue
        for size in sizes:
            print(row(f"{name} cases, {size} people", [g for g in games if g["case"] in group and g["size"] == size]))
        rooms = [g for g in games if g["case"] in group and 2 <= g["size"] <= 6]
        if rooms:
            print(row(f"{name} cases, rooms of 2-6", rooms))
    split = [g for g in games if g["size"] == 0 and g["first"]["guilty"] in (5, 6, 7)]
    if split:
        print(row("AI-only, first ballot 5-7 to 7-5", split))


if __name__ == "__main__":
    main()
