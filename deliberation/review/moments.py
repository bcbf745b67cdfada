"""What moved the jury, computed from a finished deliberation's stored speeches and reactions.

Plain Python (no Django import), so the arithmetic is tested on its own. Conviction deltas are
the engine's per-listener changes: positive leans towards guilty, negative towards not guilty.

- ``figures``: what one speech drew from its listeners (net, mean, total movement, persuaded).
- ``key_moments``: the speeches that moved the jury most, with the vote changes each one caused.
- ``vote_change_causes``: for every change of vote, the speech of that round arguing the juror's
  new vote that pushed them hardest towards it (``None`` when none did), and apart from it the
  speech for the other side that pushed them furthest their new way (a backfire), when it pushed
  harder.

A delta is what the engine moved the listener by as they heard the speech: how it read the speech
for that listener, the room's pull on a juror in the minority, and chance. So a speech can move
its listeners away from the side it argued; the pages say so instead of crediting it to that side.
- ``GroupSummary``: one jury's outcome in a few figures, built so that several juries (the rooms
  of a class) can later be laid side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deliberation.engine.strategies import own_words

GUILTY = "guilty"
NOT_GUILTY = "not_guilty"
STILL = 0.0005  # a change smaller than this is no change (deltas are stored to 4 decimals)
KEY_MOMENTS = 5
TOP_LISTENERS = 3
VOTE_WORDS = {GUILTY: "guilty", NOT_GUILTY: "not guilty"}
VERDICT_WORDS = {GUILTY: "Guilty", NOT_GUILTY: "Not guilty", "hung": "Hung jury"}
DIRECTION_WORDS = {GUILTY: "towards guilty", NOT_GUILTY: "towards not guilty", "flat": "no net change"}


def signed(value: float) -> str:
    """A change as people read it: +0.120 or −0.045 (a true minus sign), 0.000 when still."""
    if abs(value) < STILL:
        return "0.000"
    return f"{value:+.3f}".replace("-", "\u2212")


def direction_of(value: float) -> str:
    if abs(value) < STILL:
        return "flat"
    return GUILTY if value > 0 else NOT_GUILTY


@dataclass(frozen=True)
class Reaction:
    """One listener's response to one speech."""

    seat: int
    delta: float
    persuaded: bool = False
    thought: str = ""
    name: str = ""  # the listener's name, for pages

    @property
    def change(self) -> str:
        return signed(self.delta)

    @property
    def direction(self) -> str:
        return direction_of(self.delta)


@dataclass(frozen=True)
class Speech:
    """One contribution to the deliberation (a juror's or a participant's speech)."""

    sequence: int
    round: int
    seat: int
    name: str
    text: str
    strategy: str = ""
    argument_type: str = ""
    reactions: tuple[Reaction, ...] = ()
    stood_in: bool = False  # the AI juror playing a person's empty seat spoke it, not the person
    crafted: str = ""  # a person's turn: the part their strategy crafted before their own words
    side: str = ""  # the side it argued (guilty / not_guilty), "" when unknown

    @property
    def own_words(self) -> str:
        """The person's own words, exactly as typed (all of ``text`` when nothing was crafted)."""
        return own_words(self.text, self.crafted)

    @property
    def side_label(self) -> str:
        return VOTE_WORDS.get(self.side, "")

    @property
    def move(self) -> str:
        """The strategy a participant chose, else the kind of argument a juror made, in words."""
        return (self.strategy or self.argument_type).replace("_", " ")


@dataclass(frozen=True)
class VoteChange:
    """A juror's vote going from ``before`` to ``after`` at the end of ``round``."""

    round: int
    seat: int
    before: str
    after: str
    name: str = ""  # the juror's name, for pages
    reason: str = ""  # why the juror changed their mind, where the engine said

    @property
    def before_label(self) -> str:
        return VOTE_WORDS.get(self.before, self.before or "no vote")

    @property
    def after_label(self) -> str:
        return VOTE_WORDS.get(self.after, self.after)


@dataclass(frozen=True)
class Figures:
    """What a speech drew: ``net`` is the signed sum of its listeners' deltas, ``moved`` the sum of
    their sizes (a speech that pushes half the room each way has net 0 but moved a lot)."""

    listeners: int
    net: float
    mean: float
    moved: float
    persuaded: int

    @property
    def direction(self) -> str:
        return direction_of(self.net)

    @property
    def direction_words(self) -> str:
        return DIRECTION_WORDS[self.direction]

    @property
    def net_change(self) -> str:
        return signed(self.net)

    @property
    def mean_change(self) -> str:
        return signed(self.mean)

    @property
    def movement(self) -> str:
        return f"{self.moved:.3f}"


