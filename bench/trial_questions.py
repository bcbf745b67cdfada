"""Counsel's questions and the witnesses' answers in offline trials: every curated case and the Old
Bailey sample (the trials counsel's rules were written on, and the two whole sessions kept apart).

Run: .venv/bin/python bench/trial_questions.py [--seeds N] [--examples N]
Prints, per set: trials, questions asked (chief and cross), the share that name a fact of the
record (``tests/deliberation/trial_facts.py``: a run of four words of a record line, two of them
content words), the share of answers grounded in the witness's own record, the share answered with
the very line the question was made from, the share of "I couldn't say", what the questions ask
(who, when, where, how far, what, how sure, a concession, a contradiction...), and examples.
"""

from __future__ import annotations

import argparse
import collections
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _django import DATA, ROOT, setup

HELD_OUT_WRITTEN = "2026-11-28"  # the sessions' trials were set apart before counsel's rules were written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--examples", type=int, default=6)
    args = parser.parse_args()
    setup()
    from django.core.management import call_command

    from cases.casefile import case_file
    from cases.models import Case
    from cases.services import oldbailey_import_paths
    from deliberation.engine.trial.course import run_trial
    from deliberation.engine.trial.text import normalise
    from deliberation.engine.trial.witness import NO_KNOWLEDGE
    from tests.deliberation.trial_facts import names_a_fact, record_runs

    sys.path.insert(0, str(ROOT))
    call_command("load_cases", stdout=io.StringIO())
    trials = sorted((DATA / "trials").glob("*.xml"))
    oldbailey_import_paths(paths=trials + sorted((DATA / "sessions").glob("*.xml")))
    dev = {p.stem for p in trials}
    playable = Case.objects.with_file().playable()
    sets = {
        "curated": [c for c in playable.filter(source="curated")],
        "oldbailey (written on: trials/)": [c for c in playable.filter(source="oldbailey") if c.source_id in dev],
        f"oldbailey (held out: sessions/, set apart {HELD_OUT_WRITTEN})": [
            c for c in playable.filter(source="oldbailey") if c.source_id not in dev
        ],
    }
    for name, cases in sets.items():
        asked = named = grounded = answers = on_line = unknown = 0
        by_part: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        kinds: collections.Counter[str] = collections.Counter()
        examples: list[str] = []
        for case in cases:
            file = case_file(case)
            runs = record_runs(
                t for w in file.witnesses for t in (w.testimony, w.first_person, *w.credibility_issues) if t
            )
            for seed in range(args.seeds):
                trial = run_trial(file, seed=seed)
                planned = {(s["witness"], s["question"]): s for s in trial.plan if s["kind"] == "question"}
                events = trial.events
                for at, event in enumerate(events):
                    if event.kind != "question":
                        continue
                    asked += 1
                    hit = names_a_fact(event.text, runs)
                    named += hit
                    by_part[event.part][0] += 1
                    by_part[event.part][1] += hit
                    step = planned.get((event.witness_id, event.text), {})
                    kinds[step.get("asks", "?")] += 1
                    reply = next((e for e in events[at + 1 :] if e.kind == "answer"), None)
                    stopped = any(e.kind == "ruling" and e.sustained for e in events[at + 1 : at + 3]) and (
                        reply is None or reply.index > at + 3
                    )
                    if reply is None or stopped:
                        continue
                    answers += 1
                    grounded += bool(reply.grounded)
                    unknown += reply.text in NO_KNOWLEDGE
                    line = step.get("line", "")
                    on_line += bool(line) and normalise(line) in {normalise(q) for q in reply.quoted}
                    if (
                        seed == 0
                        and len(examples) < args.examples
                        and random.Random(at + len(examples)).random() < 0.15
                    ):
                        examples.append(f"  [{event.part}] Q: {event.text}\n          A: {reply.text}")
        print(f"{name}: {len(cases)} trials x {args.seeds} seeds, {asked} questions")
        print(f"  name a fact of the record: {named / max(asked, 1):.1%}", end="")
        print("".join(f"; {part} {v[1] / max(v[0], 1):.1%} of {v[0]}" for part, v in sorted(by_part.items())))
        print(
            f"  answers {answers}: grounded {grounded / max(answers, 1):.1%}, "
            f"with the line the question was made from {on_line / max(answers, 1):.1%}, "
            f'"couldn\'t say" {unknown / max(answers, 1):.1%}'
        )
        print("  what they ask: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
        print("\n".join(examples))


if __name__ == "__main__":
    main()
