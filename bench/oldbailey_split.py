"""The Old Bailey sessions the record's reading is tuned on, and the sessions kept aside to report on.

Written on 2026-11-28, before any rule of the import (``cases/importers/oldbailey*.py``) was changed
to read the record the same way in every era, and fixed for the whole team from then on:

* **dev** (rules may be written, read against and measured on these): the 60 trials of ``trials/``,
  the two whole sessions of ``sessions/`` (18950225 and OBC2-17440404), and seven of the
  ``more-sessions/``: 18140420, 18261026, 18460105, 18540508, 18620922, 18790526, 18870912.
* **held-out** (never opened, read, grepped or measured while tuning; measured once before the
  rules changed and once after): the other six ``more-sessions/``: 18011028, 18370918, 18710109,
  18960113, 19040418, 19120910. They hold the two twentieth-century sessions (1904, 1912).

Held out from this pass's tuning only: the rules as they stood on 2026-11-28 had been written by
earlier passes that looked at all thirteen more sessions.

Every record bench (``evidence_separation``, ``jury_verdicts``, ``evidence_ceiling``,
``record_forms``) reads its trials through ``playable_trials`` and reports the two sets side by
side. Run this file to print which files each set holds and how many playable trials per decade
(no verdicts, no text).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = next(
    (f / "shared" / "data" / "oldbailey" for f in ROOT.parents if (f / "shared" / "data" / "oldbailey").is_dir()),
    ROOT.parent / "shared" / "data" / "oldbailey",
)  # ../shared beside the checkout, or beside a folder above it (a git worktree)

DEV = "dev"
HELD_OUT = "held-out"
SPLITS = (DEV, HELD_OUT)
SAMPLE = "sample"  # the 110 trials of trials/ and sessions/ alone, all of them dev: the calibration's set
DEV_MORE_SESSIONS = ("18140420", "18261026", "18460105", "18540508", "18620922", "18790526", "18870912")
HELD_OUT_SESSIONS = ("18011028", "18370918", "18710109", "18960113", "19040418", "19120910")
DEV_SESSIONS = ("18950225", "OBC2-17440404")


@dataclass(frozen=True)
class Trial:
    """One playable trial with a guilty or not-guilty verdict, as a record bench sees it."""

    record: Any  # cases.importers.oldbailey.TrialRecord
    file: Any  # deliberation.engine.types.CaseFile: what the jury may see
    split: str  # DEV | HELD_OUT
    decade: str  # "1830s"
    era: str  # "1800-1849"

    @property
    def verdict(self) -> str:
        return str(self.record.historical_verdict)


def split_files(split: str) -> list[Path]:
    """The files of one set, in a fixed order."""
    if split == DEV:
        return [
            *sorted((DATA / "trials").glob("*.xml")),
            *(DATA / "sessions" / f"{name}.xml" for name in DEV_SESSIONS),
            *(DATA / "more-sessions" / f"{name}.xml" for name in DEV_MORE_SESSIONS),
        ]
    if split == HELD_OUT:
        return [DATA / "more-sessions" / f"{name}.xml" for name in HELD_OUT_SESSIONS]
    if split == SAMPLE:
        return [*sorted((DATA / "trials").glob("*.xml")), *(DATA / "sessions" / f"{name}.xml" for name in DEV_SESSIONS)]
    raise ValueError(f"unknown set {split!r}: expected one of {', '.join((*SPLITS, SAMPLE))}")


def check_split() -> None:
    """Every shared file belongs to exactly one set: a file added later is never silently left out."""
    every = {p for folder in ("trials", "sessions", "more-sessions") for p in (DATA / folder).glob("*.xml")}
    dev, held = set(split_files(DEV)), set(split_files(HELD_OUT))
    if dev & held or (dev | held) != every:
        unplaced = sorted(str(p.relative_to(DATA)) for p in every - dev - held)
        raise SystemExit(f"the dev / held-out split does not cover the shared data: unplaced {unplaced}")


def decade(year: int) -> str:
    return f"{year // 10 * 10}s"


def era(year: int) -> str:
    if year < 1800:
        return "1674-1799"
    if year < 1850:
        return "1800-1849"
    if year < 1900:
        return "1850-1899"
    return "1900-1913"


def case_file(record: Any) -> Any:
    """The engine's case file of an imported trial: what the jury may see (no verdict)."""
    from deliberation.engine.types import CaseFile, EvidenceItem, WitnessItem

    return CaseFile(
        slug=record.slug,
        title=record.title,
        summary=record.summary,
        charges=record.charges,
        defendants=(),
        evidence=tuple(
            EvidenceItem(
                f"E{i}",
                e.label,
                e.type,
                e.description,
                e.strength_prosecution,
                e.strength_defense,
                e.contestable,
                e.contest_reason,
            )
            for i, e in enumerate(record.evidence, start=1)
        ),
        witnesses=tuple(
            WitnessItem(f"W{i}", w.name, w.role, w.testimony, w.credibility_issues, w.side)
            for i, w in enumerate(record.witnesses, start=1)
        ),
        prosecution_arguments=(),
        defense_arguments=record.defense_arguments,
        themes=(),
        year=record.year,
        jurisdiction=record.jurisdiction,
    )


def playable_trials(splits: tuple[str, ...] = SPLITS) -> Iterator[Trial]:
    """Each playable trial with a guilty or not-guilty verdict once (a trial of ``trials/`` that is
    also in a whole session is read once, from the first file)."""
    from cases.importers.oldbailey import parse_file

    check_split()
    seen: set[str] = set()
    for split in splits:
        for path in split_files(split):
            for record in parse_file(path.read_bytes(), name=path.name, max_bytes=10**9).trials:
                if not record.playable or record.historical_verdict not in {"guilty", "not_guilty"}:
                    continue
                if record.trial_id in seen:
                    continue
                seen.add(record.trial_id)
                year = record.year or 1800
                yield Trial(record, case_file(record), split, decade(year), era(year))


def main() -> None:
    sys.path.insert(0, str(ROOT))
    check_split()
    counts: Counter[tuple[str, str]] = Counter()
    for trial in playable_trials():
        counts[(trial.split, trial.decade)] += 1
    for split in SPLITS:
        print(f"{split}: {', '.join(str(p.relative_to(DATA)) for p in split_files(split) if 'trials' not in p.parts)}")
        if split == DEV:
            print(f"  and the {len(list((DATA / 'trials').glob('*.xml')))} trials of trials/")
        per_decade = sorted((d, n) for (s, d), n in counts.items() if s == split)
        print(f"  playable trials {sum(n for _, n in per_decade)}: " + ", ".join(f"{d} {n}" for d, n in per_decade))


if __name__ == "__main__":
    main()
