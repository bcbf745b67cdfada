"""How the offline jurors' words read over whole games: what is said again, and how long each persona speaks.

Run: .venv/bin/python bench/speech_variety.py [--seeds N] [--trials N] [--long-seeds N] [--held-out]
     [--print-game CASE:SEED]

Plays AI-only offline games on the pure engine (no database): the five curated cases, each over N
seeds, to their verdict; the same cases held apart for the whole round limit (``--long-seeds``
seeds each: a person holding out who never speaks, a foreperson's summary every two rounds), where
a game is long enough to repeat itself; and the first ``--trials`` dev Old Bailey trials
(``bench/oldbailey_split.py``), one seed each (cycling the seeds). The held-out sessions are played
only with ``--held-out`` and reported apart, at the end: rules of speech are never tuned on them.
Per set it prints:

* cross-juror 8-grams: of the distinct eight-word sequences a game's jurors say, the share said by
  more than one juror;
* 8-grams said again: of all eight-word sequences said, the share that had been said before in the
  game (by anyone, the speaker included);
* repeated sentences: of the sentences of six or more words, the share said before in the game;
* persona-line repeats: per game, the uses of a persona's fixed lines (closers, echoes, presses)
  beyond the first;
* foreperson summaries that list a point twice, points that are fragments ("the prosecutor is
  the only", "the it may have been", a label cut off), and the share of points the foreperson
  names a raiser for ("Frank Russo raised the receipt"), and the share it names only a juror who
  answered ("the alibi came up when Ann Lee answered it": the first to name it argued the other way);
* words against the speaker's vote: the share of speeches whose words go against the vote the
  speaker held as it spoke, unexplained (no devil's advocacy, no "that convinced me", no "moved me
  towards"): the side it argues is not its vote, or the offline reading hears the whole speech push
  the other way;
* mean words per speech for each persona.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")

import yaml  # noqa: E402

from deliberation.engine.session import begin, run_to_end  # noqa: E402
from deliberation.engine.state import EngineSettings  # noqa: E402
from deliberation.engine.types import CaseFile, DefendantInfo  # noqa: E402
from deliberation.minds.offline.mind import OfflineMind  # noqa: E402
from deliberation.minds.offline.reading import read  # noqa: E402
from deliberation.minds.offline.text import ends_dangling, split_sentences  # noqa: E402
from deliberation.minds.stand_ins import argued_points  # noqa: E402

CURATED = (
    "alder-street-hit-and-run",
    "copper-kettle-fire",
    "kessler-market-robbery",
    "pruitt-basement-killing",
    "route-nine-fuel-stop-murder",
)
GRAM = 8
AGAINST = 0.05  # the offline reading's push the other way past which a speech argues against its speaker's vote
LONG_SENTENCE = 6
WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
POINTS = re.compile(r"(?:For guilt|Against it), (.+?)(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bSt)\.(?= [A-Z]|$)")
RAISED = re.compile(
    r"^(?P<who>.+?) raised (?P<points>.+)$|^(?P<also>.+) came up as well$"
    r"|^(?P<answered>.+) came up when (?P<answerer>.+?) answered (?:it|them)$"
)
# A juror arguing against its own vote says why: devil's advocacy, won over, going along, wavering.
SAYS_WHY = re.compile(
    r"devil's advocate|other side|argue against|let it be me|changed my mind|turns me around|come round"
    r"|convinced me|I agree\.|go along|holding things up|I can see why|moved me towards",
    re.I,
)
STARTS_CUT = re.compile(r"^the (it|a|an|the|he|she|they|his|her|its|this|that|these|those)\b", re.I)


def curated_case(slug: str) -> CaseFile:
    """A curated case as the application builds it (``cases.casefile``): summary testimony for the jury,
    the witness's own words for the stand (the benches' shared loader, plus those words)."""
    from prompt_growth import load_case

    case = load_case(slug)
    data = yaml.safe_load((ROOT / "cases" / "curated" / f"{slug}.yaml").read_text(encoding="utf-8"))
    own = [item.get("testimony", "") or "" for item in data.get("witnesses", [])]
    return replace(
        case, witnesses=tuple(replace(w, first_person=words) for w, words in zip(case.witnesses, own, strict=True))
    )


def old_bailey(split: str, count: int) -> Iterator[tuple[str, CaseFile]]:
    """The first ``count`` playable trials of ``split``, with their defendants (the imported case has them)."""
    from oldbailey_split import playable_trials

    for n, trial in enumerate(playable_trials((split,))):
        if n >= count:
            return
        defendants = tuple(DefendantInfo(name=d.name, gender=d.gender, age=d.age) for d in trial.record.defendants)
        yield trial.record.slug, replace(trial.file, defendants=defendants)


def shipped_jury() -> tuple[Any, ...]:
    from prompt_growth import load_jury

    return tuple(replace(j, kind="ai") for j in load_jury())


@dataclass
class Game:
    name: str
    seed: int
    speeches: list[tuple[str, str, str]]  # (speaker, archetype, words)
    summaries: list[str]
    case: CaseFile
    rounds: int = 0
    verdict: str = ""
    sides: list[tuple[str, str, str]] = field(default_factory=list)  # (vote as it spoke, side argued, words)


class VoteKeepingMind(OfflineMind):
    """The offline mind, noting each speaker's vote as it speaks."""

    def __init__(self) -> None:
        self.votes: list[str] = []

    async def speak(self, request: Any, *, on_text: Any = None) -> Any:
        self.votes.append("guilty" if request.outlook.vote == "guilty" else "not_guilty")
        return await super().speak(request, on_text=on_text)


