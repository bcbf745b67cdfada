"""The engine's stand-ins, as whoever builds the engine hands them over (``engine.ports``).

The engine imports no mind: the services, the experiments and the benches pass it the offline mind
as the fallback for failed or over-budget model calls, and the offline reading as the reader that
tells which points of the case file a speech argued. Pure Python, no Django.
"""

from __future__ import annotations

from deliberation.engine.ports import ArguedPoint
from deliberation.engine.types import CaseFile
from deliberation.minds.offline.reading import read


def argued_points(case: CaseFile, text: str) -> tuple[ArguedPoint, ...]:
    """The points of ``case`` that ``text`` argued, each with its side (the offline reading)."""
    return tuple(
        ArguedPoint(key=touch.facet.key, sign=1 if touch.push > 0 else -1, name=touch.facet.name)
        for touch in read(case, text).touches
        if touch.push
    )
