"""Benchmark (a): model calls and prompt tokens per round over a 20-round deliberation.

A "counting mind" wraps the offline engine: for every call the engine makes it builds the real
prompt with ``deliberation.engine.prompts`` (exactly what the LiteLLM mind would send), counts its
tokens with LiteLLM's tokenizer, and lets the offline engine answer so the deliberation unfolds as
it would. The engine's own round loop (``deliberation.engine.rounds.run_round``) drives it.

The claim under test: the prompt does not grow with the deliberation, because only the memory
window and the rolling summary go in. Round 20's speaker prompt is at most 1.25 x round 3's.

Run: ``.venv/bin/python bench/prompt_growth.py [--case SLUG] [--seed N] [--rounds N]``.
No Django, no network: the case and the jury are read from the shipped YAML files.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import yaml  # noqa: E402

from deliberation.engine.ports import (  # noqa: E402
    CraftRequest,
    Message,
    Mind,
    ReactionBatch,
    ReactRequest,
    SpeakRequest,
    SummarizeRequest,
    SummaryResult,
    TextSink,
)
from deliberation.engine.prompts import (  # noqa: E402
    build_craft_messages,
    build_react_messages,
    build_speak_messages,
    build_summarize_messages,
)
from deliberation.engine.rounds import run_round  # noqa: E402
from deliberation.engine.session import begin  # noqa: E402
from deliberation.engine.state import EngineSettings  # noqa: E402
from deliberation.engine.types import (  # noqa: E402
    CaseFile,
    DefendantInfo,
    EvidenceItem,
    JurorProfile,
    Speech,
    WitnessItem,
)
from deliberation.minds.offline.mind import OfflineMind  # noqa: E402
from deliberation.minds.stand_ins import argued_points  # noqa: E402

MAX_GROWTH = 1.25
COLUMNS = (("round", 5), ("calls", 5), ("engine", 6), ("prompt tok", 10), ("per call", 8), ("speak avg", 9))
COLUMNS += (("react", 6), ("summ", 6))
TOKENIZER_MODEL = "gpt-4o-mini"  # any model whose tokenizer LiteLLM ships works for a count


def load_case(slug: str) -> CaseFile:
    data = yaml.safe_load((ROOT / "cases" / "curated" / f"{slug}.yaml").read_text(encoding="utf-8"))
    evidence = tuple(
        EvidenceItem(
            id=f"E{n}",
            label=item["label"],
            type=item.get("type", "physical"),
            description=item.get("description", ""),
            strength_prosecution=float(item.get("strength_prosecution", 0.5)),
            strength_defense=float(item.get("strength_defense", 0.5)),
            contestable=bool(item.get("contestable", False)),
            contest_reason=item.get("contest_reason", "") or "",
        )
        for n, item in enumerate(data.get("evidence", []), start=1)
    )
    witnesses = tuple(
        WitnessItem(
            id=f"W{n}",
            name=item["name"],
            role=item.get("role", ""),
            testimony=item.get("testimony_summary", ""),
            credibility_issues=tuple(item.get("credibility_issues", []) or ()),
            side=item.get("side", "neutral"),
        )
        for n, item in enumerate(data.get("witnesses", []), start=1)
    )
    defendants = tuple(
        DefendantInfo(
            name=d["name"], gender=d.get("gender", "unknown"), age=d.get("age"), description=d.get("description", "")
        )
        for d in data.get("defendants", [])
    )
    # Only the fields the jury may know: the YAML's historical verdict and punishment stay behind.
    return CaseFile(
        slug=data["slug"],
        title=data["title"],
        summary=data["summary"],
        charges=tuple(data.get("charges", [])),
        defendants=defendants,
        evidence=evidence,
        witnesses=witnesses,
        prosecution_arguments=tuple(data.get("prosecution_arguments", [])),
        defense_arguments=tuple(data.get("defense_arguments", [])),
        themes=tuple(data.get("themes", [])),
        year=data.get("year"),
        jurisdiction=data.get("jurisdiction", ""),
    )


def load_jury() -> tuple[JurorProfile, ...]:
    data = yaml.safe_load((ROOT / "jurors" / "data" / "jurors.yaml").read_text(encoding="utf-8"))
    modifiers = {a["slug"]: dict(a["modifiers"]) for a in data["archetypes"]}
    return tuple(
        JurorProfile(
            seat=p["seat_number"],
            name=p["name"],
            emoji=p.get("emoji", ""),
            archetype=p["archetype"],
            modifiers=modifiers.get(p["archetype"], {}),
            personality=p.get("personality_prompt", ""),
            stubbornness=float(p["stubbornness"]),
            volatility=float(p["volatility"]),
            influence=float(p["influence"]),
            verbosity=float(p.get("verbosity", 0.5)),
            initial_lean=p.get("initial_lean", "neutral"),
        )
        for p in sorted(data["personas"], key=lambda p: p["seat_number"])
    )


def token_counter() -> Callable[[list[Message]], int]:
    """LiteLLM's tokenizer when it loads here, else words x 1.3 (a rough English average)."""
    try:
        import litellm

        litellm.token_counter(model=TOKENIZER_MODEL, messages=[{"role": "user", "content": "probe"}])
    except Exception:  # no tokenizer available: approximate
        return lambda messages: int(sum(len(m["content"].split()) for m in messages) * 1.3)
    return lambda messages: int(litellm.token_counter(model=TOKENIZER_MODEL, messages=messages))


@dataclass(frozen=True)
class Call:
    round_number: int
    kind: str  # speak | craft | react | summarize
    prompt_tokens: int


