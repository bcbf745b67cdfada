"""Benchmark: the prompt tokens of each context scope over a 20-round deliberation.

For each scope (``engine.formats``) the same seeded deliberation is run with the counting mind of
``bench/prompt_growth.py``: every call's real prompt is built with ``deliberation.engine.prompts``
(what the LiteLLM mind would send) and counted with LiteLLM's tokenizer, while the offline engine
answers. Printed per scope: the speaker prompt at rounds 3, 10 and 20, its mean, the speaker
prompts' total, and the total of all calls (reactions and minutes included).

Run: ``.venv/bin/python bench/context_scopes.py [--case SLUG] [--seed N] [--rounds N] [--last-n N]``.
No Django, no network.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prompt_growth import CountingMind, load_case, load_jury, token_counter

from deliberation.engine.formats import CONTEXT_SCOPES
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points


async def measure(scope: str, case_slug: str, seed: int, rounds: int, last_n: int) -> CountingMind:
    case, jury = load_case(case_slug), load_jury()
    mind = CountingMind(OfflineMind(), token_counter())
    settings = EngineSettings(max_rounds=rounds, stability_rounds=rounds + 1, context_scope=scope, last_n=last_n)
    state = begin(case=case, jury=jury, seed=seed, settings=settings)
    while state.round_number < rounds:
        state.end_reason = ""  # keep talking to the limit so every round exists to be measured
        await run_round(state, case=case, jury=jury, mind=mind, fallback=mind.inner, reader=argued_points)
    return mind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="kessler-market-robbery")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--last-n", type=int, default=6)
    args = parser.parse_args()
    print(f"case {args.case}, seed {args.seed}, {args.rounds} rounds, last-n = {args.last_n}")
    header = f"{'scope':<20} {'r3':>6} {'r10':>6} {'r20':>6} {'mean':>6} {'speak total':>12} {'all calls':>10}"
    print(header)
    for scope in CONTEXT_SCOPES:
        mind = asyncio.run(measure(scope, args.case, args.seed, args.rounds, args.last_n))
        speaks = [c for c in mind.calls if c.kind == "speak"]

        def at(number: int, speaks: list = speaks) -> float:
            tokens = [c.prompt_tokens for c in speaks if c.round_number == number]
            return statistics.mean(tokens) if tokens else 0.0

        total = sum(c.prompt_tokens for c in speaks)
        every = sum(c.prompt_tokens for c in mind.calls)
        mean = statistics.mean(c.prompt_tokens for c in speaks)
        print(f"{scope:<20} {at(3):>6.0f} {at(10):>6.0f} {at(args.rounds):>6.0f} {mean:>6.0f} {total:>12} {every:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
