"""How much more a model fitted to the verdicts gets from the same record than the documented rules.

Run: .venv/bin/python bench/evidence_ceiling.py      (needs scikit-learn: ``make install-semantic``)

The rules of ``cases.importers.oldbailey_points`` and ``oldbailey_rules`` were written from what the
record means, not fitted. This asks whether fitting could do better, always scored on trials the
model was not fitted on:

* the rules' lean: the sign of ``evidence_balance``, as ``bench/evidence_separation.py`` scores it;
* points, fitted: a logistic regression over the same evidence items (per label: how many, and
  their summed net strength), the witnesses per side and the length of the testimony;
* text, fitted: a logistic regression over the words of every testimony and the prisoner's own
  account (tf-idf, words and word pairs), the most a reader with no rules could learn here.

Each fitted model is trained on the dev set of ``bench/oldbailey_split.py`` and scored on the
held-out sessions, and cross-validated (5 folds) within the dev set. Balanced accuracy, as
everywhere in REALISM.md. The verdict is used only to fit and to score. It scores the held-out
sessions, so it is run only when they are measured (before and after a pass).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from _django import setup

FOLDS = 5
C_VALUES = (0.1, 1.0)


def main() -> None:
    try:
        import numpy as np
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import balanced_accuracy_score
        from sklearn.model_selection import StratifiedKFold, cross_val_predict
    except ImportError:
        sys.exit("This benchmark needs scikit-learn: run `make install-semantic` first.")
    setup()
    from jury_verdicts import old_bailey

    from deliberation.engine.initial import evidence_balance

    sets = {"dev": list(old_bailey(("dev",))), "held-out": list(old_bailey(("held-out",)))}
    truth = {name: np.array([real == "guilty" for *_, real in rows]) for name, rows in sets.items()}

    def rules(name: str) -> float:
        guessed = np.array([evidence_balance(file) >= 0 for _, file, _, _ in sets[name]])
        return float(balanced_accuracy_score(truth[name], guessed))

    def fitted(features: Callable[[list[Any]], Any], c: float) -> tuple[float, float]:
        """(dev -> held-out, cross-validated within dev) for one model."""
        x_train, x_test = features([sets["dev"], sets["held-out"]])
        model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000).fit(x_train, truth["dev"])
        held = float(balanced_accuracy_score(truth["held-out"], model.predict(x_test)))
        (x_dev,) = features([sets["dev"]])
        folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0)
        model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000)
        guessed = cross_val_predict(model, x_dev, truth["dev"], cv=folds)
        return held, float(balanced_accuracy_score(truth["dev"], guessed))

    def point_features(groups: list[list[Any]]) -> list[Any]:
        vectorizer = DictVectorizer()
        rows = [[_points(file) for _, file, _, _ in group] for group in groups]
        return [vectorizer.fit_transform(rows[0]), *(vectorizer.transform(r) for r in rows[1:])]

    def text_features(groups: list[list[Any]]) -> list[Any]:
        vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True)
        texts = [[_text(file) for _, file, _, _ in group] for group in groups]
        return [vectorizer.fit_transform(texts[0]), *(vectorizer.transform(t) for t in texts[1:])]

    print(f"trials: dev {len(sets['dev'])}, held-out {len(sets['held-out'])}")
    print(f"{'reader':34s} {'on held-out':>12s} {'5-fold dev':>11s} {'on dev':>7s}")
    print(f"{'the rules (not fitted)':34s} {rules('held-out'):12.3f} {'':>11s} {rules('dev'):7.3f}")
    for label, features in (("points, fitted on dev", point_features), ("text, fitted on dev", text_features)):
        for c in C_VALUES:
            held, folded = fitted(features, c)
            print(f"{label + f' (C={c})':34s} {held:12.3f} {folded:11.3f}")


def _points(file: Any) -> dict[str, float]:
    """The case file's evidence as counts and summed nets per item label (the witness named in
    brackets dropped), with the witnesses per side and the testimony's length."""
    import math

    found: dict[str, float] = {}
    for item in file.evidence:
        label = re.sub(r" \(.*$", "", item.label).split(",")[0]
        found["n:" + label] = found.get("n:" + label, 0.0) + 1.0
        net = item.strength_prosecution - item.strength_defense
        found["net:" + label] = found.get("net:" + label, 0.0) + net
    for side in ("prosecution", "defense"):
        found["witnesses:" + side] = float(sum(w.side == side for w in file.witnesses))
    found["length"] = math.log1p(sum(len(w.testimony) for w in file.witnesses))
    return found


def _text(file: Any) -> str:
    heard = " ".join(f"[{w.side}] {w.testimony}" for w in file.witnesses)
    return heard + " [the prisoner] " + " ".join(file.defense_arguments)


if __name__ == "__main__":
    main()
