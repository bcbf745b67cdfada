"""One round of deliberation: ``await run_round(state, case=..., jury=..., mind=...)``.

The order of a round, and why:

1. The foreperson's rule-based lines (no model call); a silent juror it invites is favoured.
2. On summary rounds the summarize call starts at once, concurrently with everything below: it
   folds turns from earlier rounds, which nothing in this round changes.
3. Participants' speeches come first (a ready ``Speech`` costs no call; a ``PlayerMove`` is one
   ``craft_argument`` call), then the 1-4 chosen AI jurors speak one after the other, each seeing
   the speeches before it so it can answer the previous speaker. Participants add turns to the
   round, never take the AI jurors' (in a room they spoke after the previous round's AI speakers,
   one turn each, and the jury hears them first thing in this round).
4. ONE ``react_batch`` call gives every AI listener's reaction to every speech of the round; the
   engine applies the conviction formula per listener per speech, in speech order, then trust,
   then votes with hysteresis.
5. Memory, participation and the stability counter are updated and the end conditions checked.

Calls per round: speakers (player moves included) + 1, plus 1 on summary rounds. Every call counts
as one ``llm_call`` whichever mind answers. With a token or cost budget set, once the running
total passes it the remaining calls go to the fallback mind (the offline engine) and a ``note``
line says so.

A call the model failed (or the budget skipped) is answered by the offline engine and recorded in
``RoundResult.failures`` with its kind and cause; a stand-in speech carries the cause in its usage,
and failed reactions or summaries leave a note in the round (``engine.failures``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

from deliberation.engine import memory as mem
from deliberation.engine import params
from deliberation.engine.conviction import (
    apply_delta,
    archetype_modifier,
    conviction_delta,
    trust_after,
    trust_decayed,
    vote_after,
)
from deliberation.engine.ending import end_reason
from deliberation.engine.failures import (
    DETAIL_BUDGET,
    NOTE_REACTIONS_FAILED,
    NOTE_SUMMARY_FAILED,
    CallFailure,
    CallKind,
    cause_label,
)
from deliberation.engine.foreperson import ProcessLine, lines_for_round
from deliberation.engine.phases import PhaseError, require
from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
    Impression,
    Listener,
    Mind,
    ReactRequest,
    SpeakRequest,
    SummarizeRequest,
    SummaryResult,
    TextSink,
)
from deliberation.engine.results import Flip, PlayerMove, ReactionRecord, RoundResult
from deliberation.engine.simple_retriever import SimpleRetriever
from deliberation.engine.state import DeliberationState
from deliberation.engine.strategies import item_label, validate_move
from deliberation.engine.turns import ai_seats, select_active_listeners, select_speakers, speaker_count
from deliberation.engine.types import CaseFile, JurorProfile, Retriever, Speech, Usage

ALREADY_ENDED = "This deliberation has already ended ({reason}); no more rounds can be run."
BUDGET_NOTE = "The model budget for this deliberation is spent; the jurors continue on the offline engine."
MIND_FAILED_NOTE = "{name}'s turn fell back to the offline engine after the model failed."
PASSAGES_PER_SPEAKER = 3
PASSAGES_PER_READING = 4  # what the retriever finds for each speech, for the listeners' reading
EARLIER_TURNS = 40


def heard(speech: Speech, round_number: int) -> HeardTurn:
    return HeardTurn(
        round_number=round_number,
        seat=speech.seat,
        speaker_name=speech.speaker_name,
        content=speech.content,
        argument_type=speech.argument_type,
        target_seat=speech.target_seat,
        position=speech.position or "",
    )


def default_fallback() -> Mind:
    from deliberation.minds.offline import OfflineMind  # the engine's own default mind

    return OfflineMind()


class _Round:
    """The mutable bookkeeping of one round in flight."""

    def __init__(
        self,
        state: DeliberationState,
        case: CaseFile,
        jury: Sequence[JurorProfile],
        mind: Mind,
        fallback: Mind,
        retriever: Retriever,
        on_text: TextSink | None,
    ) -> None:
        self.state = state
        self.case = case
        self.jury = tuple(sorted(jury, key=lambda j: j.seat))
        self.by_seat = {j.seat: j for j in self.jury}
        self.mind = mind
        self.fallback = fallback
        self.retriever = retriever
        self.on_text = on_text
        self.result = RoundResult(round_number=state.round_number, engine=self.current_mind().name)
        self.speeches: list[Speech] = []
        self.labels = {item.id: item.label for item in case.evidence} | {w.id: w.name for w in case.witnesses}
        self.named = {item.id: mem.named(item.label, witness=False) for item in case.evidence}
        self.named |= {w.id: w.name for w in case.witnesses}

    def label_of(self, speech: Speech) -> tuple[str, str]:
        """The item a speech rested on: its id and its name in the case file ("", "" when none)."""
        item_id = next((cited for cited in speech.cited if cited in self.labels), "")
        return item_id, self.labels.get(item_id, "")

    def current_mind(self) -> Mind:
        return self.fallback if self.state.budget_exhausted else self.mind

    def account(self, usage: Usage, mind: Mind) -> None:
        self.result.usage.add(usage, fallback=mind is not self.mind)
        totals = self.state.usage
        totals["calls"] = totals.get("calls", 0) + 1
        totals["prompt_tokens"] = totals.get("prompt_tokens", 0) + usage.prompt_tokens
        totals["completion_tokens"] = totals.get("completion_tokens", 0) + usage.completion_tokens
        totals["cost_usd"] = totals.get("cost_usd", 0.0) + usage.cost_usd
        self.check_budget()

    def record_failure(self, kind: CallKind, usage: Usage, mind: Mind, seat: int | None = None) -> Usage:
        """Record the call as failed when the model failed or the spent budget skipped it.

        Returns the usage as the record keeps it: for a failure, marked fallback with its cause.
        """
        if not usage.fallback and mind is self.fallback and self.mind is not self.fallback:
            usage = dataclasses.replace(usage, fallback=True, cause="budget", note=DETAIL_BUDGET)
        if usage.fallback:
            usage = dataclasses.replace(usage, cause=usage.cause or "error")
            self.result.failures.append(CallFailure(kind, usage.cause, usage.note, seat))  # type: ignore[arg-type]
        return usage

    def check_budget(self) -> None:
        settings, totals = self.state.settings, self.state.usage
        if self.state.budget_exhausted:
            return
        tokens = totals.get("prompt_tokens", 0) + totals.get("completion_tokens", 0)
        over_tokens = settings.budget_tokens is not None and tokens >= settings.budget_tokens
        over_cost = settings.budget_cost_usd is not None and totals.get("cost_usd", 0.0) >= settings.budget_cost_usd
        if over_tokens or over_cost:
            self.state.budget_exhausted = True
            self.note(BUDGET_NOTE)

    def note(self, text: str) -> None:
        self.result.process_lines.append(
            ProcessLine(
                self.state.round_number, text, kind="note", speaker_name="Note", after_speeches=len(self.speeches)
            )
        )

    def round_turns(self) -> tuple[HeardTurn, ...]:
        return tuple(heard(s, self.state.round_number) for s in self.speeches)

    def last_content(self, seat: int) -> str:
        if self.speeches:
            return self.speeches[-1].content
        past = self.state.memories[seat].heard
        return past[-1].content if past else ""

    def passages(self, seat: int, extra: str = "") -> tuple:
        memory = self.state.memories[seat]
        query = " ".join([*memory.doubts[:2], self.last_content(seat), extra])
        return tuple(self.retriever.lookup(query, PASSAGES_PER_SPEAKER))

    async def call_speaker(self, call, request, fallback_call, name: str, *, kind: CallKind, seat: int) -> Speech:
        mind = self.current_mind()
        try:
            speech = await call(mind, request)
        except Exception as exc:  # a mind must not end the deliberation: the turn is retried offline
            if mind is self.fallback:
                raise
            failed = Usage(fallback=True, cause="error", note=f"the mind raised {type(exc).__name__}: {exc}"[:300])
            self.account(failed, mind)
            self.record_failure(kind, failed, mind, seat)
            self.note(MIND_FAILED_NOTE.format(name=name))
            speech = await fallback_call(self.fallback, request)
            self.account(speech.usage, self.fallback)
            speech.is_fallback, speech.usage = True, failed  # the turn keeps the reason it is a stand-in
            return speech
        self.account(speech.usage, mind)
        speech.usage = self.record_failure(kind, speech.usage, mind, seat)
        speech.is_fallback = speech.is_fallback or speech.usage.fallback
        return speech

    async def player_speech(self, move: PlayerMove) -> Speech:
        validate_move(strategy=move.strategy, side=move.side, target_seat=move.target_seat, free_text=move.free_text)
        player = self.by_seat[move.seat]
        request = CraftRequest(
            player=player,
            side=move.side,
            strategy=move.strategy,
            case=self.case,
            recent=mem.recent_turns(self.state.memories[move.seat], player.memory_window, self.round_turns()),
            passages=self.passages(
                move.seat, f"{move.strategy.replace('_', ' ')} {item_label(self.case, move.item_id)} {move.free_text}"
            ),
            round_number=self.state.round_number,
            tally=self.state.tally(),
            jury=self.jury,
            target_seat=move.target_seat,
            free_text=move.free_text,
            seed=self.state.next_seed(),
            item_id=move.item_id,
        )

        async def craft(mind: Mind, req: CraftRequest) -> Speech:
            return await mind.craft_argument(req, on_text=self.on_text)

        speech = await self.call_speaker(craft, request, craft, player.name, kind="argument", seat=player.seat)
        speech.seat, speech.speaker_name = player.seat, player.name
        speech.strategy = move.strategy
        speech.position = "guilty" if move.side == "prosecute" else "not_guilty"
        if speech.target_seat is None:
            speech.target_seat = move.target_seat
        return speech

    async def juror_speech(self, seat: int) -> Speech:
        juror = self.by_seat[seat]
        memory = self.state.memories[seat]
        request = SpeakRequest(
            juror=juror,
            outlook=memory.outlook(),
            case=self.case,
            recent=mem.recent_turns(memory, juror.memory_window, self.round_turns()),
            passages=self.passages(seat),
            round_number=self.state.round_number,
            tally=self.state.tally(),
            jury=self.jury,
            seed=self.state.next_seed(),
        )

        async def speak(mind: Mind, req: SpeakRequest) -> Speech:
            return await mind.speak(req, on_text=self.on_text)

        speech = await self.call_speaker(speak, request, speak, juror.name, kind="speech", seat=juror.seat)
        speech.seat, speech.speaker_name = juror.seat, juror.name
        if speech.position not in ("guilty", "not_guilty"):
            speech.position = memory.vote  # type: ignore[assignment]
        if speech.own_shift:  # a change of mind of the speaker's own, as they speak
            shift = max(-params.MAX_OWN_SHIFT, min(params.MAX_OWN_SHIFT, speech.own_shift))
            memory.conviction = apply_delta(memory.conviction, shift)
        return speech


async def _summarize(mind: Mind, request: SummarizeRequest) -> SummaryResult:
    return await mind.summarize(request)


async def run_round(
    state: DeliberationState,
    *,
    case: CaseFile,
    jury: Sequence[JurorProfile],
    mind: Mind,
    retriever: Retriever | None = None,
    injected: Sequence[Speech | PlayerMove] = (),
    fallback: Mind | None = None,
    on_text: TextSink | None = None,
) -> RoundResult:
    """Run the next round on ``state`` (phase ``deliberation``), mutating it; return what happened.

    ``injected`` are the participants' contributions for this round, spoken first and in order:
    a ready ``Speech`` (typed by a human or an external agent: no model call) or a ``PlayerMove``
    that the mind crafts into an argument. After the call ``state.end_reason`` is set when an end
    condition holds; the service then moves the phase to ``final_vote``.
    """
    require(state, "deliberation")
    if state.end_reason:
        raise PhaseError(ALREADY_ENDED.format(reason=state.end_reason))
    state.round_number += 1
    number = state.round_number
    work = _Round(state, case, jury, mind, fallback or default_fallback(), retriever or SimpleRetriever(case), on_text)
    result = work.result
    if state.settings.foreperson:
        result.process_lines.extend(lines_for_round(state, work.jury))
    invited = {line.target_seat for line in result.process_lines if line.target_seat is not None}

    summary_task: asyncio.Task[SummaryResult] | None = None
    summary_mind = work.current_mind()
    folded = 0
    ai = ai_seats(work.jury)
    if ai and mem.is_summary_round(number, state.settings.summary_interval):
        old = mem.turns_to_fold(state.memories[ai[0].seat], state.settings.keep_recent)
        if old:
            folded = len(old)
            request = SummarizeRequest(
                case=case,
                turns=tuple(old),
                previous_summary=state.summary,
                jurors=tuple(ai),
                round_number=number,
                seed=state.next_seed(),
            )
            summary_task = asyncio.create_task(_summarize(summary_mind, request))

    try:
        for item in injected:
            if isinstance(item, PlayerMove):
                work.speeches.append(await work.player_speech(item))
            else:
                if item.position is None:  # a typed speech argues its author's current vote
                    item.position = state.votes.get(item.seat)  # type: ignore[assignment]
                work.speeches.append(item)
        addressed = invited | {
            seat for seat, m in state.memories.items() if m.addressed_round == number - 1 and number > 1
        }
        addressed |= {s.target_seat for s in work.speeches if s.target_seat is not None}
        count = speaker_count(state, state.rng)
        for seat in select_speakers(state, work.jury, count=count, addressed=addressed, rng=state.rng):
            work.speeches.append(await work.juror_speech(seat))
        await _react_and_apply(work, addressed)
    finally:
        summary = await summary_task if summary_task is not None else None
    if summary is not None:
        work.account(summary.usage, summary_mind)
        _note_failure(work, "summary", summary.usage, summary_mind, NOTE_SUMMARY_FAILED)
        _fold(state, ai, folded, summary)
        result.summarized = True

    _close_round(work)
    return result


async def _react_and_apply(work: _Round, addressed: set[int]) -> None:
    state, result = work.state, work.result
    result.speeches = work.speeches
    listeners_profiles = ai_seats(work.jury)
    if not work.speeches or not listeners_profiles:
        return
    active = select_active_listeners(state, work.jury, addressed=addressed, rng=state.rng)
    result.active_listeners = tuple(sorted(active))
    request = ReactRequest(
        case=work.case,
        speeches=tuple(work.speeches),
        listeners=tuple(
            Listener(juror=j, outlook=state.memories[j.seat].outlook(), active=j.seat in active)
            for j in listeners_profiles
        ),
        round_number=state.round_number,
        seed=state.next_seed(),
        passages=tuple(tuple(work.retriever.lookup(s.content, PASSAGES_PER_READING)) for s in work.speeches),
        earlier=_earlier(state, listeners_profiles),
    )
    mind = work.current_mind()
    batch = await mind.react_batch(request)
    work.account(batch.usage, mind)
    _note_failure(work, "reaction", batch.usage, mind, NOTE_REACTIONS_FAILED)
    by_pair = {(r.seat, r.speech_index): r for r in batch.reactions}
    votes_before = {j.seat: state.memories[j.seat].vote for j in listeners_profiles}
    for index, speech in enumerate(work.speeches):
        for juror in listeners_profiles:
            if juror.seat == speech.seat:
                continue
            memory = state.memories[juror.seat]
            reaction = by_pair.get((juror.seat, index))
            base = max(-1.0, min(1.0, reaction.base_impact)) if reaction else 0.0
            trust = memory.opinions.get(speech.seat, 0.0)
            delta = conviction_delta(
                base_impact=base,
                modifier=archetype_modifier(juror.modifiers, speech.argument_type),
                stubbornness=juror.stubbornness,
                trust=trust,
                conviction=memory.conviction,
                volatility=juror.volatility,
                rng=state.rng,
            )
            memory.conviction = apply_delta(memory.conviction, delta)
            persuaded = bool(reaction and reaction.persuaded)
            memory.opinions[speech.seat] = trust_after(
                trust, agrees=speech.position == votes_before[juror.seat], persuaded=persuaded
            )
            thought = reaction.thought if reaction else ""
            item_id, label = work.label_of(speech)
            impression = Impression(
                state.round_number,
                speech.seat,
                speech.speaker_name,
                speech.position or "",
                item_id,
                label,
                round(delta, 4),
                persuaded,
                thought,
            )
            mem.note_impression(memory, impression, vote=votes_before[juror.seat], words=work.named.get(item_id, ""))
            result.reactions.append(
                ReactionRecord(juror.seat, index, base, delta, thought, persuaded, juror.seat in active)
            )
            if juror.seat in active:
                _update_reasoning(memory, speech, base, persuaded, thought, state.round_number)


def _earlier(state: DeliberationState, listeners: list[JurorProfile]) -> tuple[HeardTurn, ...]:
    """The turns the room still holds in full (a listener's memory; summaries fold the older ones)."""
    longest = max((state.memories[j.seat].heard for j in listeners), key=len, default=[])
    return tuple(longest[-EARLIER_TURNS:])


def _note_failure(work: _Round, kind: CallKind, usage: Usage, mind: Mind, note: str) -> None:
    """Record a failed reaction or summary call, and say so in the round (the budget says so once)."""
    recorded = work.record_failure(kind, usage, mind)
    if recorded.fallback and recorded.cause != "budget":
        work.note(note.format(cause=cause_label(recorded.cause)))


def _update_reasoning(memory, speech: Speech, base: float, persuaded: bool, thought: str, number: int) -> None:
    """Active listeners carry the argument into their reasoning state (memory layer 3)."""
    if persuaded:
        mem.add_reasoning(memory, f"Round {number}: {speech.speaker_name} convinced me: {thought}".strip())
    for doubt in list(memory.doubts):
        label = doubt.split(":", 1)[0].lower()
        if label and label in speech.content.lower():
            if base > 0.2:
                mem.settle_doubt(memory, doubt)  # answered by an argument for guilt
            return
    if base < -0.2 and speech.cited:
        mem.add_doubt(memory, f"{speech.cited[0]}: raised by {speech.speaker_name}")


def _fold(state: DeliberationState, ai: list[JurorProfile], folded: int, summary: SummaryResult) -> None:
    shared = summary.summaries.get(0) or next(iter(summary.summaries.values()), state.summary)
    state.summary = shared
    for memory in state.memories.values():
        mem.fold(memory, folded=folded, summary=summary.summaries.get(memory.seat, shared))


def _close_round(work: _Round) -> None:
    state, result = work.state, work.result
    number = state.round_number
    for juror in ai_seats(work.jury):
        memory = state.memories[juror.seat]
        after = vote_after(memory.vote, memory.conviction)
        if after != memory.vote:
            result.flips.append(Flip(juror.seat, memory.vote, after))
            memory.vote = after
            memory.flipped_round = number
            state.votes[juror.seat] = after
    for flip in result.flips:  # every AI juror flags the room's vote changes, its own included
        for juror in ai_seats(work.jury):
            own = juror.seat == flip.seat
            name = work.by_seat[flip.seat].name
            mem.note_flip(state.memories[juror.seat], round_number=number, name=name, after=flip.after, own=own)
    for speech in work.speeches:
        speaker = state.memories.get(speech.seat)
        if speaker is not None:
            speaker.spoke_count += 1
            speaker.last_spoke_round = number
            mem.remember(speaker.arguments_made, speech.content[:200], 10)
            mem.note_spoken(speaker, label=work.label_of(speech)[1], answered=speech.target_seat)
            if speech.reasoning:
                mem.add_reasoning(speaker, speech.reasoning)
        if speech.target_seat in state.memories:
            state.memories[speech.target_seat].addressed_round = number
    turns = work.round_turns()
    for memory in state.memories.values():
        memory.heard.extend(turns)
        memory.conviction_history.append(memory.conviction)
        memory.opinions = {seat: trust_decayed(t) for seat, t in memory.opinions.items()}
    previous = state.vote_history[-1] if state.vote_history else {}
    changes = sum(1 for seat, vote in state.votes.items() if previous.get(seat, vote) != vote)
    state.vote_changes += changes
    state.rounds_without_change = 0 if changes else state.rounds_without_change + 1
    state.vote_history.append(dict(state.votes))
    state.last_speakers = [s.seat for s in work.speeches]
    result.convictions = state.convictions
    result.votes = dict(sorted(state.votes.items()))
    result.tally = state.tally()
    participants = [juror.seat for juror in work.jury if juror.kind != "ai"]
    result.end_reason = end_reason(state, participants) or ""
    state.end_reason = result.end_reason
