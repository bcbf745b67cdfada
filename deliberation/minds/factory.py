"""Which mind answers for a deliberation: the offline engine or a LiteLLM model."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError

from deliberation.engine.ports import Mind
from deliberation.minds.offline.mind import OfflineMind

OFFLINE = "offline"
ERROR_UNKNOWN_MODEL = (
    "LiteLLM cannot tell which provider serves {engine!r}. Use 'offline' or a model string such as "
    "gemini/gemini-2.5-flash, ollama/llama3.1 or openai/gpt-4o-mini."
)


def engine_check(engine: str) -> None:
    """Refuse a model string no provider serves, before a deliberation starts (not round by round)."""
    if engine == OFFLINE:
        return
    import litellm

    litellm.suppress_debug_info = True  # its own "Provider List" banner would go to stdout
    try:
        litellm.get_llm_provider(engine)
    except Exception:
        raise ValidationError(ERROR_UNKNOWN_MODEL.format(engine=engine)) from None


def engine_label(engine: str) -> str:
    """How the engine is named wherever it is shown."""
    return "the offline engine" if engine == OFFLINE else engine


def mind_for(engine: str) -> Mind:
    if engine == OFFLINE:
        return OfflineMind()
    from deliberation.minds.litellm.mind import LiteLLMMind  # imports LiteLLM only when a model is used

    return LiteLLMMind(
        engine,
        api_base=settings.ANGRY_LLM_API_BASE or None,
        timeout=settings.ANGRY_LLM_TIMEOUT,
        retries=settings.ANGRY_LLM_RETRIES,
        fallback=OfflineMind(),
    )