class CountingMind:
    """Builds and counts the real prompt of every call; the offline engine answers it."""

    name = "counting"

    def __init__(self, inner: Mind, count: Callable[[list[Message]], int]) -> None:
        self.inner = inner
        self.count = count
        self.calls: list[Call] = []
        self.round_number = 0  # react requests carry it; speak and craft requests do too

    def _record(self, round_number: int, kind: str, messages: list[Message]) -> int:
        tokens = self.count(messages)
        self.calls.append(Call(round_number, kind, tokens))
        return tokens

    async def speak(self, request: SpeakRequest, *, on_text: TextSink | None = None) -> Speech:
        tokens = self._record(request.round_number, "speak", build_speak_messages(request))
        speech = await self.inner.speak(request, on_text=on_text)
        return dataclasses.replace(speech, usage=dataclasses.replace(speech.usage, prompt_tokens=tokens))

    async def craft_argument(self, request: CraftRequest, *, on_text: TextSink | None = None) -> Speech:
        tokens = self._record(request.round_number, "craft", build_craft_messages(request))
        speech = await self.inner.craft_argument(request, on_text=on_text)
        return dataclasses.replace(speech, usage=dataclasses.replace(speech.usage, prompt_tokens=tokens))

    async def react_batch(self, request: ReactRequest) -> ReactionBatch:
        # The LiteLLM mind asks the model about the active listeners only (the rest: the heuristic).
        active = tuple(listener for listener in request.listeners if listener.active) or request.listeners
        tokens = self._record(
            request.round_number, "react", build_react_messages(dataclasses.replace(request, listeners=active))
        )
        batch = await self.inner.react_batch(request)
        return ReactionBatch(reactions=batch.reactions, usage=dataclasses.replace(batch.usage, prompt_tokens=tokens))

    async def summarize(self, request: SummarizeRequest) -> SummaryResult:
        tokens = self._record(request.round_number, "summarize", build_summarize_messages(request))
        result = await self.inner.summarize(request)
        return SummaryResult(summaries=result.summaries, usage=dataclasses.replace(result.usage, prompt_tokens=tokens))


async def run(case_slug: str, seed: int, rounds: int) -> tuple[CountingMind, list[dict[str, Any]], list[str]]:
    case, jury = load_case(case_slug), load_jury()
    mind = CountingMind(OfflineMind(), token_counter())
    # The room is kept talking to the round limit so that round 20 exists to be measured: the
    # stability rule is pushed past the limit, and an early unanimity is noted and set aside.
    settings = EngineSettings(max_rounds=rounds, stability_rounds=rounds + 1)
    state = begin(case=case, jury=jury, seed=seed, settings=settings)
    engine_rows: list[dict[str, Any]] = []
    notes: list[str] = []
    while state.round_number < rounds:
        if state.end_reason:
            notes.append(f"ended '{state.end_reason}' after round {state.round_number}; kept talking for the measure")
            state.end_reason = None
        result = await run_round(state, case=case, jury=jury, mind=mind, fallback=mind.inner, reader=argued_points)
        engine_rows.append(
            {"round": result.round_number, "calls": result.usage.calls, "speeches": len(result.speeches)}
        )
    return mind, engine_rows, notes


def report(mind: CountingMind, engine_rows: list[dict[str, Any]], rounds: int) -> dict[int, float]:
    by_round: dict[int, list[Call]] = defaultdict(list)
    for call in mind.calls:
        by_round[call.round_number].append(call)
    print(" ".join(f"{title:>{width}}" for title, width in COLUMNS))
    speak_avg: dict[int, float] = {}
    for row in engine_rows:
        number = row["round"]
        calls = by_round[number]
        speaks = [c.prompt_tokens for c in calls if c.kind in ("speak", "craft")]
        react = sum(c.prompt_tokens for c in calls if c.kind == "react")
        summ = sum(c.prompt_tokens for c in calls if c.kind == "summarize")
        total = sum(c.prompt_tokens for c in calls)
        speak_avg[number] = statistics.mean(speaks) if speaks else 0.0
        print(
            f"{number:>5} {len(calls):>5} {row['calls']:>6} {total:>10} {total / max(len(calls), 1):>8.0f}"
            f" {speak_avg[number]:>9.0f} {react:>6} {summ or '':>6}"
        )
    return speak_avg


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="kessler-market-robbery")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    mind, engine_rows, notes = asyncio.run(run(args.case, args.seed, args.rounds))
    speak_avg = report(mind, engine_rows, args.rounds)
    for note in notes:
        print(f"note: {note}")
    first, last = speak_avg.get(3, 0.0), speak_avg.get(args.rounds, 0.0)
    ratio = last / first if first else float("inf")
    total_calls = len(mind.calls)
    total_tokens = sum(c.prompt_tokens for c in mind.calls)
    speeches = sum(row["speeches"] for row in engine_rows)
    print(f"\ncase {args.case}, seed {args.seed}: {total_calls} model calls, {total_tokens} prompt tokens in all")
    print(f"{speeches} speeches: {total_tokens / max(speeches, 1):.0f} prompt tokens per speech, all calls included")
    print(f"speaker prompt: round 3 {first:.0f} tokens, round {args.rounds} {last:.0f} tokens, ratio {ratio:.2f}")
    verdict = "OK" if ratio <= MAX_GROWTH else "FAIL"
    print(
        f"{verdict}: round {args.rounds} is {'at most' if ratio <= MAX_GROWTH else 'more than'} {MAX_GROWTH} x round 3"
    )
    return 0 if ratio <= MAX_GROWTH else 1


if __name__ == "__main__":
    raise SystemExit(main())
