"""The LiteLLM mind: any model LiteLLM can reach, behind the ``Mind`` port.

Prompts come from ``deliberation.engine.prompts`` (per-speaker perspective) and answers are read by
``deliberation.engine.parsing`` (tolerant); the call itself (retries, timeouts, streaming, counting)
is ``deliberation.minds.litellm.calls``. Whatever goes wrong with a call (timeout, HTTP error,
garbage, an empty answer) the mind returns a usable result marked as a fallback, with the cause
(``deliberation.engine.failures.Cause``) and a note saying why, and never raises: the deliberation
goes on. A speech streams only when the engine hands it a text sink (someone is watching).

The reaction call asks the model about the round's active listeners only; the passive ones get the
lighter heuristic of the offline engine, as the spec has it. The rolling summary is the room's:
every juror folds the same minutes.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from deliberation.engine.failures import cause_label
from deliberation.engine.parse_room import parse_reactions, parse_summary
from deliberation.engine.parsing import ContentStream, ParsedSpeech, parse_speech
from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
    JurorOutlook,
    Message,
    Mind,
    ReactionBatch,
    ReactRequest,
    SpeakRequest,
    SummarizeRequest,
    SummaryResult,
    TextSink,
)
from deliberation.engine.prompts import (
    build_craft_messages,
    build_react_messages,
    build_speak_messages,
    build_summarize_messages,
    clip,
)
from deliberation.engine.strategies import spoken
from deliberation.engine.types import CaseFile, JurorProfile, Reaction, Speech, Usage, VoteValue
from deliberation.minds.litellm.calls import CallOutcome, ModelCalls, provider_of, unusable
from deliberation.minds.litellm.causes import RETRYABLE, cause_of, http_status
from deliberation.minds.offline.archetypes import own_turn_shift
from deliberation.minds.offline.craft import reads_for

__all__ = ["RETRYABLE", "CallOutcome", "LiteLLMMind", "cause_of", "http_status", "provider_of", "unusable"]

NOTE_MISSING = "the model's answer left out jurors {seats}; they were recorded as unmoved"
NOTE_OTHER_SIDE = "the model's wording read for the other side; the offline crafter's part was said instead"
NOTE_BUDGET = "the model budget for this deliberation is spent; the jurors continue on the offline engine"
BUDGET_USAGE = Usage(fallback=True, note=NOTE_BUDGET, cause="budget")
FALLBACK_LINE = "{name} hesitates and lets the others speak for now ({reason})."
MAX_SUMMARY_CHARS = 1500
logger = logging.getLogger(__name__)


def _unreadable(outcome: CallOutcome, what: str) -> str:
    """Why an answer was not used (``unusable``), with what the model said in the server log."""
    if not outcome.error:
        logger.warning("the model's %s could not be read: %r", what, clip(outcome.text or "", 300))
    return unusable(outcome)


ROOM_SUMMARY = 0  # the key of the room's own minutes in ``SummaryResult.summaries``


def known_ids(case: CaseFile) -> list[str]:
    return [item.id for item in case.evidence] + [witness.id for witness in case.witnesses]


def rate_strength(position: str | None, cited: tuple[str, ...], case: CaseFile) -> float:
    """The statement's own strength: the cited evidence's weight for its side, signed by position."""
    sign = 1.0 if position == "guilty" else -1.0
    weights = [
        item.strength_prosecution if position == "guilty" else item.strength_defense
        for item in case.evidence
        if item.id in cited
    ]
    magnitude = sum(weights) / len(weights) if weights else 0.4
    return sign * max(0.0, min(1.0, magnitude))


def change_of_mind(juror: JurorProfile, outlook: JurorOutlook, position: str | None) -> float:
    """The wildcard's own change of mind, read from its answer: a position other than its vote
    moves its conviction as the offline wildcard's turn does (``own_turn_shift``), so the vote
    turns with what it said. Other archetypes argue a side without moving (the contrarian's
    devil's advocacy, the conformist's echo); their vote follows what they hear."""
    if juror.archetype != "wildcard" or position not in ("guilty", "not_guilty") or position == outlook.vote:
        return 0.0
    if outlook.vote not in ("guilty", "not_guilty"):
        return 0.0
    return own_turn_shift(outlook.conviction, position)


class LiteLLMMind(ModelCalls):
    """A ``Mind`` that asks a model through LiteLLM. ``name`` is the model string.

    Takes ``ModelCalls``' settings (model, api_base, api_key, timeout, retries, backoff,
    temperature, max_tokens, token_budget, cost_budget) and the mind that stands in for a failed call.
    """

    concurrent = True  # a model takes time: the engine generates a round's independent speakers at once

    def __init__(self, model: str, *, fallback: Mind | None = None, **settings: Any) -> None:
        super().__init__(model, **settings)
        self._fallback = fallback

    # ---- the Mind port ----------------------------------------------------------------------

    async def speak(self, request: SpeakRequest, *, on_text: TextSink | None = None) -> Speech:
        juror = request.juror
        if self.budget_spent():
            return await self._fallback_speech(request, juror, on_text, BUDGET_USAGE)
        outcome, parsed, note = await self._speech_call(
            build_speak_messages(request), juror, request.case, on_text, request.jury
        )
        if parsed is None:
            return await self._fallback_speech(request, juror, on_text, outcome.usage(fallback=True, note=note))
        position = parsed.position or (
            request.outlook.vote if request.outlook.vote in ("guilty", "not_guilty") else None
        )
        return Speech(
            own_shift=change_of_mind(juror, request.outlook, position),
            seat=juror.seat,
            speaker_name=juror.name,
            content=parsed.content,
            argument_type=parsed.argument_type,
            target_seat=parsed.speaking_to if parsed.speaking_to != juror.seat else None,
            position=position,  # type: ignore[arg-type]
            reasoning=parsed.reasoning,
            strength=rate_strength(position, parsed.cited, request.case),
            cited=parsed.cited,
            usage=outcome.usage(note=note),
            withdrawn=parsed.withdrawn,
        )

    async def craft_argument(self, request: CraftRequest, *, on_text: TextSink | None = None) -> Speech:
        """The person's argument: their own words exactly as typed, after the model's crafted part.

        A free argument is not sent to the model at all (nothing is added to it). A crafted part that
        the jury would read for the other side is replaced by the offline crafter's part."""
        player = request.player
        position: VoteValue = "not_guilty" if request.side == "defend" else "guilty"
        if request.strategy == "free_argument":
            speech = Speech(
                seat=player.seat,
                speaker_name=player.name,
                content=request.free_text,
                argument_type="logical",
                target_seat=request.target_seat,
                position=position,
                strategy=request.strategy,
                usage=Usage(calls=0),
            )
            if on_text is not None:
                on_text(player.seat, speech.content)
            return speech
        if self.budget_spent():
            return await self._fallback_speech(request, player, on_text, BUDGET_USAGE)
        outcome, parsed, note = await self._speech_call(
            build_craft_messages(request), player, request.case, on_text, request.jury
        )
        if parsed is None:
            return await self._fallback_speech(request, player, on_text, outcome.usage(fallback=True, note=note))
        crafted = parsed.content
        stand_in_mind = self.fallback_mind() if reads_for(request.case, crafted, position) < 0 else None
        if stand_in_mind is not None:
            stand_in = await stand_in_mind.craft_argument(request)
            crafted, note = stand_in.crafted, NOTE_OTHER_SIDE
        target = parsed.speaking_to if parsed.speaking_to not in (None, player.seat) else request.target_seat
        return Speech(
            seat=player.seat,
            speaker_name=player.name,
            content=spoken(crafted, request.free_text),
            argument_type=parsed.argument_type,
            target_seat=target,
            position=position,  # the player's side, whatever the model wrote
            reasoning=parsed.reasoning,
            strength=rate_strength(position, parsed.cited, request.case),
            cited=parsed.cited,
            strategy=request.strategy,
            usage=outcome.usage(note=note),
            crafted=crafted,
        )

    async def react_batch(self, request: ReactRequest) -> ReactionBatch:
        """The model rates the active listeners; the passive ones get the offline heuristic."""
        if not request.speeches or not request.listeners:
            return ReactionBatch(reactions=(), usage=Usage(calls=0))
        if self.budget_spent():
            return await self._fallback_reactions(request, BUDGET_USAGE)
        # A listener who made every speech of the round has nothing to react to (nobody reacts to
        # their own speech): the model is not asked about them.
        hearing = tuple(lsn for lsn in request.listeners if any(s.seat != lsn.juror.seat for s in request.speeches))
        active = tuple(listener for listener in hearing if listener.active) or hearing
        passive = tuple(listener for listener in request.listeners if listener not in active)
        asked = dataclasses.replace(request, listeners=active)
        outcome = await self._complete(build_react_messages(asked), model=self.model, temperature=self.temperature)
        parsed = parse_reactions(
            outcome.text, listeners=[listener.juror for listener in active], speech_count=len(request.speeches)
        )
        if parsed is None:
            note = _unreadable(outcome, "reactions")
            return await self._fallback_reactions(request, outcome.usage(fallback=True, note=note))
        note = NOTE_MISSING.format(seats=", ".join(map(str, parsed.missing))) if parsed.missing else ""
        heuristic = await self._fallback_reactions(dataclasses.replace(request, listeners=passive), Usage())
        return ReactionBatch(reactions=parsed.reactions + heuristic.reactions, usage=outcome.usage(note=note))

    async def summarize(self, request: SummarizeRequest) -> SummaryResult:
        if not request.jurors:
            return SummaryResult(summaries={}, usage=Usage(calls=0))
        if self.budget_spent():
            return await self._fallback_summary(request, BUDGET_USAGE)
        outcome = await self._complete(build_summarize_messages(request), model=self.model, temperature=0.3)
        parsed = parse_summary(outcome.text, jurors=request.jurors)
        if parsed is None:
            note = _unreadable(outcome, "summary")
            return await self._fallback_summary(request, outcome.usage(fallback=True, note=note))
        shared = clip(parsed[0], MAX_SUMMARY_CHARS)  # the room's minutes, the same for every juror
        summaries = {ROOM_SUMMARY: shared} | {juror.seat: shared for juror in request.jurors}
        return SummaryResult(summaries=summaries, usage=outcome.usage())

    # ---- speaking --------------------------------------------------------------------------

    async def _speech_call(
        self,
        messages: list[Message],
        profile: JurorProfile,
        case: CaseFile,
        on_text: TextSink | None,
        jury: tuple[JurorProfile, ...],
    ) -> tuple[CallOutcome, ParsedSpeech | None, str]:
        """One speaking call; returns the outcome, the parsed statement (or None) and a note."""
        model, temperature = self.settings_for(profile)
        stream = ContentStream()

        def deliver(chunk: str) -> None:
            piece = stream.feed(chunk)
            if piece and on_text is not None:
                on_text(profile.seat, piece)

        outcome = await self._complete(
            messages, model=model, temperature=temperature, on_chunk=deliver if on_text is not None else None
        )
        if outcome.error:
            return outcome, None, outcome.error
        parsed = parse_speech(outcome.text, jury=jury, known_ids=known_ids(case))
        if parsed is None:
            return outcome, None, _unreadable(outcome, "speech")
        if on_text is not None:
            # Answers without a <Content> tag (JSON, bare prose) stream nothing along the way:
            # the sink still gets the whole statement, once.
            if not stream.sent:
                on_text(profile.seat, parsed.content)
            elif parsed.content.startswith(stream.sent) and len(parsed.content) > len(stream.sent):
                on_text(profile.seat, parsed.content[len(stream.sent) :])
        return outcome, parsed, ""

    # ---- fallbacks --------------------------------------------------------------------------

    def fallback_mind(self) -> Mind | None:
        if self._fallback is None:
            try:
                from deliberation.minds.offline.mind import OfflineMind  # optional: its vectors may be absent
            except ImportError:
                return None
            self._fallback = OfflineMind()
        return self._fallback

    async def _fallback_speech(
        self,
        request: SpeakRequest | CraftRequest,
        profile: JurorProfile,
        on_text: TextSink | None,
        usage: Usage,
    ) -> Speech:
        """A deterministic stand-in statement, marked as a fallback with the reason in its note."""
        mind = self.fallback_mind()
        speech: Speech | None = None
        if mind is not None:
            try:
                if isinstance(request, CraftRequest):
                    speech = await mind.craft_argument(request)
                else:
                    speech = await mind.speak(request)
            except Exception:  # the stand-in itself failed: the plain line below still works
                speech = None
        if speech is None:
            position: VoteValue | None = None
            if isinstance(request, CraftRequest):
                content = request.free_text.strip()
                position = "not_guilty" if request.side == "defend" else "guilty"
            else:
                content, vote = "", request.outlook.vote
                position = "guilty" if vote == "guilty" else "not_guilty" if vote == "not_guilty" else None
            # The cause in words: what the client said (a URL, a host) is never spoken in the room.
            content = content or FALLBACK_LINE.format(name=profile.name, reason=cause_label(usage.cause or "error"))
            speech = Speech(seat=profile.seat, speaker_name=profile.name, content=content, position=position)
        speech = dataclasses.replace(speech, is_fallback=True, usage=dataclasses.replace(usage, fallback=True))
        if on_text is not None:
            on_text(profile.seat, speech.content)
        return speech

    async def _fallback_reactions(self, request: ReactRequest, usage: Usage) -> ReactionBatch:
        if not request.listeners:
            return ReactionBatch(reactions=(), usage=usage)
        mind = self.fallback_mind()
        if mind is not None:
            try:
                batch = await mind.react_batch(request)
                return ReactionBatch(reactions=batch.reactions, usage=usage)
            except Exception:  # fall through to the neutral reactions
                pass
        reactions = tuple(
            Reaction(seat=listener.juror.seat, speech_index=index, base_impact=0.0)
            for listener in request.listeners
            for index in range(len(request.speeches))
        )
        return ReactionBatch(reactions=reactions, usage=usage)

    async def _fallback_summary(self, request: SummarizeRequest, usage: Usage) -> SummaryResult:
        mind = self.fallback_mind()
        if mind is not None:
            try:
                result = await mind.summarize(request)
                return SummaryResult(summaries=result.summaries, usage=usage)
            except Exception:  # fall through to the extractive summary
                pass
        shared = extractive_summary(request.previous_summary, request.turns)
        summaries = {ROOM_SUMMARY: shared} | {juror.seat: shared for juror in request.jurors}
        return SummaryResult(summaries=summaries, usage=usage)


def extractive_summary(previous: str, turns: tuple[HeardTurn, ...], bullets: int = 8) -> str:
    """A bounded summary without a model: the latest bullets, one per statement's first sentence."""
    lines = [line for line in previous.splitlines() if line.strip()]
    for turn in turns:
        if turn.kind == "speech" and turn.content.strip():
            first = turn.content.strip().split(". ")[0]
            lines.append(f"• {turn.speaker_name}: {clip(first, 140)}")
    return "\n".join(lines[-bullets:])
