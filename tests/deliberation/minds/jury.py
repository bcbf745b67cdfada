"""A small case file and jury for prompt, parsing and LiteLLM mind tests (plain engine dataclasses)."""

from __future__ import annotations

from deliberation.engine.ports import HeardTurn, JurorOutlook, SpeakRequest
from deliberation.engine.types import CaseFile, DefendantInfo, EvidenceItem, JurorProfile, Passage, WitnessItem

CASE = CaseFile(
    slug="the-pawnbroker",
    title="The Crown against Edward Hale",
    summary="A pawnbroker was found robbed and beaten in his shop on Fleet Lane at dusk.",
    charges=("robbery with violence",),
    defendants=(DefendantInfo(name="Edward Hale", gender="male", age=24, description="a cooper's apprentice"),),
    evidence=(
        EvidenceItem(
            id="E1",
            label="Silver watch",
            type="physical",
            description="The pawnbroker's watch, found in Hale's coat.",
            strength_prosecution=0.8,
            strength_defense=0.2,
            contestable=True,
            contest_reason="The coat hung in a shared lodging room.",
        ),
        EvidenceItem(
            id="E2",
            label="Lamp-lighter's timing",
            type="testimonial",
            description="The lamps were lit at half past six.",
            strength_prosecution=0.3,
            strength_defense=0.6,
        ),
    ),
    witnesses=(
        WitnessItem(
            id="W1",
            name="Mary Dunn",
            role="neighbour",
            testimony="She saw a young man in a grey coat leave the shop.",
            credibility_issues=("poor light", "owed the defendant money"),
            side="prosecution",
        ),
    ),
    prosecution_arguments=("The watch was in his coat.",),
    defense_arguments=("Anyone in the lodging could reach the coat.",),
)


def juror(seat: int, name: str, archetype: str = "skeptic", **extra: object) -> JurorProfile:
    fields: dict[str, object] = {
        "seat": seat,
        "name": name,
        "emoji": "",
        "archetype": archetype,
        "modifiers": {"evidence": 1.4, "emotional": 0.4},
        "personality": f"{name} weighs every word before speaking.",
        "stubbornness": 0.5,
        "volatility": 0.3,
        "influence": 0.5,
        **extra,
    }
    return JurorProfile(**fields)  # type: ignore[arg-type]


JURY = (
    juror(1, "Margaret Chen", "skeptic"),
    juror(3, "Tom Reyes", "cynic"),
    juror(5, "Ann Ward", "empath"),
    juror(8, "Walter Price", "veteran"),
)


def turn(round_number: int, seat: int, content: str, target: int | None = None) -> HeardTurn:
    name = next(j.name for j in JURY if j.seat == seat)
    return HeardTurn(round_number, seat, name, content, argument_type="evidence", target_seat=target)


def speak_request(
    speaker: JurorProfile, recent: tuple[HeardTurn, ...], *, round_number: int = 2, summary: str = ""
) -> SpeakRequest:
    outlook = JurorOutlook(
        conviction=0.55,
        vote="guilty",
        reasoning_chain=("The watch was in his coat.",),
        doubts=("Who else could reach the coat?",),
        opinions={3: 0.6, 5: -0.6},
        summary=summary,
    )
    return SpeakRequest(
        juror=speaker,
        outlook=outlook,
        case=CASE,
        recent=recent,
        passages=(Passage("evidence", "E2", "Lamp-lighter's timing", "The lamps were lit at half past six."),),
        round_number=round_number,
        tally={"guilty": 7, "not_guilty": 5},
        jury=JURY,
    )
