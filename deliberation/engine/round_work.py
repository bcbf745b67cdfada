"""The bookkeeping of one round in flight: usage, budget, failures, notes, and each speaker's call.

Pure Python, no Django. ``deliberation.engine.rounds`` drives it; a mind that fails here is
answered by the fallback mind the service passed in, and the turn keeps the reason it is a stand-in.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from deliberation.engine import formats, params
from deliberation.engine import memory as mem
from deliberation.engine.conviction import apply_delta
from deliberation.engine.failures import DETAIL_BUDGET, CallFailure, CallKind
from deliberation.engine.foreperson import ProcessLine
from deliberation.engine.ports import ArgumentReader, CraftRequest, HeardTurn, Mind, SpeakRequest, TextSink
from deliberation.engine.results import PlayerMove, RoundResult
from deliberation.engine.state import DeliberationState
from deliberation.engine.strategies import item_label, validate_move
from deliberation.engine.trial.text import content_words
from deliberation.engine.types import CaseFile, JurorProfile, Retriever, Speech, Usage

BUDGET_NOTE = "The model budget for this deliberation is spent; the jurors continue on the offline engine."
MIND_FAILED_NOTE = "{name}'s turn fell back to the offline engine after the model failed."
PASSAGES_PER_SPEAKER = 3


def as_heard(
    case: CaseFile, witnesses: Sequence[str] | None, words: Mapping[str, Sequence[str]] | None = None
) -> CaseFile:
    """The case file as the jury heard it: after a trial (``witnesses``, the ids of those who
    testified) without the witnesses never called, whom a juror cannot quote; the whole file when
    no trial was held (None).

    With the trial's ``words`` (what each witness said, ``trial.jury.heard_words``), a witness's
    testimony is what she said at the trial and nothing else: her own words there stand for the
    file's statement and summary, and the file's notes on her credibility only where her answers
    brought them out. A witness whose answers gave no fact ("I didn't see that") leaves nothing to
    quote and is left out too. The evidence stays the jury's."""
    if witnesses is None:
        return case
    kept = []
    for witness in case.witnesses:
        if witness.id not in witnesses:
            continue
        if words is None:
            kept.append(witness)
            continue
        lines = [_ended(line) for line in words.get(witness.id, ()) if line.strip()]
        if not lines:
            continue
        said = " ".join(lines)
        issues = tuple(part for issue in witness.credibility_issues if (part := _brought_out(issue, said)))
        kept.append(dataclasses.replace(witness, testimony=said, first_person=said, credibility_issues=issues))
    return dataclasses.replace(case, witnesses=tuple(kept))


def _ended(line: str) -> str:
    line = line.strip()
    return line if line[-1:] in ".!?\"'”’" else line + "."


ISSUE_SAID = 0.75  # of a credibility note's content words, the share her answers must hold
ISSUE_CLAUSE = re.compile(r"(;\s+|,\s+(?:and|while|which)\s+)")


def _brought_out(issue: str, said: str) -> str:
    """As much of a note the file keeps on a witness as her answers at the trial brought out: its
    clauses from the first, while each is said ("Rain obscured her view, and the plate was lit only
    by its lamp" -> "Rain obscured her view." when she never spoke of the lamp); "" for none."""
    heard = content_words(said)
    parts = ISSUE_CLAUSE.split(issue.strip())
    kept = ""
    for index in range(0, len(parts), 2):
        words = content_words(parts[index])
        if not words or len(words & heard) < ISSUE_SAID * len(words):
            break
        kept += (parts[index - 1] if index else "") + parts[index]
    if not kept or kept == issue.strip():
        return kept
    return kept.rstrip(" .,;") + "."


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


