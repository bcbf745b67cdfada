"""Seeded AI-only offline games of the curated cases, each speech with the speaker's vote as it spoke.

Shared by the tests that read the offline jurors' words over many games (``spoken``): one list of
``Spoken`` per call, played once per test session.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from functools import cache

import yaml

from deliberation.engine.ports import SpeakRequest
from deliberation.engine.session import begin, run_to_end
from deliberation.engine.types import CaseFile, Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import CURATED, SLUGS, curated_case


@dataclass(frozen=True)
class Spoken:
    case: CaseFile
    seed: int
    speech: Speech
    vote: str  # the speaker's vote as it spoke: guilty | not_guilty
    tally: tuple[int, int] = (0, 0)  # the last count as it spoke: (guilty, not guilty)


class _Recording(OfflineMind):
    def __init__(self) -> None:
        self.votes: list[tuple[int, str]] = []
        self.tallies: list[tuple[int, int]] = []

    async def speak(self, request: SpeakRequest, *, on_text=None) -> Speech:  # type: ignore[no-untyped-def]
        speech = await super().speak(request, on_text=on_text)
        self.votes.append((request.juror.seat, "guilty" if request.outlook.vote == "guilty" else "not_guilty"))
        self.tallies.append((request.tally.get("guilty", 0), request.tally.get("not_guilty", 0)))
        return speech


@cache
def on_the_stand(slug: str) -> CaseFile:
    """A curated case with each witness's own words on the stand, as the application has it."""
    case = curated_case(slug)
    data = yaml.safe_load((CURATED / f"{slug}.yaml").read_text())
    own = [item.get("testimony", "") or "" for item in data.get("witnesses", [])]
    witnesses = tuple(replace(w, first_person=words) for w, words in zip(case.witnesses, own, strict=True))
    return replace(case, witnesses=witnesses)


@cache
def spoken(seeds: int = 6) -> tuple[Spoken, ...]:
    """Every AI juror's speech in seeds 0..``seeds``-1 of each curated case, in order."""
    return tuple(said for slug in SLUGS for said in spoken_in(slug, seeds))


@cache
def spoken_in(slug: str, seeds: int) -> tuple[Spoken, ...]:
    """Every AI juror's speech in seeds 0..``seeds``-1 of one curated case, in order."""
    found: list[Spoken] = []
    case = on_the_stand(slug)
    for seed in range(seeds):
        jury = build_jury()
        mind = _Recording()
        state = begin(case=case, jury=jury, seed=seed)
        results = asyncio.run(
            run_to_end(state, case=case, jury=list(jury), mind=mind, fallback=OfflineMind(), reader=argued_points)
        )
        speeches = [s for r in results for s in r.speeches]
        votes, tallies = iter(mind.votes), iter(mind.tallies)
        for speech in speeches:
            seat, vote = next(votes)
            assert seat == speech.seat
            found.append(Spoken(case, seed, speech, vote, next(tallies)))
    return tuple(found)
