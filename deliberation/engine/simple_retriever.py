"""A tiny in-memory keyword retriever over a case file, for tests, benchmarks and the default.

The service injects the case library's retriever; when none is given the engine uses this one.
Scores are the count of query words (3+ letters) found in a passage, ties broken by file order.
"""

from __future__ import annotations

import re

from deliberation.engine.types import CaseFile, Passage

WORD = re.compile(r"[a-z0-9]{3,}")


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


class SimpleRetriever:
    def __init__(self, case: CaseFile) -> None:
        self.passages: list[Passage] = [Passage(kind="summary", item_id="summary", label=case.title, text=case.summary)]
        for item in case.evidence:
            text = f"{item.description} {item.contest_reason}".strip()
            self.passages.append(Passage(kind="evidence", item_id=item.id, label=item.label, text=text))
        for witness in case.witnesses:
            text = " ".join((witness.role, witness.testimony, *witness.credibility_issues))
            self.passages.append(Passage(kind="witness", item_id=witness.id, label=witness.name, text=text))
        self._words = [words(f"{p.label} {p.text}") for p in self.passages]

    def lookup(self, query: str, k: int = 3) -> list[Passage]:
        wanted = words(query)
        if not wanted or k <= 0:
            return []
        scored = [(len(wanted & found), index) for index, found in enumerate(self._words) if wanted & found]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [
            Passage(kind=p.kind, item_id=p.item_id, label=p.label, text=p.text, score=float(score))
            for score, index in scored[:k]
            for p in (self.passages[index],)
        ]