class RoundWork:
    """The mutable bookkeeping of one round in flight."""

    def __init__(
        self,
        state: DeliberationState,
        case: CaseFile,
        jury: Sequence[JurorProfile],
        mind: Mind,
        fallback: Mind,
        reader: ArgumentReader,
        retriever: Retriever,
        on_text: TextSink | None,
    ) -> None:
        self.state = state
        self.case = case
        self.heard_case = as_heard(case, state.heard_witnesses, state.heard_words)  # what an AI juror argues from
        self.unheard = {w.id for w in case.witnesses} - {w.id for w in self.heard_case.witnesses}
        # A discharged juror has left the room: no turn, no reaction, no vote from then on.
        self.jury = tuple(sorted((j for j in jury if j.seat not in state.discharged), key=lambda j: j.seat))
        self.by_seat = {j.seat: j for j in self.jury}
        self.mind = mind
        self.fallback = fallback
        self.reader = reader
        self.retriever = retriever
        self.on_text = on_text
        self.result = RoundResult(round_number=state.round_number, engine=self.current_mind().name)
        self.speeches: list[Speech] = []
        self.labels = {item.id: item.label for item in case.evidence} | {w.id: w.name for w in case.witnesses}
        names = mem.case_names(case)
        self.named = {item.id: mem.named(item.label, witness=False, names=names) for item in case.evidence}
        self.named |= {w.id: w.name for w in case.witnesses}

    def label_of(self, speech: Speech) -> tuple[str, str]:
        """The item a speech rested on: its id and its name in the case file ("", "" when none)."""
        item_id = next((cited for cited in speech.cited if cited in self.labels), "")
        return item_id, self.labels.get(item_id, "")

    def in_discussion(self, seat: int) -> int:
        """The other AI jurors still in the discussion: not withdrawn (the jury is already without
        the discharged)."""
        memories = self.state.memories
        return sum(1 for j in self.jury if j.kind == "ai" and j.seat != seat and not memories[j.seat].withdrawn)

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

    def round_turns(self, earlier: Sequence[Speech] | None = None) -> tuple[HeardTurn, ...]:
        """This round's speeches so far as turns: ``earlier`` when given, else all of them."""
        spoken = self.speeches if earlier is None else earlier
        return tuple(heard(s, self.state.round_number) for s in spoken)

    def last_content(self, seat: int) -> str:
        if self.speeches:
            return self.speeches[-1].content
        past = self.state.memories[seat].heard
        return past[-1].content if past else ""

    def passages(self, seat: int, extra: str = "", answering: str | None = None) -> tuple:
        memory = self.state.memories[seat]
        said = self.last_content(seat) if answering is None else answering
        query = " ".join([*memory.doubts[:2], said, extra])
        found = self.retriever.lookup(query, PASSAGES_PER_SPEAKER + len(self.unheard))
        return tuple([p for p in found if p.item_id not in self.unheard][:PASSAGES_PER_SPEAKER])

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

    def craft_request(self, move: PlayerMove, earlier: Sequence[Speech] | None = None) -> CraftRequest:
        validate_move(strategy=move.strategy, side=move.side, target_seat=move.target_seat, free_text=move.free_text)
        player = self.by_seat[move.seat]
        return CraftRequest(
            player=player,
            side=move.side,
            strategy=move.strategy,
            case=self.case,
            recent=mem.recent_turns(self.state.memories[move.seat], player.memory_window, self.round_turns(earlier)),
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

    async def player_speech(self, move: PlayerMove, request: CraftRequest | None = None) -> Speech:
        """The participant's crafted argument (``request`` built beforehand, else now)."""
        player = self.by_seat[move.seat]
        request = request or self.craft_request(move)

        async def craft(mind: Mind, req: CraftRequest) -> Speech:
            return await mind.craft_argument(req, on_text=self.on_text)

        speech = await self.call_speaker(craft, request, craft, player.name, kind="argument", seat=player.seat)
        speech.seat, speech.speaker_name = player.seat, player.name
        speech.strategy = move.strategy
        speech.position = "guilty" if move.side == "prosecute" else "not_guilty"
        if speech.target_seat is None:
            speech.target_seat = move.target_seat
        return speech

    async def juror_speech(
        self,
        seat: int,
        *,
        earlier: Sequence[Speech] | None = None,
        answering: int | None = None,
        seed: int | None = None,
    ) -> Speech:
        """One AI juror's speech, hearing ``earlier`` of this round (all so far when None)."""
        juror = self.by_seat[seat]
        memory = self.state.memories[seat]
        settings = self.state.settings
        scope = settings.context_scope
        recent = formats.scoped_turns(
            scope, memory.heard, self.round_turns(earlier), window=juror.memory_window, last_n=settings.last_n
        )
        answered = next((t.content for t in reversed(recent) if t.seat == answering), None) if answering else None
        request = SpeakRequest(
            juror=juror,
            outlook=dataclasses.replace(
                formats.scoped_outlook(scope, memory.outlook()), in_discussion=self.in_discussion(seat)
            ),
            case=self.heard_case,
            recent=recent,
            passages=self.passages(seat, answering=answered),
            round_number=self.state.round_number,
            tally=self.state.tally(),
            jury=self.jury,
            seed=self.state.next_seed() if seed is None else seed,
            answering=answering,
            context_scope=scope,
            said=(*self.state.spoken, *(s.content for s in (self.speeches if earlier is None else earlier))),
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