def figures(speech: Speech) -> Figures:
    deltas = [r.delta for r in speech.reactions]
    net = sum(deltas)
    return Figures(
        listeners=len(deltas),
        net=net,
        mean=net / len(deltas) if deltas else 0.0,
        moved=sum(abs(d) for d in deltas),
        persuaded=sum(1 for r in speech.reactions if r.persuaded),
    )


def _towards(vote: str, delta: float) -> float:
    """How far ``delta`` pushes towards ``vote`` (negative when it pushes away)."""
    return delta if vote == GUILTY else -delta


@dataclass(frozen=True)
class Cause:
    """A change of vote and the speech arguing the new vote that pushed that juror hardest towards
    it in that round; ``backfire``, a speech for the other side that pushed them further that way."""

    change: VoteChange
    speech: Speech | None
    push: float  # that speech's delta on this juror, towards the new vote (0 without a speech)
    backfire: Speech | None = None
    backfire_push: float = 0.0


def _hardest(speeches: list[Speech], change: VoteChange) -> tuple[Speech | None, float]:
    best: Speech | None = None
    best_push = 0.0
    for speech in speeches:
        for reaction in speech.reactions:
            push = _towards(change.after, reaction.delta) if reaction.seat == change.seat else 0.0
            # Strictly greater: the earlier of two equal pushes is the cause (speeches are in order).
            if push >= STILL and push > best_push:
                best, best_push = speech, push
    return best, best_push


def vote_change_causes(speeches: list[Speech], changes: list[VoteChange]) -> list[Cause]:
    """Each change, in order, with its likeliest cause among the speeches of its round: only a
    speech that argued the new vote (or whose side is unknown) is credited with it. A speech for the
    other side that pushed the juror harder their new way is kept apart, as a backfire."""
    by_round: dict[int, list[Speech]] = {}
    for speech in speeches:
        by_round.setdefault(speech.round, []).append(speech)
    causes = []
    for change in sorted(changes, key=lambda c: (c.round, c.seat)):
        heard = by_round.get(change.round, [])
        best, best_push = _hardest([s for s in heard if s.side in ("", change.after)], change)
        against, against_push = _hardest([s for s in heard if s.side not in ("", change.after)], change)
        if against_push <= best_push:
            against, against_push = None, 0.0
        causes.append(Cause(change, best, best_push, against, against_push))
    return causes


@dataclass(frozen=True)
class KeyMoment:
    """One of the speeches that moved the jury most, and what followed from it."""

    speech: Speech
    figures: Figures
    most_moved: tuple[Reaction, ...]  # its listeners who moved most, largest first
    changes: tuple[VoteChange, ...] = field(default=())  # the vote changes it is the cause of

    @property
    def against_side(self) -> bool:
        """Its listeners moved, on balance, away from the side it argued."""
        return bool(self.speech.side) and self.figures.direction not in ("flat", self.speech.side)


def key_moments(speeches: list[Speech], causes: list[Cause], *, limit: int = KEY_MOMENTS) -> list[KeyMoment]:
    """The ``limit`` speeches with the largest total movement, largest first (earlier first on a tie);
    speeches that moved nobody are never key moments."""
    caused: dict[int, list[VoteChange]] = {}
    for cause in causes:
        if cause.speech is not None:
            caused.setdefault(cause.speech.sequence, []).append(cause.change)
    scored = [(figures(s), s) for s in speeches]
    ranked = sorted((pair for pair in scored if pair[0].moved >= STILL), key=lambda p: (-p[0].moved, p[1].sequence))
    return [
        KeyMoment(
            speech=speech,
            figures=figs,
            most_moved=tuple(
                sorted((r for r in speech.reactions if abs(r.delta) >= STILL), key=lambda r: (-abs(r.delta), r.seat))[
                    :TOP_LISTENERS
                ]
            ),
            changes=tuple(caused.get(speech.sequence, ())),
        )
        for figs, speech in ranked[:limit]
    ]


@dataclass(frozen=True)
class GroupSummary:
    """One jury at a glance: the row a class page puts beside its other rooms' rows."""

    deliberation_id: int
    label: str
    verdict: str
    end_reason: str
    rounds: int
    vote_changes: int
    speeches: int
    moving: tuple[KeyMoment, ...]  # the arguments that moved this jury most

    @property
    def verdict_label(self) -> str:
        return VERDICT_WORDS.get(self.verdict, self.verdict or "no verdict")


def group_summary(
    *,
    deliberation_id: int,
    label: str,
    verdict: str,
    end_reason: str,
    rounds: int,
    speeches: list[Speech],
    changes: list[VoteChange],
    limit: int = TOP_LISTENERS,
) -> GroupSummary:
    return GroupSummary(
        deliberation_id=deliberation_id,
        label=label,
        verdict=verdict,
        end_reason=end_reason,
        rounds=rounds,
        vote_changes=len(changes),
        speeches=len(speeches),
        moving=tuple(key_moments(speeches, vote_change_causes(speeches, changes), limit=limit)),
    )
