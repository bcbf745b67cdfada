"""Whether the import reads the record the same way in every era: what it finds, per decade.

Run: .venv/bin/python bench/record_forms.py [--sets dev|held-out|dev,held-out]

The Proceedings print testimony differently across 1674-1913: question and answer ("Q." / "A.")
until the 1860s, first-person statements joined by dashes after, counsel named in each
cross-examination until the 1860s and only in the heading ("MR. X Defended") after, the prisoner's
defence in their own words or reported ("The prisoner, in his defence, stated that he..."), the
prisoner giving evidence from 1898 ("(prisoner, on oath)"), detectives and ranks before the name
("Detective-sergeant ALFRED GROSSE, Y Division."). A rule that reads one form only finds its point
in some decades and not others. For each set of ``bench/oldbailey_split.py`` and decade this prints
the share of playable trials in which the import finds each point of
``cases.importers.oldbailey_points`` and each keyword item of ``oldbailey_rules``, and how often it
finds a prisoner's account, the prisoner's counsel, and witnesses for each side. No verdict is read:
a point's share moves with the era's crimes and practice too, so a share that falls to nothing in
the decades of one way of printing is the thing to look for. Run on the held-out sessions only
when they are measured (before and after a pass).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from _django import setup
from oldbailey_split import SPLITS, playable_trials

# Decades printed alike are shown together, so that every column holds a few dozen trials.
PERIODS = (
    ("1740s", 1740, 1799),
    ("1800-10s", 1800, 1819),
    ("1820s", 1820, 1829),
    ("1830-40s", 1830, 1849),
    ("1850-60s", 1850, 1869),
    ("1870-80s", 1870, 1889),
    ("1890s", 1890, 1899),
    ("1900-13", 1900, 1913),
)


def period(year: int) -> str:
    return next((name for name, first, last in PERIODS if first <= year <= last), "other")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="dev", help="dev, held-out or both (comma-separated)")
    args = parser.parse_args()
    setup()
    from cases.importers.oldbailey_points import POINTS
    from cases.importers.oldbailey_rules import EVIDENCE_RULES

    labels = list(dict.fromkeys([*(p.label for p in POINTS), *(r.label for r in EVIDENCE_RULES)]))
    splits = tuple(s for s in SPLITS if s in args.sets.split(","))
    trials: Counter[tuple[str, str]] = Counter()
    found: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for trial in playable_trials(splits):
        key = (trial.split, period(trial.record.year or 1800))
        trials[key] += 1
        counted = found[key]
        items = [e.label for e in trial.record.evidence]
        for label in labels:
            counted[label] += any(item.startswith(label) for item in items)
        counted["(a prisoner's account)"] += bool(trial.record.defense_arguments) or any(
            w.role == "the accused" for w in trial.record.witnesses
        )
        counted["(the prisoner giving evidence)"] += any(w.role == "the accused" for w in trial.record.witnesses)
        counted["(witnesses per trial)"] += len(trial.record.witnesses)
        counted["(defence witnesses per trial)"] += sum(w.side == "defense" for w in trial.record.witnesses)
    for split in splits:
        columns = [name for name, _, _ in PERIODS if trials[(split, name)]]
        print(f"\n== {split}: share of playable trials in which the import finds each thing, by period")
        print(f"{'':52s}" + "".join(f"{c:>10s}" for c in columns))
        print(f"{'trials':52s}" + "".join(f"{trials[(split, c)]:10d}" for c in columns))
        extra = [
            "(a prisoner's account)",
            "(the prisoner giving evidence)",
            "(witnesses per trial)",
            "(defence witnesses per trial)",
        ]
        for label in [*extra, *labels]:
            shares = [found[(split, c)][label] / trials[(split, c)] for c in columns]
            print(f"{label[:52]:52s}" + "".join(f"{s:10.2f}" for s in shares))


if __name__ == "__main__":
    main()
