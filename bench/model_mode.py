"""Benchmark: model mode's prompt tokens, calls, client CPU and wall time against a counting server.

A counting OpenAI-compatible server runs in its own process on loopback (so its CPU is not the
client's): it counts every request's prompt tokens with LiteLLM's tokenizer, answers each kind of
call as a cooperative model would (a speech of about eighty words, the reactions JSON, the
minutes), optionally after a delay, and streams in chunks of ``--chunk`` characters. The client
is the real LiteLLM mind driven by the engine's real round loop (``run_round``).

It prints:
1. a 20-round deliberation: calls, prompt tokens per round, per speech (all calls included), per
   call kind, and calls per round; then (1b) prompt tokens per speech on each curated case;
2. client CPU per model call, unstreamed and streamed (small chunks), from ``getrusage``;
3. wall time of four-speaker rounds at ``--delay`` s per call against the model time on their
   critical path (the speakers at once, then the reactions), and the overhead.

Run: ``.venv/bin/python bench/model_mode.py [--case SLUG] [--rounds 20] [--delay 1.0] [--calls 40]``.
No Django, no network beyond loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from prompt_growth import load_case, load_jury  # noqa: E402

from deliberation.engine.ports import ReactionBatch, SummaryResult  # noqa: E402
from deliberation.engine.room_prompts import MINUTES_SYSTEM, REACT_SYSTEM  # noqa: E402
from deliberation.engine.rounds import run_round  # noqa: E402
from deliberation.engine.session import begin  # noqa: E402
from deliberation.engine.state import EngineSettings  # noqa: E402
from deliberation.engine.types import Speech  # noqa: E402
from deliberation.minds.offline.mind import OfflineMind  # noqa: E402
from deliberation.minds.stand_ins import argued_points  # noqa: E402

MODEL = "openai/bench-juror"
CURATED = tuple(sorted(path.stem for path in (ROOT / "cases" / "curated").glob("*.yaml")))
SPEECH_TARGET = 1135
PEER = {"prompt per speech": "5,675", "client CPU per call": "24 ms", "wall overhead at 1 s/call": "3-6%"}
SAYINGS = (
    "I keep coming back to {item}. {other}, you say it settles things, but I want us to look at it again,"
    " slowly, because a man's liberty rests on it. What exactly does it prove, and what does it leave open?"
    " If we cannot answer that plainly, we have no business voting on it yet. I am not there, not on this."
)


# ---- the server (its own process) ----------------------------------------------------------------


def spoken_items(case_slug: str) -> list[tuple[str, str]]:
    """The items a bench juror speaks about, as the case file names them (not as the index lays them
    out, so that the replies stay the same length whatever the index looks like)."""
    case = load_case(case_slug)
    items = [(item.id, item.label) for item in case.evidence]
    items += [(w.id, f"{w.name}, {w.role}" if w.role else w.name) for w in case.witnesses]
    return items or [("E1", "the evidence")]


def serve(
    delay: float, chunk: int, dump: str = "", case_slug: str = "kessler-market-robbery", timeline: str = ""
) -> None:
    import threading

    import litellm

    from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer

    def count(messages: list[dict[str, str]]) -> int:
        return int(litellm.token_counter(model="gpt-4o-mini", messages=messages))

    ids = spoken_items(case_slug)
    held = threading.local()  # this request's kind and arrival, for the timeline

    def answer(body: dict[str, Any]) -> Reply:
        received = getattr(held, "received", None) or time.monotonic()  # when the request reached us
        messages = body["messages"]
        system, last = str(messages[0]["content"]), str(messages[-1]["content"])
        held.kind = "react" if system == REACT_SYSTEM else "summary" if system == MINUTES_SYSTEM else "speak"
        held.received = received
        if system == REACT_SYSTEM:
            seats = re.findall(r"^juror_(\d+):", last, re.MULTILINE)
            speeches = len(re.findall(r"^\d+\. ", last, re.MULTILINE))
            text = json.dumps(
                {
                    f"juror_{s}": [
                        {"speech": n + 1, "impact": 0.15 if int(s) % 2 else -0.1, "thought": "fair point"}
                        for n in range(speeches)
                    ]
                    for s in seats
                }
            )
        elif system == MINUTES_SYSTEM:
            text = "• The room argued over the evidence.\n• Two jurors doubted the identification.\n• Nobody moved."
        else:
            name = re.search(r"YOUR TURN, (.+?)\.", last)
            item = ids[len(last) % len(ids)]
            said = SAYINGS.format(item=item[1].strip().lower(), other="Juror 3")
            who = name.group(1) if name else "A juror"
            text = (
                f"<SpeakingTo>everyone</SpeakingTo><ArgumentType>question</ArgumentType>"
                f"<Position>NOT GUILTY</Position><Reasoning>{who} is not sure.</Reasoning>"
                f"<Cites>{item[0]}</Cites><Content>{said}</Content>"
            )
        tokens = count(messages)
        if dump:
            with open(dump, "a", encoding="utf-8") as out:
                out.write(json.dumps({"prompt_tokens": tokens, "messages": messages}) + "\n")
        # Reading the request and counting it are the server's time (as a provider's latency holds its
        # own work): they come out of the delay, from the moment the request reached the server.
        spent = time.monotonic() - received
        return Reply(
            text=text, delay=max(0.0, delay - spent), chunk_size=chunk, prompt_tokens=tokens, completion_tokens=90
        )

    with ScriptedOpenAIServer() as server:
        server.responder = answer
        # A provider's server sends an answer at once: without this the test server's two writes (the
        # headers, then the body) wait on the client's delayed ACK, 40 ms a call on Linux.
        handler = server._httpd.RequestHandlerClass
        handler.disable_nagle_algorithm = True
        post = handler.do_POST

        def arrived(self) -> None:  # type: ignore[no-untyped-def]
            held.received = time.monotonic()
            try:
                post(self)
            finally:
                held.received = None

        handler.do_POST = arrived  # type: ignore[method-assign]
        if timeline:  # when each request arrived and when its answer left, on the machine's monotonic clock
            send = handler._send_bytes  # type: ignore[attr-defined]

            def sent(self, status: int, data: bytes, content_type: str) -> None:  # type: ignore[no-untyped-def]
                answered = time.monotonic()
                send(self, status, data, content_type)
                with open(timeline, "a", encoding="utf-8") as out:
                    out.write(f"{held.kind} {held.received:.6f} {answered:.6f}\n")

            handler._send_bytes = sent  # type: ignore[attr-defined]
        print(server.api_base, flush=True)
        sys.stdin.read()  # until the client closes our stdin


class Server:
    """The counting server in a child process: ``with Server(delay=1.0) as base: ...``."""

    def __init__(
        self,
        delay: float = 0.0,
        chunk: int = 400,
        dump: str = "",
        case: str = "kessler-market-robbery",
        timeline: str = "",
    ) -> None:
        self.args = [sys.executable, __file__, "--serve", "--delay", str(delay), "--chunk", str(chunk), "--case", case]
        if dump:
            self.args += ["--dump", dump]
        if timeline:
            self.args += ["--timeline", timeline]

    def __enter__(self) -> str:
        self.process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # kept-alive client connections can hold it open
            self.process.terminate()
            self.process.wait(timeout=5)


# ---- the client --------------------------------------------------------------------------------


@dataclass
class Recorder:
    """Wraps the LiteLLM mind and keeps every call's kind and usage."""

    inner: Any
    calls: list[tuple[int, str, int, int]] = field(default_factory=list)  # round, kind, prompt, cached
    concurrent: bool = True

    @property
    def name(self) -> str:
        return self.inner.name

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        speech: Speech = await self.inner.speak(request, on_text=on_text)
        self.calls.append((request.round_number, "speak", speech.usage.prompt_tokens, speech.usage.cached_tokens))
        return speech

    async def craft_argument(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        speech: Speech = await self.inner.craft_argument(request, on_text=on_text)
        self.calls.append((request.round_number, "craft", speech.usage.prompt_tokens, speech.usage.cached_tokens))
        return speech

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        batch: ReactionBatch = await self.inner.react_batch(request)
        self.calls.append((request.round_number, "react", batch.usage.prompt_tokens, batch.usage.cached_tokens))
        return batch

    async def summarize(self, request):  # type: ignore[no-untyped-def]
        result: SummaryResult = await self.inner.summarize(request)
        self.calls.append((request.round_number, "summary", result.usage.prompt_tokens, result.usage.cached_tokens))
        return result


def mind(base: str, timeout: float = 60.0):  # type: ignore[no-untyped-def]
    from deliberation.minds.litellm.mind import LiteLLMMind

    return LiteLLMMind(MODEL, api_base=base, api_key="sk-bench", timeout=timeout, retries=0)


async def deliberation(base: str, case_slug: str, rounds: int, seed: int) -> tuple[Recorder, int]:
    case, jury = load_case(case_slug), load_jury()
    recorder = Recorder(mind(base))
    state = begin(case=case, jury=jury, seed=seed, settings=EngineSettings(max_rounds=rounds, stability_rounds=99))
    speeches = 0
    while state.round_number < rounds:
        state.end_reason = None  # keep talking to the round limit: round 20 must exist to be measured
        result = await run_round(
            state, case=case, jury=jury, mind=recorder, fallback=OfflineMind(), reader=argued_points
        )
        speeches += len(result.speeches)
    return recorder, speeches


def report_tokens(recorder: Recorder, speeches: int, rounds: int) -> None:
    by_round: dict[int, list[tuple[int, str, int, int]]] = defaultdict(list)
    for call in recorder.calls:
        by_round[call[0]].append(call)
    print("round calls speeches prompt_tok per_speech react summary")
    for number in range(1, rounds + 1):
        calls = by_round[number]
        spoken = sum(1 for c in calls if c[1] in ("speak", "craft"))
        total = sum(c[2] for c in calls)
        react = sum(c[2] for c in calls if c[1] == "react")
        summ = sum(c[2] for c in calls if c[1] == "summary")
        per_speech = total / max(spoken, 1)
        print(f"{number:>5} {len(calls):>5} {spoken:>8} {total:>10} {per_speech:>10.0f} {react:>5} {summ or '':>7}")
    total = sum(c[2] for c in recorder.calls)
    kinds = defaultdict(list)
    for call in recorder.calls:
        kinds[call[1]].append(call[2])
    print(f"\n{rounds} rounds: {len(recorder.calls)} calls, {speeches} speeches, {total} prompt tokens in all")
    per_speech = total / max(speeches, 1)
    print(f"prompt tokens per speech, every call included: {per_speech:.0f} (peer {PEER['prompt per speech']})")
    for kind, tokens in sorted(kinds.items()):
        print(f"  {kind:<8} {len(tokens):>3} calls, {statistics.mean(tokens):>6.0f} prompt tokens per call")
    summary_rounds = {c[0] for c in recorder.calls if c[1] == "summary"}
    extra = {n: len(by_round[n]) - sum(1 for c in by_round[n] if c[1] in ("speak", "craft")) for n in by_round}
    plain = max(extra[n] for n in extra if n not in summary_rounds)
    with_summary = max((extra[n] for n in summary_rounds), default=0)
    more = with_summary - plain
    print(f"calls per round = speakers + {plain} (+ {more} on the summary rounds {sorted(summary_rounds)})")
    spoken = {n: [c[2] for c in by_round[n] if c[1] == "speak"] for n in (3, rounds)}
    if all(spoken.values()):
        ratio = statistics.mean(spoken[rounds]) / statistics.mean(spoken[3])
        print(f"speaking prompt, round {rounds} / round 3: {ratio:.2f}")
    print(f"cached prompt tokens reported: {sum(c[3] for c in recorder.calls)}")


def cpu_now() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def cpu_per_call(base: str, calls: int, streamed: bool) -> float:
    from tests.deliberation.minds.jury import JURY, speak_request, turn

    the_mind = mind(base)
    request = speak_request(JURY[0], (turn(1, 3, "The watch settles it."), turn(1, 5, "Think of his mother.")))
    sink = (lambda seat, chunk: None) if streamed else None
    await the_mind.speak(request, on_text=sink)  # warm
    started = cpu_now()
    for _ in range(calls):
        await the_mind.speak(request, on_text=sink)
    return (cpu_now() - started) / calls * 1000


@dataclass
class Timed:
    """Wraps a mind and keeps when the engine called it and when it answered (monotonic clock)."""

    inner: Any
    calls: list[tuple[str, float, float]] = field(default_factory=list)  # kind, called, returned
    concurrent: bool = True

    @property
    def name(self) -> str:
        return self.inner.name

    async def _timed(self, kind: str, call: Any) -> Any:
        called = time.monotonic()
        answer = await call
        self.calls.append((kind, called, time.monotonic()))
        return answer

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        return await self._timed("speak", self.inner.speak(request, on_text=on_text))

    async def craft_argument(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        return await self._timed("speak", self.inner.craft_argument(request, on_text=on_text))

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        return await self._timed("react", self.inner.react_batch(request))

    async def summarize(self, request):  # type: ignore[no-untyped-def]
        return await self._timed("summary", self.inner.summarize(request))


@dataclass
class Round:
    started: float
    ended: float
    cpu: float
    calls: list[tuple[str, float, float]]  # the client's side: kind, called, returned
    served: list[tuple[str, float, float]] = field(default_factory=list)  # the server's: kind, received, sent

    @property
    def wall(self) -> float:
        return self.ended - self.started


async def four_speaker_rounds(base: str, case_slug: str, rounds: int, delay: float) -> list[Round]:
    case, jury = load_case(case_slug), load_jury()
    settings = EngineSettings(min_speakers=4, max_speakers=4, stability_rounds=99, summary_interval=0)
    state = begin(case=case, jury=jury, seed=5, settings=settings)
    the_mind = Timed(mind(base, timeout=delay * 10 + 10))
    timed: list[Round] = []
    await the_mind.inner.speak(replace_request(case, jury))  # warm LiteLLM before anything is timed
    fallback = OfflineMind()
    for _ in range(rounds):
        state.end_reason = None
        the_mind.calls = []
        started, cpu = time.monotonic(), cpu_now()
        result = await run_round(state, case=case, jury=jury, mind=the_mind, fallback=fallback, reader=argued_points)
        timed.append(Round(started, time.monotonic(), cpu_now() - cpu, the_mind.calls))
        assert len(result.speeches) == 4 and result.usage.calls == 5, (len(result.speeches), result.usage.calls)
    return timed


STAGES = (
    ("before the first call (plan, requests, passages)", "prep"),
    ("the speakers' calls leave one after another", "spread"),
    ("a speech call: engine -> server (prompt, HTTP send)", "send1"),
    ("a speech call: server held it beyond the delay", "hold1"),
    ("a speech call: server -> engine (HTTP, parse)", "back1"),
    ("between the last speech and the reaction call", "between"),
    ("the reaction call: engine -> server", "send2"),
    ("the reaction call: server held it beyond the delay", "hold2"),
    ("the reaction call: server -> engine (HTTP, parse)", "back2"),
    ("after the reactions (apply, memory, rules, ending)", "after"),
)


def breakdown(one: Round, delay: float) -> dict[str, float]:
    """The round's wall time on its critical path, stage by stage (seconds; sums to the wall time
    less the model's delay twice)."""
    speeches = sorted((c for c in one.calls if c[0] == "speak"), key=lambda c: c[2])
    react = next(c for c in one.calls if c[0] == "react")
    served_speeches = sorted((s for s in one.served if s[0] == "speak"), key=lambda s: s[2])
    served_react = next(s for s in one.served if s[0] == "react")
    last, last_served = speeches[-1], served_speeches[-1]  # the speech the reaction call waited for
    first_called = min(c[1] for c in speeches)
    return {
        "prep": first_called - one.started,
        "spread": last[1] - first_called,
        "send1": last_served[1] - last[1],
        "hold1": last_served[2] - last_served[1] - delay,
        "back1": last[2] - last_served[2],
        "between": react[1] - last[2],
        "send2": served_react[1] - react[1],
        "hold2": served_react[2] - served_react[1] - delay,
        "back2": react[2] - served_react[2],
        "after": one.ended - react[2],
    }


def replace_request(case, jury):  # type: ignore[no-untyped-def]
    from deliberation.engine.ports import JurorOutlook, SpeakRequest

    outlook = JurorOutlook(conviction=0.5, vote="guilty")
    return SpeakRequest(
        juror=jury[0], outlook=outlook, case=case, recent=(), passages=(), round_number=1,
        tally={"guilty": 6, "not_guilty": 6}, jury=jury,
    )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--case", default="kessler-market-robbery", help="the case of the detailed runs")
    parser.add_argument("--cases", default="all", help="part 1b: 'all' curated cases, a comma list, or '' for none")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--chunk", type=int, default=400)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--wall-rounds", type=int, default=5)
    parser.add_argument("--parts", default="123", help="which parts to run: 1 tokens, 2 CPU, 3 wall")
    parser.add_argument("--timeline", default="", help=argparse.SUPPRESS)  # the server's side of part 3
    parser.add_argument("--dump", default="", help="write every prompt of the 20-round run to this JSON-lines file")
    args = parser.parse_args()
    if args.serve:
        serve(args.delay, args.chunk, args.dump, args.case, args.timeline)
        return 0

    print("load average at start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    if "1" in args.parts:
        tokens_and_calls(args)
    if "2" in args.parts:
        client_cpu(args)
    if "3" in args.parts:
        wall_time(args)
    print("load average at end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


def tokens_and_calls(args: argparse.Namespace) -> None:
    print(f"# 1. tokens and calls: a {args.rounds}-round deliberation on {args.case}")
    if args.dump:
        Path(args.dump).unlink(missing_ok=True)
    with Server(dump=args.dump, case=args.case) as base:
        recorder, speeches = asyncio.run(deliberation(base, args.case, args.rounds, args.seed))
    report_tokens(recorder, speeches, args.rounds)
    slugs = CURATED if args.cases == "all" else tuple(s for s in args.cases.split(",") if s)
    if not slugs:
        return
    print(f"\n# 1b. prompt tokens per speech, every call included, on each curated case (seed {args.seed})")
    print(f"{'case':<30} {'speeches':>8} {'calls':>5} {'per speech':>10} {'speak':>6} {'react':>6} {'summary':>7}")
    for slug in slugs:
        if slug == args.case:
            found = recorder, speeches
        else:
            with Server(case=slug) as base:
                found = asyncio.run(deliberation(base, slug, args.rounds, args.seed))
        print(case_line(slug, *found))
    print(f"target: at most {SPEECH_TARGET:,} prompt tokens a speech on every case (a fifth of the peer's 5,675)")


def case_line(slug: str, recorder: Recorder, speeches: int) -> str:
    kinds: dict[str, list[int]] = defaultdict(list)
    for call in recorder.calls:
        kinds[call[1]].append(call[2])
    per_speech = sum(c[2] for c in recorder.calls) / max(speeches, 1)
    means = [f"{statistics.mean(kinds[k]):.0f}" if kinds[k] else "-" for k in ("speak", "react", "summary")]
    flag = "" if per_speech <= SPEECH_TARGET else "  OVER"
    counts = f"{speeches:>8} {len(recorder.calls):>5} {per_speech:>10.0f}"
    return f"{slug:<30} {counts} {means[0]:>6} {means[1]:>6} {means[2]:>7}{flag}"


def client_cpu(args: argparse.Namespace) -> None:
    print("\n# 2. client CPU per model call (speech calls, server in another process)")
    with Server(chunk=4) as base:
        plain = asyncio.run(cpu_per_call(base, args.calls, streamed=False))
        streamed = asyncio.run(cpu_per_call(base, args.calls, streamed=True))
    peer = PEER["client CPU per call"]
    print(f"unstreamed {plain:.1f} ms, streamed in 4-character chunks {streamed:.1f} ms (peer {peer})")


def wall_time(args: argparse.Namespace) -> None:
    print(f"\n# 3. wall time: four-speaker rounds at {args.delay:g} s per call")
    timeline = Path(f"/tmp/model_mode_timeline_{os.getpid()}.txt")
    timeline.unlink(missing_ok=True)
    with Server(delay=args.delay, case=args.case, timeline=str(timeline)) as base:
        rounds = asyncio.run(four_speaker_rounds(base, args.case, args.wall_rounds, args.delay))
    served = [(kind, float(a), float(b)) for kind, a, b in (line.split() for line in timeline.read_text().splitlines())]
    timeline.unlink(missing_ok=True)
    for one in rounds:
        one.served = [s for s in served if one.started <= s[1] <= one.ended]
    critical = 2 * args.delay  # the four speakers at once, then the reactions
    walls = [one.wall for one in rounds]
    wall, cpu = statistics.mean(walls), statistics.mean(one.cpu for one in rounds)
    print("round wall times: " + ", ".join(f"{w:.2f} s" for w in walls))
    overhead = (wall - critical) / critical * 100
    print(f"model time on the critical path {critical:.1f} s; mean wall {wall:.2f} s;"
          f" overhead {overhead:.1f}% (peer {PEER['wall overhead at 1 s/call']})")  # fmt: skip
    print(f"extra wall per round {(wall - critical) * 1000:.0f} ms = {(wall - critical) * 1000 / 5:.0f} ms a call;"
          f" client CPU per round {cpu * 1000:.0f} ms = {cpu * 1000 / 5:.1f} ms a call,"
          f" {cpu / critical * 100:.1f}% of the model time on the critical path")  # fmt: skip
    stages = [breakdown(one, args.delay) for one in rounds]
    print("where the extra wall goes, on the critical path (ms, mean and max over the rounds):")
    for label, key in STAGES:
        values = [stage[key] * 1000 for stage in stages]
        print(f"  {label:<52} {statistics.mean(values):>7.1f} {max(values):>7.1f}")
    print(f"  {'in all':<52} {statistics.mean(sum(s.values()) for s in stages) * 1000:>7.1f}")


if __name__ == "__main__":
    raise SystemExit(main())
