"""One round of deliberation: ``await run_round(state, case=..., jury=..., mind=...)``.

The order of a round, and why:

1. The foreperson's rule-based lines (no model call); a silent juror it invites is favoured.
2. On summary rounds the summarize call starts at once, concurrently with everything below: it
   folds turns from earlier rounds, which nothing in this round changes.
3. Participants' speeches come first (a ready ``Speech`` costs no call; a ``PlayerMove`` is one
   ``craft_argument`` call), then the 1-4 chosen AI jurors (participants add turns to the round,
   never take the AI jurors': in a room they spoke after the previous round's AI speakers, one
   turn each, and the jury hears them first thing in this round). Under a model
   (a mind with ``concurrent = True``) the round is planned first (``engine.plan``: who answers
   whom) and every speaker who answers the previous round or a typed speech is generated at the
   same time; only an answer to a crafted argument of this round waits for it. The offline engine
   answers instantly, so its speakers go in line, each hearing the speeches before it.
4. ONE ``react_batch`` call gives every AI listener's reaction to every speech of the round; the
   engine applies the conviction formula per listener per speech, in speech order, then trust,
   then votes with hysteresis.
5. What is left of each AI juror's hunch (``engine.initial``) gives way to the evidence argued
   (``HUNCH_FADE`` of it), then a kept jury's minority yields, votes are recast with hysteresis,
   memory, participation and the stability counter are updated and the end conditions checked.

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
from collections.abc import Sequence
from dataclasses import replace

from deliberation.engine import formats, params
from deliberation.engine import memory as mem
from deliberation.engine import rules as jury_rules
from deliberation.engine.conviction import (
    apply_delta,
    archetype_modifier,
    conviction_delta,
    trust_after,
    trust_decayed,
    vote_after,
)
from deliberation.engine.ending import settle_round
from deliberation.engine.failures import (
    NOTE_REACTIONS_FAILED,
    NOTE_SUMMARY_FAILED,
    CallKind,
    cause_label,
)
from deliberation.engine.foreperson import lines_for_round
from deliberation.engine.phases import PhaseError, require
from deliberation.engine.plan import plan_answers
from deliberation.engine.ports import (
    ArgumentReader,
    HeardTurn,
    Impression,
    Listener,
    Mind,
    ReactRequest,
    SummarizeRequest,
    SummaryResult,
    TextSink,
)
from deliberation.engine.reflection import (
    REASON_YIELDED,
    flip_reason,
    moving_speech,
    note_withdrawals,
    own_speech,
    reply_to,
)
from deliberation.engine.results import Flip, PlayerMove, ReactionRecord, RoundResult
from deliberation.engine.round_work import BUDGET_NOTE, MIND_FAILED_NOTE, RoundWork
from deliberation.engine.simple_retriever import SimpleRetriever
from deliberation.engine.state import SPOKEN_KEPT, DeliberationState
from deliberation.engine.turns import ai_seats, select_active_listeners, select_speakers, speaker_count
from deliberation.engine.types import CaseFile, JurorProfile, Retriever, Speech, Usage

__all__ = ["ALREADY_ENDED", "BUDGET_NOTE", "MIND_FAILED_NOTE", "run_round"]
ALREADY_ENDED = "This deliberation has already ended ({reason}); no more rounds can be run."
PASSAGES_PER_READING = 4  # what the retriever finds for each speech, for the listeners' reading
EARLIER_TURNS = 40


async def _summarize(mind: Mind, request: SummarizeRequest) -> SummaryResult:
    return await mind.summarize(request)


async def run_round(
    state: DeliberationState,
    *,
    case: CaseFile,
    jury: Sequence[JurorProfile],
    mind: Mind,
    fallback: Mind,
    reader: ArgumentReader,
    retriever: Retriever | None = None,
    injected: Sequence[Speech | PlayerMove] = (),
    on_text: TextSink | None = None,
    lesson_left: float | None = None,
) -> RoundResult:
    """Run the next round on ``state`` (phase ``deliberation``), mutating it; return what happened.

    ``injected`` are the participants' contributions for this round, spoken first and in order:
    a ready ``Speech`` (typed by a human or an external agent: no model call) or a ``PlayerMove``
    that the mind crafts into an argument. After the call ``state.end_reason`` is set when an end
    condition holds; the service then moves the phase to ``final_vote``.

    ``fallback`` answers any call the model failed or the budget skipped (the service passes the
    offline mind; a mind given as its own fallback has its failures raised), and ``reader`` tells
    which points of the case file each speech argued (see ``engine.ports``). ``lesson_left``: the
    seconds before the lesson's bell in a room that has one, for the foreperson's time checks.

    A juror the foreperson gives the floor to speaks right after the invitation: the invitation
    follows the participants' speeches, and the invited juror is the round's first AI speaker.
    """
    require(state, "deliberation")
    if state.end_reason:
        raise PhaseError(ALREADY_ENDED.format(reason=state.end_reason))
    state.round_number += 1
    number = state.round_number
    work = RoundWork(state, case, jury, mind, fallback, reader, retriever or SimpleRetriever(case), on_text)
    result = work.result
    if state.settings.foreperson:
        lines = lines_for_round(state, work.jury, lesson_left=lesson_left)
        # the invited juror speaks next: the invitation comes after the participants' speeches
        result.process_lines.extend(
            replace(line, after_speeches=len(injected)) if line.target_seat is not None else line for line in lines
        )
    invited = {line.target_seat for line in result.process_lines if line.target_seat is not None}

    summary_task: asyncio.Task[SummaryResult] | None = None
    summary_mind = work.current_mind()
    folded = 0
    ai = ai_seats(work.jury)
    settings = state.settings
    if ai and formats.folds(settings.context_scope) and mem.is_summary_round(number, settings.summary_interval):
        kept = formats.kept_in_full(settings.context_scope, settings.keep_recent, settings.last_n)
        old = mem.turns_to_fold(state.memories[ai[0].seat], kept)
        if old:
            folded = len(old)
            request = SummarizeRequest(
                case=work.heard_case,
                turns=tuple(old),
                previous_summary=state.summary,
                jurors=tuple(ai),
                round_number=number,
                seed=state.next_seed(),
            )
            summary_task = asyncio.create_task(_summarize(summary_mind, request))

    try:
        addressed = invited | {
            seat for seat, m in state.memories.items() if m.addressed_round == number - 1 and number > 1
        }
        chain = settings.turn_mode == "reply-chain"  # each speaker waits for the one before them
        if getattr(work.current_mind(), "concurrent", False) and not chain:
            await _speak_planned(work, injected, addressed, invited)
        else:
            await _speak_in_line(work, injected, addressed, invited)
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


def _typed(state: DeliberationState, item: Speech) -> Speech:
    if item.position is None:  # a typed speech argues its author's current vote
        item.position = state.votes.get(item.seat)  # type: ignore[assignment]
    return item


async def _speak_in_line(
    work: RoundWork, injected: Sequence[Speech | PlayerMove], addressed: set[int], invited: set[int]
) -> None:
    """An instant mind (the offline engine): each speaker hears every speech before it, in turn."""
    state = work.state
    for item in injected:
        work.speeches.append(await work.player_speech(item) if isinstance(item, PlayerMove) else _typed(state, item))
    addressed |= {s.target_seat for s in work.speeches if s.target_seat is not None}
    count = speaker_count(state, state.rng)
    chain = state.settings.turn_mode == "reply-chain"
    for seat in select_speakers(
        state, work.jury, count=count, addressed=addressed, rng=state.rng, first=min(invited, default=None)
    ):
        answering = reply_to(state, work.speeches) if chain else None
        speech = await work.juror_speech(seat, answering=answering)
        if chain and answering is not None and answering != seat:
            speech.target_seat = answering  # the chain's rule: each speaker answers the one before
        work.speeches.append(speech)


async def _speak_planned(
    work: RoundWork, injected: Sequence[Speech | PlayerMove], addressed: set[int], invited: set[int]
) -> None:
    """A model mind: plan who answers whom, then generate everyone who can go at the same time.

    Participants' crafted arguments start at once (each hearing the typed speeches before it);
    AI speakers who answer one wait for it, the others start at once. Requests and seeds are
    drawn in speaking order before anything is awaited, so a seed still gives the same round.
    """
    state = work.state
    contributions = [item if isinstance(item, PlayerMove) else _typed(state, item) for item in injected]
    ready: list[asyncio.Future[Speech]] = []
    for index, item in enumerate(contributions):
        if isinstance(item, PlayerMove):
            typed = [c for c in contributions[:index] if isinstance(c, Speech)]
            ready.append(asyncio.ensure_future(work.player_speech(item, work.craft_request(item, typed))))
        else:
            done: asyncio.Future[Speech] = asyncio.get_running_loop().create_future()
            done.set_result(item)
            ready.append(done)
    addressed |= {item.target_seat for item in contributions if item.target_seat is not None}
    count = speaker_count(state, state.rng)
    seats = select_speakers(
        state, work.jury, count=count, addressed=addressed, rng=state.rng, first=min(invited, default=None)
    )
    plan = plan_answers(state, seats, contributions)
    seeds = [state.next_seed() for _ in plan]

    async def speak(index: int) -> Speech:
        planned = plan[index]
        crafted = {i: await ready[i] for i in planned.waits_for}
        earlier = [s for i, c in enumerate(contributions) if isinstance(s := crafted.get(i, c), Speech)]
        return await work.juror_speech(planned.seat, earlier=earlier, answering=planned.answering, seed=seeds[index])

    speakers = [asyncio.ensure_future(speak(index)) for index in range(len(plan))]
    try:
        work.speeches.extend(await asyncio.gather(*ready, *speakers))
    except BaseException:
        for task in (*ready, *speakers):
            task.cancel()
        raise


async def _react_and_apply(work: RoundWork, addressed: set[int]) -> None:
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


def _note_failure(work: RoundWork, kind: CallKind, usage: Usage, mind: Mind, note: str) -> None:
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


def _close_round(work: RoundWork) -> None:
    state, result = work.state, work.result
    number = state.round_number
    rules = jury_rules.rule_set(state.settings.rules)
    towards = jury_rules.pressed_towards(state.votes)
    for juror in ai_seats(work.jury):
        if juror.stands_in:  # the person's vote is theirs: the juror playing their seat never casts it
            continue
        memory = state.memories[juror.seat]
        if memory.hunch and work.speeches:  # the evidence argued takes the place of the room's hunch
            fading = memory.hunch * params.HUNCH_FADE
            memory.conviction = apply_delta(memory.conviction, -fading)
            memory.hunch -= fading
        pull = jury_rules.yielding_pull(
            rules=rules, progress=state.rule_progress, round_number=number, stubbornness=juror.stubbornness
        )
        pressed = pull > 0 and memory.vote != towards
        if pressed:  # a kept jury's minority gives way (``rules.yielding_pull``)
            memory.conviction = apply_delta(memory.conviction, pull if towards == "guilty" else -pull)
        after = vote_after(memory.vote, memory.conviction)
        if after != memory.vote:
            if pressed and after == towards:
                reason, index = REASON_YIELDED, None
            else:
                spoke = own_speech(work, juror.seat, after) is not None
                reason = flip_reason(memory, number, after, work.named, spoke=spoke)
                index = moving_speech(work, juror.seat, after)
            result.flips.append(Flip(juror.seat, memory.vote, after, reason, index))
            memory.vote = after
            memory.flipped_round = number
            state.votes[juror.seat] = after
    turned = {flip.seat for flip in result.flips}  # their reactions' words must not say their view stood
    result.reactions = [reaction.after_vote(reaction.seat in turned) for reaction in result.reactions]
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
    note_withdrawals(work)
    state.spoken = [*state.spoken, *(speech.content for speech in work.speeches)][-SPOKEN_KEPT:]
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
    # A model wrote the minutes; when its summary call failed, the offline engine's minutes stand alone.
    summary_failed = any(failure.kind == "summary" for failure in result.failures)
    modelled = result.summarized and not summary_failed and getattr(work.current_mind(), "concurrent", False)
    reason, lines = settle_round(
        state,
        jury=list(work.jury),
        case=work.heard_case,  # the foreperson names only points the jury heard (a witness who testified)
        speeches=work.speeches,
        participants=participants,
        reader=work.reader,
        model_summary=state.summary if modelled else "",
    )
    result.process_lines.extend(lines)  # the foreperson's summaries and the judge's directions
    result.end_reason = reason
    state.end_reason = result.end_reason
