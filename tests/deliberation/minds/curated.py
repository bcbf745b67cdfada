"""The curated cases (cases/curated/*.yaml) as the engine sees them, read without a database.

Item ids follow the items' positions (E1, W1...), as ``cases.casefile.case_file`` numbers them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from deliberation.engine.types import CaseFile, DefendantInfo, EvidenceItem, WitnessItem

CURATED = Path(__file__).resolve().parents[3] / "cases" / "curated"
SLUGS = tuple(sorted(path.stem for path in CURATED.glob("*.yaml")))


@cache
def curated_case(slug: str) -> CaseFile:
    data = yaml.safe_load((CURATED / f"{slug}.yaml").read_text())
    return CaseFile(
        slug=data["slug"],
        title=data["title"],
        summary=data["summary"],
        charges=tuple(data.get("charges", ())),
        defendants=tuple(
            DefendantInfo(
                name=d["name"],
                gender=d.get("gender", "unknown"),
                age=d.get("age"),
                description=d.get("description", ""),
            )
            for d in data.get("defendants", ())
        ),
        evidence=tuple(
            EvidenceItem(
                id=f"E{i + 1}",
                label=e["label"],
                type=e.get("type", "physical"),
                description=e.get("description", ""),
                strength_prosecution=float(e.get("strength_prosecution", 0.5)),
                strength_defense=float(e.get("strength_defense", 0.5)),
                contestable=bool(e.get("contestable", False)),
                contest_reason=e.get("contest_reason", "") or "",
            )
            for i, e in enumerate(data.get("evidence", ()))
        ),
        witnesses=tuple(
            WitnessItem(
                id=f"W{i + 1}",
                name=w["name"],
                role=w.get("role", ""),
                testimony=w.get("testimony_summary", ""),
                credibility_issues=tuple(w.get("credibility_issues", ())),
                side=w.get("side", "neutral"),
            )
            for i, w in enumerate(data.get("witnesses", ()))
        ),
        prosecution_arguments=tuple(data.get("prosecution_arguments", ())),
        defense_arguments=tuple(data.get("defense_arguments", ())),
        themes=tuple(data.get("themes", ())),
        year=data.get("year"),
        jurisdiction=data.get("jurisdiction", "") or "",
    )
