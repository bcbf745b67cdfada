"""The engine's stand-ins, as whoever builds the engine hands them over (``engine.ports``).

The engine imports no mind: the services, the experiments and the benches pass it the offline mind
as the fallback for failed or over-budget model calls, and the offline reading as the reader that
tells which points of the case file a speech argued. Pure Python, no Django.

Each point carries the name the foreperson says it by: the item as a juror names it
(``offline.naming``: a whole noun phrase, never a label cut after five words), a doubt about an item
or a witness as such ("the doubts about the alarm panel log"), and a side's argument in the file by
the item it rests on.
"""

from __future__ import annotations

from deliberation.engine.ports import ArguedPoint
from deliberation.engine.types import CaseFile
from deliberation.minds.offline.facets import Facet, case_index
from deliberation.minds.offline.naming import item_name_of
from deliberation.minds.offline.reading import read


def spoken_name(case: CaseFile, facet: Facet) -> str:
    """How the jury names what a facet of the reading is about (see the module)."""
    if facet.kind == "claim":  # a side's argument is named after the item it is closest to
        closest = next(
            (f for f in case_index(case).facets if f.kind in {"evidence", "witness"} and f.name == facet.name), None
        )
        return spoken_name(case, closest) if closest is not None else facet.name
    item = next((e for e in case.evidence if e.id == facet.item_id), None)
    witness = next((w for w in case.witnesses if w.id == facet.item_id), None)
    name = item_name_of(item.label, case).text if item else witness.name if witness else facet.name
    return f"the doubts about {name}" if facet.kind in {"contest", "issue"} else name


def argued_points(case: CaseFile, text: str) -> tuple[ArguedPoint, ...]:
    """The points of ``case`` that ``text`` argued, each with its side (the offline reading)."""
    return tuple(
        ArguedPoint(key=touch.facet.key, sign=1 if touch.push > 0 else -1, name=spoken_name(case, touch.facet))
        for touch in read(case, text).touches
        if touch.push
    )
