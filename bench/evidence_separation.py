"""How well the imported evidence ratings separate the real convictions from the acquittals.

Parses every Old Bailey file of the shared data (the sample: trials/ and sessions/; and
more-sessions/), keeps the playable trials with a guilty or not-guilty verdict, and computes the
engine's case lean from what the jury may see (``deliberation.engine.initial.evidence_balance``
on the case file; the verdict is used only to score). The side the lean points to is the first
ballot's expected majority, which the calibrated jury turns into its verdict in about 9 runs in
10. Prints balanced accuracy (and AUC of the balance) by data set, era and offence category.

``--rules`` also prints, per point of ``cases.importers.oldbailey_points`` and data set, how many
trials make it and how many of those were acquittals (the share to set against the data set's).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

from _django import DATA, setup


def main() -> None:
    setup()
    from cases.importers.oldbailey import parse_file
    from cases.importers.oldbailey_points import POINTS
    from deliberation.engine.initial import evidence_balance
    from deliberation.engine.types import CaseFile, EvidenceItem, WitnessItem

    rows: list[tuple[str, float, dict[str, str]]] = []
    made: Counter[tuple[str, str, str]] = Counter()  # (data set, point, verdict) -> trials
    seen: set[str] = set()
    for path in sorted(DATA.rglob("*.xml")):
        for t in parse_file(path.read_bytes(), name=path.name, max_bytes=10**9).trials:
            if not t.playable or t.historical_verdict not in {"guilty", "not_guilty"} or t.trial_id in seen:
                continue
            seen.add(t.trial_id)
            file = CaseFile(
                slug=t.slug,
                title=t.title,
                summary=t.summary,
                charges=t.charges,
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
                    for i, e in enumerate(t.evidence)
                ),
                witnesses=tuple(
                    WitnessItem(f"W{i}", w.name, w.role, w.testimony, w.credibility_issues, w.side)
                    for i, w in enumerate(t.witnesses)
                ),
                prosecution_arguments=(),
                defense_arguments=t.defense_arguments,
                themes=(),
                year=t.year,
                jurisdiction=t.jurisdiction,
            )
            year = t.year or 1800
            era = (
                "1674-1799"
                if year < 1800
                else "1800-1849"
                if year < 1850
                else "1850-1899"
                if year < 1900
                else "1900-1913"
            )
            groups = {
                "all": "all",
                "data": "more-sessions" if "more-sessions" in str(path) else "sample",
                "era": era,
                "offence": t.offence_category or "unknown",
            }
            rows.append((t.historical_verdict, evidence_balance(file), groups))
            for point in {p.label for p in POINTS if any(e.label.startswith(p.label) for e in t.evidence)}:
                made[(groups["data"], point, t.historical_verdict)] += 1
            made[(groups["data"], "(every trial)", t.historical_verdict)] += 1
    for key in ("all", "data", "era", "offence"):
        grouped: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for verdict, balance, groups in rows:
            grouped[groups[key]].append((verdict, balance))
        for name, items in sorted(grouped.items()):
            print(f"{key:8s} {name:15s} {_figures(items)}")
    if "--rules" in sys.argv:
        for data in ("more-sessions", "sample"):
            for point in ["(every trial)", *sorted({p.label for p in POINTS})]:
                n, acquitted = (
                    made[(data, point, "guilty")] + made[(data, point, "not_guilty")],
                    made[(data, point, "not_guilty")],
                )
                share = f"{acquitted / n:.0%}" if n else "-"
                print(f"rule {data:13s} {point[:60]:60s} trials {n:4d} acquitted {acquitted:3d} ({share})")


def _figures(items: list[tuple[str, float]]) -> str:
    guilty = [b for v, b in items if v == "guilty"]
    acquitted = [b for v, b in items if v == "not_guilty"]
    if not guilty or not acquitted:
        return f"n={len(items)} (one verdict only)"
    hit_g = sum(b >= 0 for b in guilty) / len(guilty)
    hit_n = sum(b < 0 for b in acquitted) / len(acquitted)
    auc = sum((g > n) + 0.5 * (g == n) for g in guilty for n in acquitted) / (len(guilty) * len(acquitted))
    return (
        f"guilty {len(guilty):4d} acquitted {len(acquitted):4d}  balanced accuracy {(hit_g + hit_n) / 2:.3f}"
        f"  (convictions {hit_g:.2f}, acquittals {hit_n:.2f})  AUC {auc:.3f}"
    )


if __name__ == "__main__":
    main()
