"""The LiteLLM mind: any model LiteLLM can reach, behind the ``Mind`` port.

Prompts come from ``deliberation.engine.prompts`` (per-speaker perspective) and answers are read by
``deliberation.engine.parsing`` (tolerant). Whatever goes wrong with a call (timeout, HTTP error,
garbage, an empty answer) the mind returns a usable result marked as a fallback, with the cause
(``deliberation.engine.failures.Cause``) and a note saying why, and never raises: the deliberation
goes on. Retries are bounded, with exponential backoff,
and only for failures that a retry can cure (timeouts, connection errors, 5xx, rate limits).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import

import httpx
import litellm

from deliberation.engine.failures import Cause
from deliberation.engine.parsing import ContentStream, ParsedSpeech, parse_reactions, parse_speech, parse_summary
from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
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
from deliberation.engine.types import CaseFile, JurorProfile, Reaction, Speech, Usage

litellm.suppress_debug_info = True  # the library's "give feedback" banner is noise in our logs

NOTE_TIMEOUT = "the model did not answer within {timeout:g} s ({attempts})"
NOTE_FAILED = "the model call failed after {attempts}: {error}"
NOTE_REFUSED = "the model call was refused: {error}"
NOTE_UNREADABLE = "the model's answer could not be read ({attempts}): {error}"
NOTE_EMPTY = "the model gave an empty answer"
NOTE_MALFORMED = "the model's answer could not be read"
NOTE_MISSING = "the model's answer left out jurors {seats}; they were recorded as unmoved"
NOTE_BUDGET = "the model budget for this deliberation is spent; the jurors continue on the offline engine"
BUDGET_USAGE = Usage(fallback=True, note=NOTE_BUDGET, cause="budget")
FALLBACK_LINE = "{name} hesitates and lets the others speak for now ({reason})."
MAX_SUMMARY_CHARS = 1500

# A retry can cure these; an authentication or bad-request error it cannot.
RETRYABLE: tuple[type[BaseException], ...] = (
    TimeoutError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
    litellm.RateLimitError,
)


@dataclass
class CallOutcome:
    """What a call (with its retries) produced, and what it cost in all."""

    text: str | None = None
    error: str = ""
    cause: Cause | None = None  # set with ``error``
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: int = 0
    streamed: bool = False  # some text already reached the sink

    def usage(self, *, fallback: bool = False, note: str = "", cause: Cause | None = None) -> Usage:
        return Usage(
            calls=1,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cost_usd=self.cost_usd,
            latency_ms=self.latency_ms,
            fallback=fallback,
            note=note,
            cause=(cause or self.cause or "unusable") if fallback else "",
        )


def provider_of(model: str) -> str:
    return model.split("/", 1)[0] if "/" in model else ""


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


class LiteLLMMind:
    """A ``Mind`` that asks a model through LiteLLM. ``name`` is the model string."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        retries: int = 2,
        backoff: float = 0.5,
        temperature: float = 0.7,
        max_tokens: int = 600,
        token_budget: int | None = None,
        cost_budget: float | None = None,
        fallback: Mind | None = None,
    ) -> None:
        self.name = model
        self.model = model
        self.api_base = api_base
        self.api_key = api_key
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.token_budget = token_budget
        self.cost_budget = cost_budget
        self.spent_tokens = 0
        self.spent_cost = 0.0
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
        )

    async def craft_argument(self, request: CraftRequest, *, on_text: TextSink | None = None) -> Speech:
        player = request.player
        position = "not_guilty" if request.side == "defend" else "guilty"
        if self.budget_spent():
            return await self._fallback_speech(request, player, on_text, BUDGET_USAGE)
        outcome, parsed, note = await self._speech_call(
            build_craft_messages(request), player, request.case, on_text, request.jury
        )
        if parsed is None:
            return await self._fallback_speech(request, player, on_text, outcome.usage(fallback=True, note=note))
        target = parsed.speaking_to if parsed.speaking_to not in (None, player.seat) else request.target_seat
        return Speech(
            seat=player.seat,
            speaker_name=player.name,
            content=parsed.content,
            argument_type=parsed.argument_type,
            target_seat=target,
            position=position,  # the player's side, whatever the model wrote
            reasoning=parsed.reasoning,
            strength=rate_strength(position, parsed.cited, request.case),
            cited=parsed.cited,
            strategy=request.strategy,
            usage=outcome.usage(note=note),
        )

    async def react_batch(self, request: ReactRequest) -> ReactionBatch:
        if not request.speeches or not request.listeners:
            return ReactionBatch(reactions=(), usage=Usage(calls=0))
        if self.budget_spent():
            return await self._fallback_reactions(request, BUDGET_USAGE)
        outcome = await self._complete(build_react_messages(request), model=self.model, temperature=self.temperature)
        listeners = [listener.juror for listener in request.listeners]
        parsed = parse_reactions(outcome.text, listeners=listeners, speech_count=len(request.speeches))
        if parsed is None:
            return await self._fallback_reactions(request, outcome.usage(fallback=True, note=unusable(outcome)))
        note = NOTE_MISSING.format(seats=", ".join(map(str, parsed.missing))) if parsed.missing else ""
        return ReactionBatch(reactions=parsed.reactions, usage=outcome.usage(note=note))

    async def summarize(self, request: SummarizeRequest) -> SummaryResult:
        if not request.jurors:
            return SummaryResult(summaries={}, usage=Usage(calls=0))
        if self.budget_spent():
            return await self._fallback_summary(request, BUDGET_USAGE)
        outcome = await self._complete(build_summarize_messages(request), model=self.model, temperature=0.3)
        parsed = parse_summary(outcome.text, jurors=request.jurors)
        if parsed is None:
            return await self._fallback_summary(request, outcome.usage(fallback=True, note=unusable(outcome)))
        shared, personal = parsed
        shared = clip(shared, MAX_SUMMARY_CHARS)
        summaries = {
            juror.seat: shared
            + (f"\nYour own take: {clip(personal[juror.seat], 300)}" if juror.seat in personal else "")
            for juror in request.jurors
        }
        return SummaryResult(summaries=summaries, usage=outcome.usage())

    # ---- budget -----------------------------------------------------------------------------

    def budget_spent(self) -> bool:
        over_tokens = self.token_budget is not None and self.spent_tokens >= self.token_budget
        over_cost = self.cost_budget is not None and self.spent_cost >= self.cost_budget
        return over_tokens or over_cost

    # ---- calls ------------------------------------------------------------------------------

    def settings_for(self, profile: JurorProfile | None) -> tuple[str, float]:
        """The persona's own model and temperature where it names one, else the mind's."""
        model = (profile.model if profile and profile.model else "") or self.model
        temperature = profile.temperature if profile and profile.temperature is not None else self.temperature
        return model, temperature

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
            return outcome, None, unusable(outcome)
        if on_text is not None:
            # Answers without a <Content> tag (JSON, bare prose) stream nothing along the way:
            # the sink still gets the whole statement, once.
            if not stream.sent:
                on_text(profile.seat, parsed.content)
            elif parsed.content.startswith(stream.sent) and len(parsed.content) > len(stream.sent):
                on_text(profile.seat, parsed.content[len(stream.sent) :])
        return outcome, parsed, ""

    def _request_kwargs(self, model: str, temperature: float, messages: list[Message], stream: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "temperature": temperature,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "max_retries": 0,  # the SDK's own retries would hide attempts from our count and backoff
            "num_retries": 0,
            "drop_params": True,  # a provider that lacks a parameter ignores it rather than failing
        }
        # The endpoint belongs to the default model's provider; another provider keeps its own.
        if self.api_base and provider_of(model) == provider_of(self.model):
            kwargs["api_base"] = self.api_base
        if self.api_key:
            kwargs["api_key"] = self.api_key
        if stream:
            kwargs["stream"] = True
            kwargs["stream_options"] = {"include_usage": True}
        return kwargs

    async def _complete(
        self,
        messages: list[Message],
        *,
        model: str,
        temperature: float,
        on_chunk: Callable[[str], None] | None = None,
    ) -> CallOutcome:
        """Call the model with bounded retries; never raises for the model's failures."""
        outcome = CallOutcome()
        started = time.perf_counter()
        error: BaseException | None = None
        for attempt in range(self.retries + 1):
            outcome.attempts = attempt + 1
            try:
                async with asyncio.timeout(self.timeout):
                    if on_chunk is None:
                        response = await litellm.acompletion(
                            **self._request_kwargs(model, temperature, messages, False)
                        )
                        text = response.choices[0].message.content if response.choices else ""
                    else:
                        response, text = await self._stream(model, temperature, messages, on_chunk, outcome)
                self._count(outcome, response)
                outcome.text, error = text or "", None
                break
            except RETRYABLE as exc:
                error = exc
                if outcome.streamed or attempt >= self.retries:
                    break  # text already shown cannot be taken back; or the retries are spent
                await asyncio.sleep(self.backoff * 2**attempt)
            except Exception as exc:  # a bad request or a broken answer: retrying will not help
                error = exc
                break
        outcome.latency_ms = int((time.perf_counter() - started) * 1000)
        if error is not None:
            outcome.cause, outcome.error = self._describe(error, outcome.attempts)
        return outcome

    async def _stream(
        self,
        model: str,
        temperature: float,
        messages: list[Message],
        on_chunk: Callable[[str], None],
        outcome: CallOutcome,
    ) -> tuple[Any, str]:
        response = await litellm.acompletion(**self._request_kwargs(model, temperature, messages, True))
        chunks: list[Any] = []
        parts: list[str] = []
        async for chunk in response:
            chunks.append(chunk)
            delta = chunk.choices[0].delta.content if chunk.choices else None
            if delta:
                parts.append(delta)
                on_chunk(delta)
                outcome.streamed = True
        built = litellm.stream_chunk_builder(chunks, messages=messages) if chunks else None
        return built, "".join(parts)

    def _count(self, outcome: CallOutcome, response: Any) -> None:
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        try:
            cost = float(litellm.completion_cost(completion_response=response) or 0.0) if response else 0.0
        except Exception:  # a model missing from LiteLLM's price list (local or self-hosted) costs 0
            cost = 0.0
        outcome.prompt_tokens += prompt
        outcome.completion_tokens += completion
        outcome.cost_usd += cost
        self.spent_tokens += prompt + completion
        self.spent_cost += cost

    def _describe(self, error: BaseException, attempts: int) -> tuple[Cause, str]:
        """The failure's cause and a note in words (the provider's message, clipped)."""
        cause = cause_of(error)
        tries = f"{attempts} attempt{'' if attempts == 1 else 's'}"
        if cause == "timeout":
            return cause, NOTE_TIMEOUT.format(timeout=self.timeout, attempts=tries)
        message = clip(str(error) or type(error).__name__, 200)
        if cause == "unusable":
            return cause, NOTE_UNREADABLE.format(attempts=tries, error=message)
        if cause == "refused":
            return cause, NOTE_REFUSED.format(error=message)
        return cause, NOTE_FAILED.format(attempts=tries, error=message)

    # ---- fallbacks --------------------------------------------------------------------------

    def fallback_mind(self) -> Mind | None:
        if self._fallback is None:
            try:
                from deliberation.minds.offline import OfflineMind
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
            craft = isinstance(request, CraftRequest)
            content = request.free_text.strip() if craft and request.free_text.strip() else ""
            content = content or FALLBACK_LINE.format(name=profile.name, reason=usage.note)
            position = None
            if isinstance(request, CraftRequest):
                position = "not_guilty" if request.side == "defend" else "guilty"
            elif request.outlook.vote in ("guilty", "not_guilty"):
                position = request.outlook.vote
            speech = Speech(seat=profile.seat, speaker_name=profile.name, content=content, position=position)  # type: ignore[arg-type]
        speech = dataclasses.replace(speech, is_fallback=True, usage=dataclasses.replace(usage, fallback=True))
        if on_text is not None:
            on_text(profile.seat, speech.content)
        return speech

    async def _fallback_reactions(self, request: ReactRequest, usage: Usage) -> ReactionBatch:
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
        return SummaryResult(summaries={juror.seat: shared for juror in request.jurors}, usage=usage)


