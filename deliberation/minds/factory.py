"""Which mind answers for a deliberation: the offline engine or a LiteLLM model."""

from __future__ import annotations

from django.conf import settings

from deliberation.minds.base import Mind
from deliberation.minds.offline import OfflineMind

OFFLINE = "offline"


def engine_label(engine: str) -> str:
    """How the engine is named wherever it is shown."""
    return "the offline engine" if engine == OFFLINE else engine


def mind_for(engine: str) -> Mind:
    if engine == OFFLINE:
        return OfflineMind()
    from deliberation.minds.litellm_mind import LiteLLMMind  # imports LiteLLM only when a model is used

    return LiteLLMMind(
        engine,
        api_base=settings.ANGRY_LLM_API_BASE or None,
        timeout=settings.ANGRY_LLM_TIMEOUT,
        retries=settings.ANGRY_LLM_RETRIES,
        fallback=OfflineMind(),
    )
