"""One call to a model through LiteLLM: bounded retries, timeouts, streaming, and what it cost.

Whatever goes wrong (timeout, HTTP error, garbage) a call returns a ``CallOutcome`` carrying the
cause (``deliberation.engine.failures.Cause``) and a note in words, and never raises. Retries are
bounded, with exponential backoff, and only for failures a retry can cure (timeouts, connection
errors, 5xx, rate limits).

Client CPU is kept small: a call streams only when someone is reading along (the caller passes a
chunk sink), streamed deltas are grouped (``FLUSH_CHARS`` or ``FLUSH_SECONDS``) before they are
parsed and rendered, and the usage is read from the stream's last chunk instead of rebuilding the
whole response. Cached prompt tokens are recorded where the provider reports them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import

import httpx
import litellm

from deliberation.engine.failures import Cause
from deliberation.engine.ports import Message
from deliberation.engine.prompt_words import clip
from deliberation.engine.types import JurorProfile, Usage
from deliberation.minds.litellm.causes import UnreadableBody, cause_of, retryable

litellm.suppress_debug_info = True  # the library's "give feedback" banner is noise in our logs
logger = logging.getLogger(__name__)

NOTE_TIMEOUT = "the model did not answer within {timeout:g} s ({attempts})"
NOTE_FAILED = "the model call failed after {attempts}: {error}"
NOTE_REFUSED = "the model call was refused: {error}"
NOTE_UNREADABLE = "the model's answer could not be read ({attempts}): {error}"
NOTE_EMPTY = "the model gave an empty answer"
NOTE_MALFORMED = "the model's answer could not be read"
FLUSH_CHARS = 80  # streamed text is handed on in pieces of about this size ...
FLUSH_SECONDS = 0.1  # ... or after this long, whichever comes first
NO_EVENTS = "the answer carried no completion"
DIRECT_PROVIDER = "openai"  # "openai/<model>" with an api_base: any OpenAI-compatible server


@dataclass
class CallOutcome:
    """What a call (with its retries) produced, and what it cost in all."""

    text: str | None = None
    error: str = ""
    cause: Cause | None = None  # set with ``error``
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
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
            cached_tokens=self.cached_tokens,
        )


def provider_of(model: str) -> str:
    return model.split("/", 1)[0] if "/" in model else ""


def as_usage(counts: dict[str, Any] | None) -> Any:
    """An OpenAI usage object (as LiteLLM would give it) from the JSON counts."""
    if not counts:
        return None
    details = counts.get("prompt_tokens_details") or {}
    return SimpleNamespace(**{**counts, "prompt_tokens_details": SimpleNamespace(**details)})


class ModelCalls:
    """The call machinery behind the LiteLLM mind: settings, budget, retries, streaming, counting."""

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
        self._priced: dict[str, bool] = {}  # model -> whether LiteLLM's price list knows it
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )

    def budget_spent(self) -> bool:
        over_tokens = self.token_budget is not None and self.spent_tokens >= self.token_budget
        over_cost = self.cost_budget is not None and self.spent_cost >= self.cost_budget
        return over_tokens or over_cost

    def settings_for(self, profile: JurorProfile | None) -> tuple[str, float]:
        """The persona's own model and temperature where it names one, else the mind's."""
        model = (profile.model if profile and profile.model else "") or self.model
        temperature = profile.temperature if profile and profile.temperature is not None else self.temperature
        return model, temperature

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

    def direct(self, model: str) -> bool:
        """An OpenAI-compatible endpoint is spoken to directly: LiteLLM's per-call and per-chunk
        machinery costs more client CPU than the call itself (see BENCHMARKS.md)."""
        return bool(self.api_base) and provider_of(model) == DIRECT_PROVIDER == provider_of(self.model)

    async def _complete(
        self,
        messages: list[Message],
        *,
        model: str,
        temperature: float,
        on_chunk: Callable[[str], None] | None = None,
    ) -> CallOutcome:
        """Call the model with bounded retries; streams only when ``on_chunk`` is given; never raises."""
        outcome = CallOutcome()
        started = time.perf_counter()
        error: BaseException | None = None
        for attempt in range(self.retries + 1):
            outcome.attempts = attempt + 1
            try:
                async with asyncio.timeout(self.timeout):
                    if self.direct(model):
                        usage, text = await self._direct(model, temperature, messages, on_chunk, outcome)
                    elif on_chunk is None:
                        response = await litellm.acompletion(
                            **self._request_kwargs(model, temperature, messages, False)
                        )
                        text = response.choices[0].message.content if response.choices else ""
                        usage = getattr(response, "usage", None)
                    else:
                        usage, text = await self._stream(model, temperature, messages, on_chunk, outcome)
                self._count(outcome, model, usage)
                outcome.text, error = text or "", None
                break
            except Exception as exc:  # a bad request or a broken answer is not retried
                error = exc
                if not retryable(exc) or outcome.streamed or attempt >= self.retries:
                    break  # text already shown cannot be taken back; or the retries are spent
                await asyncio.sleep(self.backoff * 2**attempt)
        outcome.latency_ms = int((time.perf_counter() - started) * 1000)
        if error is not None:
            outcome.cause, outcome.error = self._describe(error, outcome.attempts)
            # The full detail for the operator: pages and exports name only the cause.
            logger.warning("model call to %s failed (%s): %s", model, outcome.cause, client_words(error))
        return outcome

    def _client(self) -> httpx.AsyncClient:
        """One connection pool per event loop (a pool cannot outlive the loop it was opened on)."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = httpx.AsyncClient(timeout=self.timeout)
        return client

    async def _direct(
        self,
        model: str,
        temperature: float,
        messages: list[Message],
        on_chunk: Callable[[str], None] | None,
        outcome: CallOutcome,
    ) -> tuple[Any, str]:
        """One chat completion from an OpenAI-compatible server, streamed (grouped) when ``on_chunk``."""
        body: dict[str, Any] = {
            "model": model.split("/", 1)[1],
            "messages": messages,
            "temperature": temperature,
            "max_tokens": self.max_tokens,
        }
        if on_chunk is not None:
            body |= {"stream": True, "stream_options": {"include_usage": True}}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = str(self.api_base).rstrip("/") + "/chat/completions"
        async with self._client().stream("POST", url, json=body, headers=headers) as response:
            if response.status_code != 200:
                await response.aread()
                response.raise_for_status()
            if on_chunk is None:
                try:
                    answer = json.loads(await response.aread())
                except ValueError as exc:
                    raise UnreadableBody(NO_EVENTS) from exc
                choices = answer.get("choices") if isinstance(answer, dict) else None
                if not choices:
                    raise UnreadableBody(NO_EVENTS)
                return as_usage(answer.get("usage")), (choices[0].get("message") or {}).get("content") or ""
            return await self._read_events(response, on_chunk, outcome)

    async def _read_events(
        self, response: httpx.Response, on_chunk: Callable[[str], None], outcome: CallOutcome
    ) -> tuple[Any, str]:
        parts: list[str] = []
        pending: list[str] = []
        pending_chars, flushed_at, events, usage = 0, time.monotonic(), 0, None
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                event = json.loads(data)
            except ValueError as exc:
                raise UnreadableBody(NO_EVENTS) from exc
            events += 1
            usage = event.get("usage") or usage
            choices = event.get("choices") or ()
            delta = (choices[0].get("delta") or {}).get("content") if choices else None
            if delta:
                parts.append(delta)
                pending.append(delta)
                pending_chars += len(delta)
                if pending_chars >= FLUSH_CHARS or time.monotonic() - flushed_at >= FLUSH_SECONDS:
                    on_chunk("".join(pending))
                    outcome.streamed = True
                    pending.clear()
                    pending_chars, flushed_at = 0, time.monotonic()
        if not events:
            raise UnreadableBody(NO_EVENTS)
        if pending:
            on_chunk("".join(pending))
            outcome.streamed = True
        return as_usage(usage), "".join(parts)

    async def _stream(
        self,
        model: str,
        temperature: float,
        messages: list[Message],
        on_chunk: Callable[[str], None],
        outcome: CallOutcome,
    ) -> tuple[Any, str]:
        """Stream the answer, handing on grouped pieces; returns the usage the last chunk reports."""
        response = await litellm.acompletion(**self._request_kwargs(model, temperature, messages, True))
        parts: list[str] = []
        pending: list[str] = []
        pending_chars = 0
        flushed_at = time.monotonic()
        usage: Any = None

        def flush() -> None:
            nonlocal pending_chars, flushed_at
            if pending:
                on_chunk("".join(pending))
                outcome.streamed = True
                pending.clear()
            pending_chars, flushed_at = 0, time.monotonic()

        async for chunk in response:
            usage = getattr(chunk, "usage", None) or usage
            delta = chunk.choices[0].delta.content if chunk.choices else None
            if delta:
                parts.append(delta)
                pending.append(delta)
                pending_chars += len(delta)
                if pending_chars >= FLUSH_CHARS or time.monotonic() - flushed_at >= FLUSH_SECONDS:
                    flush()
        flush()
        return usage, "".join(parts)

    def _count(self, outcome: CallOutcome, model: str, usage: Any) -> None:
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        details = getattr(usage, "prompt_tokens_details", None)
        cached = getattr(details, "cached_tokens", None) if details is not None else None
        cached = cached or getattr(usage, "cache_read_input_tokens", 0)  # Anthropic's name for it
        cost = self._cost(model, prompt, completion)
        outcome.prompt_tokens += prompt
        outcome.completion_tokens += completion
        outcome.cached_tokens += int(cached or 0)
        outcome.cost_usd += cost
        self.spent_tokens += prompt + completion
        self.spent_cost += cost

    def _cost(self, model: str, prompt: int, completion: int) -> float:
        """The price from LiteLLM's list; a model missing from it (local or self-hosted) costs 0."""
        if self._priced.get(model) is False or not (prompt or completion):
            return 0.0
        try:
            prompt_cost, completion_cost = litellm.cost_per_token(
                model=model, prompt_tokens=prompt, completion_tokens=completion
            )
        except Exception:
            self._priced[model] = False
            return 0.0
        self._priced[model] = True
        return float(prompt_cost + completion_cost)

    def _describe(self, error: BaseException, attempts: int) -> tuple[Cause, str]:
        """The failure's cause and a note in words (the provider's message, clipped)."""
        cause = cause_of(error)
        tries = f"{attempts} attempt{'' if attempts == 1 else 's'}"
        if cause == "timeout":
            return cause, NOTE_TIMEOUT.format(timeout=self.timeout, attempts=tries)
        message = clip(client_words(error), 300)
        if cause == "unusable":
            return cause, NOTE_UNREADABLE.format(attempts=tries, error=message)
        if cause == "refused":
            return cause, NOTE_REFUSED.format(error=message)
        return cause, NOTE_FAILED.format(attempts=tries, error=message)


def client_words(error: BaseException) -> str:
    """What the client and the provider said about a failure, for the operator (the log, the admin):
    the exception, and for the direct client the error answer's body (httpx's message has only the
    status and the URL)."""
    words = f"{type(error).__name__}: {error}".rstrip(": ")
    if isinstance(error, httpx.HTTPStatusError):
        try:
            words += f" - {error.response.text[:500]}"
        except httpx.ResponseNotRead:
            pass
    return words


def unusable(outcome: CallOutcome) -> str:
    """Why a call gave nothing usable: its error, else an empty or unreadable answer."""
    if outcome.error:
        return outcome.error
    return NOTE_EMPTY if not (outcome.text or "").strip() else NOTE_MALFORMED
