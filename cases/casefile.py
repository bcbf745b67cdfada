"""The engine's view of a case: ``CaseFile``, built from the database without the answer.

``case_file`` copies only what a jury may know; the historical verdict and punishment are
never read here. Item ids (``E1``, ``W1``...) follow the items' positions and are the same
ids the evidence index carries, so a passage found by retrieval can be cited by id.
"""

from __future__ import annotations

from cases.models import Case
from cases.retrieval import evidence_id, witness_id
from deliberation.engine.types import CaseFile, DefendantInfo, EvidenceItem, WitnessItem


def case_file(case: Case) -> CaseFile:
    """Build the jury's case file; prefetch with ``Case.objects.with_file()`` to keep it to 4 queries."""
    return CaseFile(
        slug=case.slug,
        title=case.title,
        summary=case.summary,
        charges=tuple(case.charges),
        defendants=tuple(
            DefendantInfo(name=d.name, gender=d.gender, age=d.age, description=d.description)
            for d in case.defendants.all()
        ),
        evidence=tuple(
            EvidenceItem(
                id=evidence_id(i),
                label=e.label,
                type=e.type,
                description=e.description,
                strength_prosecution=e.strength_prosecution,
                strength_defense=e.strength_defense,
                contestable=e.contestable,
                contest_reason=e.contest_reason,
            )
            for i, e in enumerate(case.evidence.all())
        ),
        witnesses=tuple(
            WitnessItem(
                id=witness_id(i),
                name=w.name,
                role=w.role,
                testimony=w.testimony_summary,
                first_person=w.testimony,
                credibility_issues=tuple(w.credibility_issues),
                side=w.side,
            )
            for i, w in enumerate(case.witnesses.all())
        ),
        prosecution_arguments=tuple(case.prosecution_arguments),
        defense_arguments=tuple(case.defense_arguments),
        themes=tuple(case.themes),
        year=case.year,
        jurisdiction=case.jurisdiction,
    )