def play(name: str, case: CaseFile, seed: int, jury: tuple[Any, ...], *, long: bool = False) -> Game:
    """One AI-only game to its verdict; ``long``: held apart for the whole round limit (seat 2 a person
    holding out who never speaks, no end on stable votes) with a summary every two rounds."""
    if long:
        jury = tuple(replace(j, kind="human") if j.seat == 2 else j for j in jury)
        settings = EngineSettings(stability_rounds=99, foreperson_summary_every=2)
        state = begin(case=case, jury=jury, seed=seed, settings=settings)
        state.votes[2] = state.memories[2].vote = "not_guilty"
    else:
        state = begin(case=case, jury=jury, seed=seed)
    mind = VoteKeepingMind()
    results = asyncio.run(
        run_to_end(state, case=case, jury=list(jury), mind=mind, fallback=OfflineMind(), reader=argued_points)
    )
    archetypes = {j.seat: j.archetype for j in jury}
    speeches = [(s.speaker_name, archetypes[s.seat], s.content) for r in results for s in r.speeches]
    summaries = [
        line.content
        for r in results
        for line in r.process_lines
        if line.kind == "process" and ("For guilt, " in line.content or "Against it, " in line.content)
    ]
    said = [s for r in results for s in r.speeches]
    sides = [(vote, s.position or vote, s.content) for vote, s in zip(mind.votes, said, strict=True)]
    return Game(name, seed, speeches, summaries, case, state.round_number, state.verdict, sides)


def words(text: str) -> list[str]:
    return WORD.findall(text.lower().replace("’", "'"))


def grams(text: str) -> list[tuple[str, ...]]:
    w = words(text)
    return [tuple(w[i : i + GRAM]) for i in range(len(w) - GRAM + 1)]


def persona_lines(case: CaseFile) -> list[str]:
    """The fixed lines of the personas (closers, echoes, presses, withdrawals), as said in this case."""
    from deliberation.minds.offline import archetypes, reflection, voices

    defendant = case.defendants[0].name if case.defendants else "the defendant"
    lines: list[str] = []
    for table in (voices.CLOSE_GUILTY, voices.CLOSE_NOT_GUILTY):
        for options in table.values():
            lines += [o.replace("{defendant}", defendant) for o in options]
    lines += list(getattr(archetypes, "ECHO_SPEAKER", ())) + list(getattr(archetypes, "OWN_TURN", ()))
    lines += list(getattr(archetypes, "PRESS_VOTE", ())) + list(getattr(reflection, "WITHDRAW_LINES", ()))
    return [line for line in lines if "{" not in line]


def summary_points(summary: str, case: CaseFile | None = None) -> list[list[str]]:
    """The points of each list of a summary (for guilt, against it), split as ``join_names`` joined them
    (an item whose own name holds "and", "the 911 call and timing", is kept whole), without who raised
    them."""
    return [[point for _, point in raised] for raised in raised_points(summary, case)]