def unusable(outcome: CallOutcome) -> str:
    """Why a call gave nothing usable: its error, else an empty or unreadable answer."""
    if outcome.error:
        return outcome.error
    return NOTE_EMPTY if not (outcome.text or "").strip() else NOTE_MALFORMED


def _chain(error: BaseException) -> list[BaseException]:
    """The error and what caused it, outermost first (bounded: a chain is short, a cycle is not)."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and len(chain) < 8:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def http_status(error: BaseException) -> int | None:
    """The status of the HTTP answer behind an error, or None when no HTTP error came back.

    LiteLLM reports an answer it could not decode, and a connection it could not open, as an
    ``InternalServerError`` (500); only a real error answer leaves the SDK's status error (or
    httpx's) in the chain. LiteLLM's own exceptions subclass the SDK's, hence the module test.
    """
    for seen in _chain(error):
        status = getattr(seen, "status_code", None)
        if type(seen).__module__.split(".")[0] == "openai" and isinstance(status, int):
            return status
        if isinstance(seen, httpx.HTTPStatusError):
            return seen.response.status_code
    return None


def cause_of(error: BaseException) -> Cause:
    """What really went wrong with a call, from the exception LiteLLM raised."""
    chain = _chain(error)
    if any(isinstance(seen, TimeoutError | litellm.Timeout | httpx.TimeoutException) for seen in chain):
        return "timeout"
    if isinstance(error, litellm.RateLimitError):
        return "rate_limit"
    if isinstance(error, litellm.APIConnectionError) or any(
        isinstance(seen, httpx.TransportError | ConnectionError) for seen in chain
    ):
        return "unreachable"
    status = http_status(error)
    if status is None:
        reported = getattr(error, "status_code", None)
        if not isinstance(reported, int) or reported == 500:
            return "unusable"  # the server answered, but with nothing the client could read
        status = reported
    if status == 429:
        return "rate_limit"
    return "server_error" if status >= 500 else "refused"


def extractive_summary(previous: str, turns: tuple[HeardTurn, ...], bullets: int = 8) -> str:
    """A bounded summary without a model: the latest bullets, one per statement's first sentence."""
    lines = [line for line in previous.splitlines() if line.strip()]
    for turn in turns:
        if turn.kind == "speech" and turn.content.strip():
            first = turn.content.strip().split(". ")[0]
            lines.append(f"• {turn.speaker_name}: {clip(first, 140)}")
    return "\n".join(lines[-bullets:])
