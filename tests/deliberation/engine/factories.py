"""A small hand-made case and the spec's twelve jurors, as the engine sees them.

Reusable by tests and benchmarks: ``build_case()``, ``build_jury(side=...)``.
"""

from __future__ import annotations

from dataclasses import replace

from deliberation.engine.types import CaseFile, DefendantInfo, EvidenceItem, JurorProfile, WitnessItem

TYPES = ("evidence", "emotional", "logical", "question", "moral", "narrative")


def modifiers(
    evidence: float, emotional: float, logical: float, question: float, moral: float, narrative: float
) -> dict[str, float]:
    return dict(zip(TYPES, (evidence, emotional, logical, question, moral, narrative), strict=True))


MODIFIERS = {
    "rationalist": modifiers(1.3, 0.4, 1.5, 1.2, 0.6, 0.7),
    "empath": modifiers(0.8, 1.5, 0.6, 0.9, 1.3, 1.2),
    "cynic": modifiers(1.4, 0.3, 0.8, 0.7, 0.5, 0.6),
    "conformist": modifiers(1.0, 1.1, 0.9, 0.8, 1.0, 1.0),
    "contrarian": modifiers(1.0, 0.7, 1.3, 1.4, 0.8, 0.8),
    "impatient": modifiers(1.1, 0.9, 1.0, 0.6, 0.8, 0.9),
    "everyman": modifiers(1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    "detail_obsessed": modifiers(1.5, 0.5, 1.2, 1.3, 0.6, 0.7),
    "moralist": modifiers(0.8, 1.2, 0.7, 0.8, 1.6, 1.0),
    "pragmatist": modifiers(1.1, 0.8, 1.3, 1.0, 1.1, 0.8),
    "storyteller": modifiers(0.9, 1.2, 0.8, 0.9, 1.0, 1.6),
    "wildcard": modifiers(1.0, 1.2, 0.8, 1.1, 0.9, 1.3),
}

# seat, name, emoji, archetype, stubbornness, volatility, influence, verbosity, initial lean
JURORS = (
    (1, "Marcus Webb", "🧠", "rationalist", 0.8, 0.2, 0.7, 0.6, "neutral"),
    (2, "Sarah Chen", "💗", "empath", 0.4, 0.7, 0.5, 0.6, "defense"),
    (3, "Frank Russo", "😤", "cynic", 0.9, 0.1, 0.6, 0.5, "prosecution"),
    (4, "Linda Park", "😐", "conformist", 0.2, 0.8, 0.2, 0.3, "majority"),
    (5, "David Okonkwo", "🙄", "contrarian", 0.6, 0.5, 0.8, 0.7, "minority"),
    (6, "Betty Morrison", "⏰", "impatient", 0.5, 0.6, 0.3, 0.2, "first_impression"),
    (7, "Juror 7", "👤", "everyman", 0.5, 0.5, 0.6, 0.5, "neutral"),
    (8, "Dr. James Wright", "🔍", "detail_obsessed", 0.7, 0.4, 0.5, 0.8, "neutral"),
    (9, "Pastor Williams", "⚖️", "moralist", 0.7, 0.3, 0.6, 0.6, "gut_feeling"),
    (10, "Nancy Cooper", "💼", "pragmatist", 0.5, 0.5, 0.6, 0.5, "calculated"),
    (11, "Miguel Santos", "📖", "storyteller", 0.4, 0.6, 0.7, 0.7, "best_story"),
    (12, "Robert Kim", "🎲", "wildcard", 0.3, 0.9, 0.4, 0.5, "random"),
)


def build_jury(*, side: str = "none", seven_kind: str = "human") -> tuple[JurorProfile, ...]:
    """Twelve profiles; with a side, seat 7 is the player (``seven_kind``: human or agent)."""
    jury = []
    for seat, name, emoji, archetype, stubborn, volatile, influence, verbosity, lean in JURORS:
        jury.append(
            JurorProfile(
                seat=seat,
                name=name,
                emoji=emoji,
                archetype=archetype,
                modifiers=dict(MODIFIERS[archetype]),
                personality=f"The {archetype} juror.",
                stubbornness=stubborn,
                volatility=volatile,
                influence=influence,
                verbosity=verbosity,
                initial_lean=lean,
            )
        )
    if side != "none":
        jury[6] = replace(jury[6], name="You", archetype="player", kind=seven_kind)  # type: ignore[arg-type]
    return tuple(jury)


def build_case(**changes: object) -> CaseFile:
    case = CaseFile(
        slug="state-v-hale",
        title="The State v. Thomas Hale",
        summary=(
            "Thomas Hale is accused of robbing a corner shop on Elm Street at night and striking the owner. "
            "He says he was at home watching a football match."
        ),
        charges=("Robbery", "Assault occasioning bodily harm"),
        defendants=(DefendantInfo(name="Thomas Hale", gender="male", age=34),),
        evidence=(
            EvidenceItem(
                id="e1",
                label="CCTV footage",
                type="documentary",
                description="Grainy footage shows a man in a grey hoodie of Hale's build leaving the shop at 22:41.",
                strength_prosecution=0.6,
                strength_defense=0.3,
                contestable=True,
                contest_reason="the face is never visible and the timestamp ran four minutes fast",
            ),
            EvidenceItem(
                id="e2",
                label="grey hoodie",
                type="physical",
                description="A grey hoodie with a spot of the owner's blood was found in Hale's laundry basket.",
                strength_prosecution=0.8,
                strength_defense=0.2,
                contestable=True,
                contest_reason="Hale's flatmate had borrowed the hoodie that week",
            ),
            EvidenceItem(
                id="e3",
                label="till receipt",
                type="documentary",
                description="The last sale was rung up at 22:39, so the robbery followed within minutes.",
                strength_prosecution=0.4,
                strength_defense=0.2,
            ),
            EvidenceItem(
                id="e4",
                label="match ticket stub",
                type="physical",
                description="A ticket stub for the evening match, but Hale says he watched it on television.",
                strength_prosecution=0.1,
                strength_defense=0.5,
            ),
        ),
        witnesses=(
            WitnessItem(
                id="w1",
                name="Maria Lopez",
                role="eyewitness",
                testimony="She saw a man run from the shop towards Hale's street and picked Hale from a line-up.",
                credibility_issues=(
                    "she was 40 metres away under a broken street lamp",
                    "she first described a taller man",
                ),
                side="prosecution",
            ),
            WitnessItem(
                id="w2",
                name="Dev Patel",
                role="shop owner",
                testimony="He was struck from behind and only saw a grey sleeve.",
                side="prosecution",
            ),
            WitnessItem(
                id="w3",
                name="Jamie Hale",
                role="brother",
                testimony="He phoned Thomas at home at 22:30 and heard the match in the background.",
                credibility_issues=("he is the defendant's brother",),
                side="defense",
            ),
        ),
        prosecution_arguments=("Hale needed money after losing his job and his hoodie carried the owner's blood.",),
        defense_arguments=("The flatmate, who borrowed the hoodie, matches the CCTV figure just as well.",),
        themes=("eyewitness", "circumstantial"),
        year=2019,
        jurisdiction="Fictional",
    )
    return replace(case, **changes) if changes else case


class CountingMind:
    """Wraps a mind and counts its calls per method (the real offline mind underneath)."""

    def __init__(self, inner: object | None = None) -> None:
        from deliberation.minds.offline.mind import OfflineMind

        self.inner = inner or OfflineMind()
        self.name = getattr(self.inner, "name", "counting")
        self.calls: list[str] = []

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        self.calls.append("speak")
        return await self.inner.speak(request, on_text=on_text)

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        self.calls.append("react_batch")
        return await self.inner.react_batch(request)

    async def summarize(self, request):  # type: ignore[no-untyped-def]
        self.calls.append("summarize")
        return await self.inner.summarize(request)

    async def craft_argument(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        self.calls.append("craft_argument")
        return await self.inner.craft_argument(request, on_text=on_text)
