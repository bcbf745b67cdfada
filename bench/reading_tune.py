"""Fits how the offline reading weighs what says which way a sentence goes (``STANCE_WEIGHTS`` in
``deliberation/minds/offline/reading.py``) on the sets it may be tuned on: the older set and the
development part (never the held-out part, which this script does not import).

Each argument's clauses give five signals (``offline_reading.Signals``): the stance model's own
verdict stance, its "affirms or undermines" times the side of the item spoken of, the side of the
case file's own words the clause is closest to, the word rules, and the listed verdict words. A text's signals are its
clauses' means; a logistic regression without intercept (Newton's method, deterministic) fits the
weights that best give each argument its labelled side. It prints the weights fitted on both sets
together (what the reading ships, rounded), and, to show how far they carry, the accuracy on each
set of the weights fitted on the other one alone.

Run: .venv/bin/python bench/reading_tune.py [--penalty 1.0]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.minds.offline.reading import STANCE_WEIGHTS, text_signals
from tests.deliberation.minds import reading_dev, reading_set
from tests.deliberation.minds.curated import curated_case

SETS = {
    "old": (reading_set.ARGUMENTS + reading_set.HELD_OUT_ARGUMENTS, reading_set.PAIRS + reading_set.HELD_OUT_PAIRS),
    "dev": (reading_dev.DEV_ARGUMENTS, reading_dev.DEV_PAIRS),
}


def text_row(slug: str, text: str) -> np.ndarray:
    rows = [
        np.array([s.directed * s.own, s.directed * s.turn, s.directed * s.anchor, s.directed * s.rule, s.verdict])
        for s in text_signals(curated_case(slug), text)
        if s is not None
    ]
    return np.mean(rows, axis=0) if rows else np.zeros(5)


def examples(name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(rows, labels, number of pairs): directed arguments first, then each pair's guilty and doubt texts."""
    arguments, pairs = SETS[name]
    items = [(a.case, a.text, a.side == "guilty") for a in arguments if a.grade in {"strong", "weak"}]
    items += [(p.case, p.guilty, True) for p in pairs] + [(p.case, p.not_guilty, False) for p in pairs]
    return np.array([text_row(c, t) for c, t, _ in items]), np.array([g for *_, g in items], dtype=float), len(pairs)


def fit(rows: np.ndarray, labels: np.ndarray, penalty: float) -> np.ndarray:
    w = np.zeros(rows.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(rows @ w, -30, 30)))
        gradient = rows.T @ (p - labels) + penalty * w
        hessian = (rows * (p * (1 - p))[:, None]).T @ rows + penalty * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def score(w: np.ndarray, rows: np.ndarray, labels: np.ndarray, pairs: int) -> str:
    values = rows @ w
    directed = len(labels) - 2 * pairs
    right = int(((values[:directed] > 0) == (labels[:directed] > 0.5)).sum())
    guilty, doubt = values[directed : directed + pairs], values[directed + pairs :]
    both = int(((guilty > 0) & (doubt < 0)).sum())
    return f"directed {right}/{directed}, pairs {both}/{pairs}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--penalty", type=float, default=1.0)
    args = parser.parse_args()
    data = {name: examples(name) for name in SETS}
    print("signals: own, turn, anchor, rule, verdict; shipped:", STANCE_WEIGHTS)
    print(f"{'weights':34} {'on old':28} {'on dev':28}")
    for name in ("shipped",):
        w = np.array(STANCE_WEIGHTS)
        print(f"{name:34} {score(w, *data['old']):28} {score(w, *data['dev']):28}")
    for fitted_on in (("old",), ("dev",), ("old", "dev")):
        rows = np.vstack([data[n][0] for n in fitted_on])
        labels = np.concatenate([data[n][1] for n in fitted_on])
        w = fit(rows, labels, args.penalty)
        label = f"fitted on {'+'.join(fitted_on)} {np.round(w, 2)}"
        print(f"{label:34} {score(w, *data['old']):28} {score(w, *data['dev']):28}")


if __name__ == "__main__":
    main()