def raised_points(summary: str, case: CaseFile | None = None) -> list[list[tuple[str, str]]]:
    """Each list of a summary as (who raised it, "" when the foreperson names nobody; the point)."""
    from deliberation.minds.offline.naming import item_name_of

    whole = [item_name_of(e.label, case).text for e in (case.evidence if case else ()) if " and " in e.label]
    lists = []
    for match in POINTS.finditer(summary):
        found: list[tuple[str, str]] = []
        for clause in match.group(1).split("; "):
            parts = RAISED.match(clause)
            who, text = (
                (
                    parts.group("who") or (f"~{parts.group('answerer')}" if parts.group("answerer") else ""),
                    parts.group("points") or parts.group("also") or parts.group("answered"),
                )
                if parts
                else ("", clause)
            )
            for name in whole:
                text = re.sub(re.escape(name), lambda m: m.group(0).replace(" and ", " & "), text, flags=re.I)
            head, _, last = text.rpartition(" and ")
            items = [p.strip() for p in head.split(", ")] + [last.strip()] if head else [text.strip()]
            found.extend((who, p.replace(" & ", " and ")) for p in items)
        lists.append(found)
    return lists


def is_fragment(point: str, case: CaseFile) -> bool:
    """A point cut off mid-clause: dangling, "the it ...", or a label's head without its end."""
    text = point.strip()
    if not text or ends_dangling(text) or STARTS_CUT.match(text):
        return True
    bare = re.sub(r"^(the|a|an) ", "", text.lower())
    for label in [e.label for e in case.evidence]:
        low = re.sub(r"^(the|a|an) ", "", label.lower())
        if low != bare and low.startswith(bare + " ") and not low[len(bare) :].startswith(" ("):
            return True
    return False


@dataclass
class Tally:
    games: int = 0
    distinct: int = 0
    cross: int = 0
    said: int = 0
    again: int = 0
    sentences: int = 0
    repeated_sentences: int = 0
    persona_repeats: list[int] = field(default_factory=list)
    summaries: int = 0
    duplicate_summaries: int = 0
    points: int = 0
    named: int = 0
    answered: int = 0
    fragments: int = 0
    fragment_examples: list[str] = field(default_factory=list)
    duplicate_examples: list[str] = field(default_factory=list)
    sentence_examples: Counter[str] = field(default_factory=Counter)
    lengths: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    rounds: list[int] = field(default_factory=list)
    spoken: int = 0
    against_vote: int = 0

    def add(self, game: Game) -> None:
        self.games += 1
        for vote, side, text in game.sides:
            self.spoken += 1
            towards = 1 if vote == "guilty" else -1
            unexplained = not SAYS_WHY.search(text)
            self.against_vote += unexplained and (side != vote or read(game.case, text).push * towards < -AGAINST)
        self.rounds.append(game.rounds)
        by: dict[tuple[str, ...], set[str]] = defaultdict(set)
        seen_grams: set[tuple[str, ...]] = set()
        seen_sentences: set[str] = set()
        for speaker, archetype, text in game.speeches:
            self.lengths[archetype].append(len(words(text)))
            for gram in grams(text):
                by[gram].add(speaker)
                self.said += 1
                self.again += gram in seen_grams
                seen_grams.add(gram)
            for sentence in split_sentences(text):
                key = " ".join(words(sentence))
                if len(key.split()) < LONG_SENTENCE:
                    continue
                self.sentences += 1
                if key in seen_sentences:
                    self.repeated_sentences += 1
                    self.sentence_examples[sentence] += 1
                seen_sentences.add(key)
        self.distinct += len(by)
        self.cross += sum(1 for speakers in by.values() if len(speakers) > 1)
        text = "\n".join(t for _, _, t in game.speeches)
        uses = [text.count(line) for line in persona_lines(game.case)]
        self.persona_repeats.append(sum(max(0, n - 1) for n in uses))
        for summary in game.summaries:
            self.summaries += 1
            lists = summary_points(summary, game.case)
            whos = [who for raised in raised_points(summary, game.case) for who, _ in raised]
            self.named += sum(1 for who in whos if who and not who.startswith("~"))
            self.answered += sum(1 for who in whos if who.startswith("~"))
            flat = [p.lower() for points in lists for p in points]
            if len(flat) != len(set(flat)):
                self.duplicate_summaries += 1
                if len(self.duplicate_examples) < 3:
                    self.duplicate_examples.append(summary)
            for point in (p for points in lists for p in points):
                self.points += 1
                if is_fragment(point, game.case):
                    self.fragments += 1
                    if len(self.fragment_examples) < 6:
                        self.fragment_examples.append(point)

    def report(self, title: str) -> None:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.1f}%" if b else "n/a"

        print(f"\n== {title}: {self.games} games, mean {statistics.mean(self.rounds or [0]):.1f} rounds ==")
        print(f"cross-juror 8-grams (distinct, said by 2+ jurors): {pct(self.cross, self.distinct)}  (target < 3%)")
        print(f"8-grams said again (by anyone):                     {pct(self.again, self.said)}")
        print(
            f"sentences of {LONG_SENTENCE}+ words said again:              "
            f"{pct(self.repeated_sentences, self.sentences)} of {self.sentences}  (target < 1%)"
        )
        per_game = statistics.mean(self.persona_repeats or [0])
        print(f"persona-line repeats per game:                      {per_game:.2f} (total {sum(self.persona_repeats)})")
        print(
            f"foreperson summaries listing a point twice:         {self.duplicate_summaries} of {self.summaries}"
            "  (target 0)"
        )
        print(f"fragment points in summaries:                       {self.fragments} of {self.points}")
        print(f"summary points naming who raised them:              {pct(self.named, self.points)}")
        print(f"summary points naming only a juror who answered them: {pct(self.answered, self.points)}")
        print(f"speeches whose words go against the speaker's vote:  {pct(self.against_vote, self.spoken)}")
        for example in self.fragment_examples:
            print(f"    fragment: {example!r}")
        for example in self.duplicate_examples[:2]:
            print(f"    duplicate: {example[:300]}")
        for sentence, count in self.sentence_examples.most_common(5):
            print(f"    repeated x{count}: {sentence[:140]}")
        print("mean words per speech by persona:")
        for archetype, counts in sorted(self.lengths.items(), key=lambda kv: statistics.mean(kv[1])):
            print(f"    {archetype:16s} {statistics.mean(counts):5.1f}  ({len(counts)} speeches)")


