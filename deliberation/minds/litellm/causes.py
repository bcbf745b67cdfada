"""Why a model call failed, from what the client raised: the cause every failed call is stored with.

A retry can cure a timeout, a lost connection, a 429 or a 5xx answer and an unreadable body; an
authentication or bad-request error it cannot. LiteLLM's exceptions and the direct OpenAI-compatible
client's (httpx) are read alike.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import

import httpx
import litellm

from deliberation.engine.failures import Cause

# A retry can cure these; an authentication or bad-request error it cannot.
RETRYABLE: tuple[type[BaseException], ...] = (
    TimeoutError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
    litellm.RateLimitError,
)


class UnreadableBody(ValueError):
    """The server answered 200 with a body that is no completion (a proxy's error page, say)."""


def retryable(error: BaseException) -> bool:
    """Whether a retry can cure the failure: timeouts, lost connections, 429 and 5xx answers, and an
    unreadable body (LiteLLM counts that a server error too)."""
    if isinstance(error, (*RETRYABLE, httpx.TimeoutException, httpx.TransportError, UnreadableBody)):
        return True
    return isinstance(error, httpx.HTTPStatusError) and (
        error.response.status_code == 429 or error.response.status_code >= 500
    )


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
    if status < 400:  # LiteLLM's APIError for a 200 whose body was no completion (a proxy's page)
        return "unusable"
    return "server_error" if status >= 500 else "refused"
