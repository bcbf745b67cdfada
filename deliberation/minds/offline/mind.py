"""The offline engine: a rule-based mind that argues from the case file, with no network.

Each call is deterministic for its ``seed``. A speech argues the side its archetype and memory
choose (``offline_archetypes``: usually the juror's vote; the contrarian's devil's advocacy, the
conformist's echo, the wildcard's change of mind; a counter-point it kept to answer), picks a
piece of the case file that helps that side and that it has not argued before (named evidence or
a witness, with its contest reason or credibility issues), rates its strength from the evidence
(strength_prosecution against strength_defense, contestability, credibility issues), picks an
argument type from the archetype's style, answers the previous speaker (or the juror it means to
answer or echo) by name and closes in the persona's voice. Reactions are computed from the
speech's strength, its argument type, the listener's doubts and the room's majority; the engine
then applies the personality modifiers.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from deliberation.engine import params
from deliberation.engine.judge import join_names  # pure Python: how a list of names sounds
from deliberation.engine.moves import Thought
from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
    ReactionBatch,
    ReactRequest,
    SpeakRequest,
    SummarizeRequest,
    SummaryResult,
    TextSink,
)
from deliberation.engine.strategies import spoken, validate_move
from deliberation.engine.types import Reaction, Speech, Usage
from deliberation.minds.offline import archetypes, phrases, reflection, voices
from deliberation.minds.offline.craft import STRATEGY_TYPES, craft, free_point
from deliberation.minds.offline.naming import agree, plural_head
from deliberation.minds.offline.points import (
    all_points,
    choose_point,
    defendant_name,
    fallback_point,
    item_name,
    label_short,
    mention,
    pick_type,
    stance,
    strength_of,
    voice,
)
from deliberation.minds.offline.reading import heard_counts, read
from deliberation.minds.offline.saying import Said, pick
from deliberation.minds.offline.speech import build_on, has_news, say, seated_name, short_name, their_item

OFFLINE_NAME = "offline"
THOUGHT_WORDS = 10
ASIDE_CHANCE = 0.2  # how often a juror remarks on the count or the round
BUILD_CHANCE = 0.6  # how often a reply names the item the previous speaker argued
# How often a persona ends on a line of its own: the impatient juror nearly always, the others now and then.
CLOSER_CHANCE = {"impatient": 0.9, "moralist": 0.6, "cynic": 0.6, "everyman": 0.4}


def ally_hold(allies: int) -> float:
    """The share of an argument against its vote that a minority juror takes in: all of it alone,
    less once another juror votes with it (Asch: a single ally is most of the support a dissenter needs)."""
    return 1.0 - params.ALLY_HOLD if allies > 0 else 1.0


def previous_turn(seat: int, recent: tuple[HeardTurn, ...]) -> HeardTurn | None:
    for turn in reversed(recent):
        if turn.kind == "speech" and turn.seat != seat:
            return turn
    return None


def usage_since(start: float) -> Usage:
    return Usage(calls=1, latency_ms=int((time.perf_counter() - start) * 1000))


def emit(on_text: TextSink | None, seat: int, content: str) -> None:
    if on_text is None:
        return
    for word in content.split(" "):
        on_text(seat, word + " ")


class OfflineMind:
    """The embedded default mind: rule-based, deterministic per seed, no network."""

    name = OFFLINE_NAME

    async def speak(self, request: SpeakRequest, *, on_text: TextSink | None = None) -> Speech:
        start = time.perf_counter()
        rng = random.Random(request.seed)
        juror, outlook, case = request.juror, request.outlook, request.case
        choice = archetypes.choose(juror, outlook, request.tally, request.round_number, rng)
        side = choice.side
        archetype = juror.archetype if juror.archetype in voices.OPEN_FRESH else "everyman"
        previous = archetypes.replied_turn(choice) or previous_turn(juror.seat, request.recent)
        hot = " ".join([previous.content if previous else "", *(p.label for p in request.passages)])
        if choice.behaviour == "own_turn":  # the wildcard's reasons are its own, not the room's
            hot = ""
        points = all_points(case, side, rng) or [fallback_point(case, side)]
        strongest = [p.label for p in sorted(points, key=lambda p: -p.force)]
        spoken = [(turn.position, turn.content) for turn in request.recent if turn.kind == "speech"]
        withdrawn = reflection.has_nothing_to_add(outlook, strongest, side, spoken)
        points = archetypes.fresh_points(points, outlook, request.recent)
        said = Said([*request.said, *(turn.content for turn in request.recent if turn.kind == "speech")])
        points = [p for p in points if has_news(p, case, said, archetype, side)] or points  # something not yet said
        point = choose_point(points, rng, seat=juror.seat, recent=request.recent, hot=hot)
        kind = pick_type(juror, rng)
        others = [mention(p) for p in points if p.label != point.label] or [mention(point)]
        parts: list[str] = []

        def add(line: str, *, again: bool = False) -> None:
            if line and (again or not said.repeats(line)):
                parts.append(line)
                said.add(line)

        if previous is not None:
            their_side = previous.position or ("guilty" if stance(previous.content) > 0 else "not_guilty")
            name = short_name(seated_name(previous.seat, previous.speaker_name, request.jury), request.jury)
            opener = ""
            if rng.random() < BUILD_CHANCE:
                opener = build_on(name, their_item(case, previous.content), their_side == side, rng, said)
            if not opener:
                table = voice(voices.OPEN_AGREE if their_side == side else voices.OPEN_DISAGREE, archetype)
                opener = pick([(t, t.format(name=name)) for t in table], rng, said, required=False)
            if not opener:  # a reply names who it answers, in the plainest words the game has used least
                opener = pick([(t, t.format(name=name)) for t in voices.ADDRESS], rng, said)
            add(opener, again=True)
        else:
            add(pick([(t, t) for t in voice(voices.OPEN_FRESH, archetype)], rng, said, required=False))
        leads = archetypes.lead_options(choice, request.tally)
        if side != ("guilty" if outlook.vote == "guilty" else "not_guilty") and leads:
            # Arguing against its own vote, a juror says why (devil's advocate, won over, going along),
            # in words the room has not heard if there are any: words that go against the vote unexplained
            # read as a slip.
            lead = next((line for line in leads if not said.repeats(line)), "")
            add(lead or pick([(line, line) for line in leads], rng, said), again=True)
        else:
            add(choice.lead)
        if archetype != "impatient":  # the impatient juror goes straight to its point
            add(archetypes.recall_line(outlook, rng, said.text, side))
        caught = reflection.contradiction(outlook, previous.seat, request.round_number) if previous else None
        if caught is not None:
            add(reflection.contradiction_line(caught, juror.seat + request.round_number))
        add(say(point, kind, side, case, rng, said, archetype=archetype, other=rng.choice(others)), again=True)
        if rng.random() < juror.verbosity and len(points) > 1 and archetype != "impatient":
            extra = choose_point(
                [p for p in points if p is not point], rng, seat=juror.seat, recent=request.recent, hot=""
            )
            add(say(extra, kind, side, case, rng, said, archetype=archetype, other=mention(point)))
        if rng.random() < ASIDE_CHANCE and archetype != "impatient":
            tally = request.tally
            asides = [a for a in phrases.ROUND_ASIDES if request.round_number >= 3 or "rounds" not in a]
            values = {
                "round": request.round_number,
                "guilty": tally.get("guilty", 0),
                "not_guilty": tally.get("not_guilty", 0),
            }
            add(pick([(a, a.format(**values)) for a in asides], rng, said, required=False))
        if rng.random() < CLOSER_CHANCE.get(archetype, CLOSER_CHANCE["everyman"]):
            closers = voice(voices.CLOSE_GUILTY if side == "guilty" else voices.CLOSE_NOT_GUILTY, archetype)
            if side != (
                "guilty" if outlook.vote == "guilty" else "not_guilty"
            ):  # arguing the other side (devil's advocacy): no closer names a verdict
                closers = tuple(c for c in closers if "guilty" not in c.lower()) or closers
            defendant = defendant_name(case)
            add(pick([(c, c.format(defendant=defendant)) for c in closers], rng, said, required=False))
        add(archetypes.press_line(juror, request.round_number, rng, said.text))
        if withdrawn:
            lines = reflection.WITHDRAW_LINES
            first = (juror.seat + request.round_number) % len(lines)
            ordered = [lines[(first + n) % len(lines)] for n in range(len(lines))]
            add(next((line for line in ordered if not said.repeats(line)), ordered[0]), again=True)
        content = " ".join(part for part in parts if part)
        emit(on_text, juror.seat, content)
        certainty = abs(outlook.conviction - 0.5) * 2
        return Speech(
            seat=juror.seat,
            speaker_name=juror.name,
            content=content,
            argument_type=kind,
            target_seat=previous.seat if previous else None,
            position=side,  # type: ignore[arg-type]
            reasoning=f"{archetypes.REASONS.get(choice.behaviour, '')}{point.label}: {point.reason or point.detail}"[
                :200
            ],
            strength=strength_of(point, side, kind, certainty),
            cited=(point.item_id,),
            usage=usage_since(start),
            own_shift=choice.own_shift,
            withdrawn=withdrawn,
        )

    async def react_batch(self, request: ReactRequest) -> ReactionBatch:
        """Each listener's reaction to each speech, from the offline reading of what it says
        (``offline_reading``: the items it is about, which way it treats them, how specific and how
        new it is, weighed for the listener's archetype), the room's majority and the listener's doubts."""
        start = time.perf_counter()
        rng = random.Random(request.seed)
        labels = {item.id: label_short(item_name(item.label, request.case)) for item in request.case.evidence}
        labels.update({w.id: w.name for w in request.case.witnesses})
        influence = {listener.juror.seat: listener.juror.influence for listener in request.listeners}
        votes = [listener.outlook.vote for listener in request.listeners]
        guilty_share = votes.count("guilty") / len(votes) if votes else 0.5
        majority = "guilty" if guilty_share > 0.5 else "not_guilty" if guilty_share < 0.5 else ""
        sides = Counter(votes)
        pressure = params.MAJORITY_PRESSURE * abs(guilty_share - 0.5) * 2
        # A round's pull is at most that of PRESSURE_SPEECHES speeches, however many people add theirs.
        pressure *= min(1.0, params.PRESSURE_SPEECHES / max(1, len(request.speeches)))
        readings = [
            read(request.case, speech.content, request.passages[i] if i < len(request.passages) else ())
            for i, speech in enumerate(request.speeches)
        ]
        heard = heard_counts(read(request.case, turn.content) for turn in request.earlier if turn.kind == "speech")
        heard_before: list[dict[tuple[str, int], int]] = []
        for reading in readings:  # a point made earlier in the same round has been heard too
            heard_before.append(dict(heard))
            heard = heard_counts([reading], heard)
        reactions: list[Reaction] = []
        for listener in request.listeners:
            outlook = listener.outlook
            for index, speech in enumerate(request.speeches):
                if speech.seat == listener.juror.seat:
                    continue
                reading = readings[index]
                strength = reading.impact_for(listener.juror.archetype, heard_before[index])
                speaker_weight = params.INFLUENCE_FLOOR + params.INFLUENCE_SCALE * influence.get(speech.seat, 0.6)
                base = strength * params.ARGUMENT_SCALE * speaker_weight
                touched = any(d.split(":", 1)[0].lower() in speech.content.lower() for d in outlook.doubts if d)
                if touched and base < 0:
                    base *= params.DOUBT_RESONANCE
                pressing = not params.PRESSURE_WITH_ARGUMENTS or speech.position == majority
                if majority and outlook.vote != majority and pressing:  # the room's weight behind its arguments
                    base += pressure if majority == "guilty" else -pressure
                if not listener.active:
                    base *= params.PASSIVE_ATTENTION
                if majority and outlook.vote != majority and (base > 0) == (outlook.vote != "guilty"):
                    base *= ally_hold(sides[outlook.vote] - 1)  # a minority with allies holds its ground
                base += rng.uniform(-params.REACTION_JITTER, params.REACTION_JITTER)
                base = max(-1.0, min(1.0, base))
                against = (base > 0) == (outlook.vote != "guilty")
                persuaded = against and abs(base) >= params.PERSUADED_THRESHOLD
                label = reading.named or "that argument"
                reactions.append(
                    Reaction(
                        seat=listener.juror.seat,
                        speech_index=index,
                        base_impact=base,
                        thought=self._thought(rng, persuaded, against, speech, label, outlook.vote, base),
                        persuaded=persuaded,
                    )
                )
        return ReactionBatch(reactions=tuple(reactions), usage=usage_since(start))

    @staticmethod
    def _thought(
        rng: random.Random, persuaded: bool, against: bool, speech: Speech, label: str, vote: str, base: float
    ) -> Thought:
        """The listener's thought: the words its impact points to, with its words for every kind of
        move (``engine.moves``), so the words shown beside the move the engine computes agree with it.
        One draw, as from one pool, whichever words are shown."""
        pool = voices.THOUGHT_PERSUADED if persuaded else voices.THOUGHT_UNMOVED if against else voices.THOUGHT_AGREE
        drawn = rng.randrange(len(pool))
        first = short_name(speech.speaker_name) if speech.speaker_name else "They"  # "Dr. Wright", not "Dr."
        short = label[:1].upper() + label[1:]

        def said(options: tuple[str, ...]) -> str:
            """The drawn words of a pool, or the next that fits in ``THOUGHT_WORDS`` whole (a thought
            cut short could lose the words that say how it moved); with a long label, "that"."""
            ordered = [options[(drawn + n) % len(options)] for n in range(len(options))]
            for named, Named in ((label, short), ("that", "That")):
                for option in ordered:
                    words = agree(option, plural_head(named)).format(name=first, short=named, Short=Named)
                    if len(words.split()) <= THOUGHT_WORDS:
                        return words
            return " ".join(words.split()[:THOUGHT_WORDS])

        side = speech.position or ("guilty" if base >= 0 else "not_guilty")
        clear = voices.THOUGHT_AGREE if vote == side else voices.THOUGHT_PERSUADED
        words = {
            "clear": said(clear),
            "little": said(voices.THOUGHT_A_LITTLE),
            "unmoved": said(voices.THOUGHT_UNMOVED),
            "away": said(voices.THOUGHT_PUSHED_BACK),
        }
        # For a listener whose vote turns this round: moved clearly towards a side it then leaves, it
        # grants the point; unmoved or pushed back, it does not say its view stands.
        turning = {
            "clear": said(voices.THOUGHT_GRANTED if vote == side else voices.THOUGHT_PERSUADED),
            "little": words["little"],
            "unmoved": said(voices.THOUGHT_UNMOVED_TURNING),
            "away": said(voices.THOUGHT_PUSHED_BACK_TURNING),
        }
        return Thought(said(pool), words=words, towards=1 if side == "guilty" else -1, turning=turning)

    async def summarize(self, request: SummarizeRequest) -> SummaryResult:
        start = time.perf_counter()
        case = request.case
        labels = {item.label: item_name(item.label, case) for item in case.evidence}
        labels.update({w.name: w.name for w in case.witnesses})
        by_speaker: dict[str, list[HeardTurn]] = {}
        for turn in request.turns:
            if turn.kind == "speech":
                by_speaker.setdefault(turn.speaker_name, []).append(turn)
        bullets = [line for line in request.previous_summary.splitlines() if line.startswith("•")]
        # Each point once, under the first speaker who named it in these turns.
        first: dict[str, str] = {}
        for turn in request.turns:
            said = turn.content.lower()
            for named in labels.values():
                if turn.kind == "speech" and named.removeprefix("the ").lower() in said:
                    first.setdefault(named, turn.speaker_name)
        ranked = sorted(by_speaker.items(), key=lambda pair: -len(pair[1]))[:5]
        for name, turns in ranked:
            lean = sum(stance(turn.content) for turn in turns)
            side = "for guilt" if lean > 0 else "for doubt" if lean < 0 else "both ways"
            raised = [named for named, who in first.items() if who == name]
            if raised:
                bullets.append(
                    f"• By round {request.round_number}, {name} raised {join_names(raised[:3])}, arguing {side}."
                )
            else:
                bullets.append(f"• By round {request.round_number}, {name} argued {side}.")
        shared = "\n".join(bullets[-6:])
        summaries = {0: shared}
        for juror in request.jurors:
            own = by_speaker.get(juror.name)
            personal = f"\n• You spoke {len(own)} time(s) in these rounds." if own else ""
            summaries[juror.seat] = shared + personal
        return SummaryResult(summaries=summaries, usage=usage_since(start))

    async def craft_argument(self, request: CraftRequest, *, on_text: TextSink | None = None) -> Speech:
        start = time.perf_counter()
        validate_move(
            strategy=request.strategy, side=request.side, target_seat=request.target_seat, free_text=request.free_text
        )
        rng = random.Random(request.seed)
        side = "guilty" if request.side == "prosecute" else "not_guilty"
        if request.strategy == "free_argument":  # the person's words, exactly as typed, are the whole speech
            crafted, kind, point = "", STRATEGY_TYPES["free_argument"], free_point(request, side, rng)
        else:
            crafted, kind, point = craft(request, side, rng)
        content = spoken(crafted, request.free_text)
        emit(on_text, request.player.seat, content)
        return Speech(
            seat=request.player.seat,
            speaker_name=request.player.name,
            content=content,
            argument_type=kind,
            target_seat=request.target_seat,
            position=side,  # type: ignore[arg-type]
            reasoning=f"{request.strategy}: {point.label}",
            strength=strength_of(point, side, kind, 0.8),
            cited=(point.item_id,) if point.item_id != "summary" else (),
            strategy=request.strategy,
            usage=usage_since(start),
            crafted=crafted,
        )