def print_game(spec: str, jury: tuple[Any, ...]) -> None:
    name, _, seed = spec.rpartition(":")
    case = curated_case(name) if name in CURATED else next(c for n, c in old_bailey("dev", 10**6) if n == name)
    game = play(name, case, int(seed), jury)
    for speaker, _, text in game.speeches:
        print(f"[{speaker}] {text}\n")
    for summary in game.summaries:
        print(f"  <Foreperson> {summary}\n")
    print(f"{game.verdict} after {game.rounds} rounds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8, help="seeds per curated case")
    parser.add_argument("--trials", type=int, default=40, help="dev Old Bailey trials")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--held-out", action="store_true", help="also play held-out trials, reported at the end")
    parser.add_argument("--print-game", default="", help="print one whole game, CASE:SEED")
    parser.add_argument("--long-seeds", type=int, default=4, help="seeds per curated case held to the round limit")
    args = parser.parse_args()
    jury = shipped_jury()
    if args.print_game:
        print_game(args.print_game, jury)
        return
    curated, dev = Tally(), Tally()
    for slug in CURATED:
        case = curated_case(slug)
        for seed in range(args.seed, args.seed + args.seeds):
            curated.add(play(slug, case, seed, jury))
    curated.report(f"curated cases, seeds {args.seed}..{args.seed + args.seeds - 1}")
    if args.long_seeds:
        long = Tally()
        for slug in CURATED:
            case = curated_case(slug)
            for seed in range(args.seed, args.seed + args.long_seeds):
                long.add(play(slug, case, seed, jury, long=True))
        long.report(f"curated cases held to the round limit (summary every 2 rounds), {args.long_seeds} seeds each")
    for n, (slug, case) in enumerate(old_bailey("dev", args.trials)):
        dev.add(play(slug, case, args.seed + n % max(1, args.seeds), jury))
    dev.report("dev Old Bailey trials")
    if args.held_out:
        held = Tally()
        for n, (slug, case) in enumerate(old_bailey("held-out", args.trials)):
            held.add(play(slug, case, args.seed + n % max(1, args.seeds), jury))
        held.report("HELD-OUT Old Bailey trials (not tuned on)")


if __name__ == "__main__":
    main()
