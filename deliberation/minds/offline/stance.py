"""Which way a sentence pushes the verdict, learned from a corpus of jury-room talk rather than listed.

The offline reading (``offline_reading``) finds what a sentence is about; this model says which way
it goes. It was trained on ``data/stance_corpus.tsv``: sentences from arguments about invented cases
and Old Bailey-style trials (none about the curated cases), each labelled guilty / not_guilty /
none and with whose item it speaks of (the prosecution's, the defence's, none). Two small logistic
heads over one feature vector per sentence:

* **directed**: how likely the sentence argues the verdict at all (against chatter, talk about the
  discussion, a bare list of names);
* **towards guilt**: ``sigmoid(a + lean * b)``, where ``a`` is the sentence's own verdict stance ("I
  just don't feel it's been proven", "he was right there covered in blood") and ``b`` says whether
  it affirms or undermines the item it speaks of, turned by that item's side (``lean``: +1 the
  prosecution's, -1 the defence's, 0 none): "the informer said a .38 but they found a 9 mm"
  undermines a prosecution witness, so it reads towards doubt; "the other man was in custody that
  night" undermines the defence's other suspect, so it reads towards guilt.

The features: the sentence's vector (``reading_vectors``: the static word-piece table or the whole
MiniLM, per ``ANGRY_READING``), the vector of the words in the scope of a negation ("doesn't
*prove a blow*", "can't *rule him out*") apart, so that a bag of words still hears what is denied,
and a few counts (the lexicon's stance words, negators, a question, a contrast, a sarcastic
opener, a hedge). Each vector source has its own weights, built from the corpus by
``python -m deliberation.minds.offline.stance --build [--kind static|minilm]`` (deterministic:
Newton's method on an L2-penalised log-likelihood from zero). Pure Python and numpy, no Django.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import math
import re
import threading
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

import numpy as np

from deliberation.minds.offline import lexicon as lex
from deliberation.minds.offline import vectors as reading_vectors

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = DATA / "stance_corpus.tsv"
LEANS = {"prosecution": 1.0, "defence": -1.0, "none": 0.0}
PENALTY = {"static": 0.1, "minilm": 0.1}  # the L2 penalty, chosen by cross-validation on whole topics left out
MIN_SEEN = 1  # a word or pair must be seen in this many sentences of the corpus to get a column
VECTOR_BLOCK = 1.0  # the vector features' length beside the words' (both blocks unit length before it)
NEWTON_STEPS = 30

NEGATORS = lex.NEGATORS | frozenset(
    "dont doesnt didnt cant wont isnt wasnt arent werent couldnt wouldnt shouldnt hasnt havent hadnt aint "
    "neither nowhere noone".split()
)
NEGATION_SCOPE = 8  # words a negation reaches at most, when no comma or "but" ends it first
WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?|[,.;:!?]")
SCOPE_ENDS = frozenset(", . ; : ! ? but because cos coz so although though yet while whereas however".split())
CONTRAST = re.compile(r"\b(but|however|though|although|yet|whereas)\b", re.I)
SARCASM = re.compile(
    r"^\W*(oh|yeah|yes|sure|right|of course|brilliant|great|wonderful|splendid|amazing|marvellous|lovely|"
    r"well done|very good|ah|how (?:convenient|lucky|handy)|and i suppose)\b",
    re.I,
)
HEDGE = re.compile(r"\b(maybe|might|perhaps|probably|possibly|i think|not sure|idk|dunno|i guess|kinda)\b", re.I)
FIRST_PERSON = re.compile(r"\b(i|i'm|im|me|my)\b", re.I)
COUNTS = 10  # the hand-made features after the two vectors


def negated_spans(text: str) -> list[tuple[int, int]]:
    """Character spans in the scope of a negation: from the word after "not" / "doesn't" / "no" to the
    next comma, full stop or "but", at most ``NEGATION_SCOPE`` words."""
    spans: list[tuple[int, int]] = []
    words = list(WORD.finditer(text))
    index = 0
    while index < len(words):
        word = words[index].group().lower().replace("’", "'")
        if word in NEGATORS or word.endswith("n't"):
            end = index + 1
            while end < len(words) and end - index <= NEGATION_SCOPE and words[end].group().lower() not in SCOPE_ENDS:
                end += 1
            if end > index + 1:
                spans.append((words[index + 1].start(), words[end - 1].end()))
            index = end
        else:
            index += 1
    return spans


def counts(text: str) -> np.ndarray:
    """The hand-made features: the lexicon's stance words, negators, a question, a contrast, a sarcastic
    opener, a hedge, the first person, numbers, length."""
    words = lex.tokens(text)
    absolute, relative = lex.stance_of(text)
    negators = sum(1 for w in WORD.findall(text.lower()) if w in NEGATORS or w.endswith("n't"))
    return np.array(
        [
            max(-2, min(2, absolute)) / 2,
            max(-2, min(2, relative)) / 2,
            min(3, negators) / 3,
            1.0 if "?" in text else 0.0,
            1.0 if CONTRAST.search(text) else 0.0,
            1.0 if SARCASM.search(text) else 0.0,
            1.0 if HEDGE.search(text) else 0.0,
            1.0 if FIRST_PERSON.search(text) else 0.0,
            1.0 if any(ch.isdigit() for ch in text) else 0.0,
            math.log1p(len(words)) / 4,
        ],
        dtype=np.float32,
    )


NGRAM_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def grams(text: str) -> list[str]:
    """The text's words and pairs of words, a word in the scope of a negation marked ("not prove" gives
    "not", "~prove", "not ~prove"): what a bag of words needs to hear what is denied."""
    lowered = text.lower().replace("’", "'")
    spans = negated_spans(lowered)
    words = [("~" if _in_spans(m.start(), spans) else "") + m.group() for m in NGRAM_WORD.finditer(lowered)]
    return words + [f"{a} {b}" for a, b in pairwise(words)]


def _in_spans(start: int, spans: list[tuple[int, int]]) -> bool:
    return any(low <= start < high for low, high in spans)


def _pool(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    total = float(weights.sum())
    if total <= 0:
        return np.zeros(rows.shape[1], dtype=np.float32)
    pooled = weights @ rows / total
    norm = float(np.linalg.norm(pooled))
    return pooled / norm if norm else pooled


def _static_features(texts: tuple[str, ...]) -> np.ndarray:
    source = reading_vectors.vectors("static")
    assert isinstance(source, reading_vectors.StaticVectors)
    rows = []
    for text in texts:
        pieces, offsets = source.pieces_with_offsets(text)
        spans = negated_spans(text)
        table = source.rows(pieces)
        weights = source.weights(pieces)
        negated = np.array([_in_spans(start, spans) for start, _ in offsets], dtype=bool)
        whole = _pool(table, weights) if len(pieces) else np.zeros(source.dimensions, dtype=np.float32)
        denied = _pool(table[negated], weights[negated]) if negated.any() else np.zeros_like(whole)
        rows.append(np.concatenate([whole, denied, counts(text)]))
    return np.asarray(rows, dtype=np.float32)


def _minilm_features(texts: tuple[str, ...]) -> np.ndarray:
    source = reading_vectors.vectors("minilm")
    assert isinstance(source, reading_vectors.MiniLMVectors)
    rows = []
    for text, (tokens, offsets) in zip(texts, source.token_vectors(texts), strict=True):
        spans = negated_spans(text)
        weights = np.ones(len(tokens), dtype=np.float32)
        negated = np.array([_in_spans(start, spans) and end > start for start, end in offsets], dtype=bool)
        whole = _pool(tokens, weights)
        denied = _pool(tokens[negated], weights[negated]) if negated.any() else np.zeros_like(whole)
        rows.append(np.concatenate([whole, denied, counts(text)]))
    return np.asarray(rows, dtype=np.float32)


def features(texts: tuple[str, ...], kind: str) -> np.ndarray:
    """One feature row per text: its vector, the vector of what it denies, and the counts."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    return _static_features(texts) if kind == "static" else _minilm_features(texts)


@dataclass(frozen=True)
class Stance:
    """What the model makes of one sentence; ``towards(lean)`` is its direction about an item of that side."""

    directed: float  # 0..1: how likely it argues the verdict at all
    own: float  # logit towards guilt from the sentence alone ("a")
    turn: float  # how it treats the item it speaks of, x that item's side ("b")

    def guilt(self, lean: float = 0.0) -> float:
        """0..1: how likely it pushes towards guilt, said of an item whose side is ``lean``."""
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, self.own + lean * self.turn))))

    def towards(self, lean: float = 0.0) -> float:
        """-1..1: towards guilt (+) or doubt (-), times how likely it argues anything at all."""
        return self.directed * (2.0 * self.guilt(lean) - 1.0)


@dataclass(frozen=True)
class Model:
    kind: str
    grams: dict[str, int]  # word or pair of words -> column
    idf: np.ndarray
    mean: np.ndarray  # of the vector features
    scale: np.ndarray
    directed: np.ndarray  # weights (grams, vector features) then bias
    guilt: np.ndarray  # own weights, turn weights, own bias, turn bias

    def bag(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The text's word and pair counts as (columns, tf-idf values of unit length)."""
        counted: dict[int, int] = {}
        for gram in grams(text):
            column = self.grams.get(gram)
            if column is not None:
                counted[column] = counted.get(column, 0) + 1
        columns = np.fromiter(counted, dtype=np.int64, count=len(counted))
        values = (1.0 + np.log(np.fromiter(counted.values(), dtype=np.float32, count=len(counted)))) * self.idf[columns]
        return columns, values / max(float(np.linalg.norm(values)), 1e-6)

    def vector_block(self, rows: np.ndarray) -> np.ndarray:
        return (rows - self.mean) / self.scale / math.sqrt(rows.shape[1]) * VECTOR_BLOCK

    def design(self, texts: tuple[str, ...], rows: np.ndarray) -> np.ndarray:
        """Each text's columns: its word and pair counts (tf-idf, unit length) beside its standardised
        vector features (their block scaled to unit length too, so that the penalty weighs both alike)."""
        bag = np.zeros((len(texts), len(self.grams)), dtype=np.float32)
        for row, text in enumerate(texts):
            columns, values = self.bag(text)
            bag[row, columns] = values
        return np.hstack([bag, self.vector_block(rows)]).astype(np.float32)

    def stances(self, texts: tuple[str, ...], rows: np.ndarray) -> list[Stance]:
        """The stance of each text (the words' block read sparsely: a sentence has a few dozen of them)."""
        words = len(self.grams)
        size = words + rows.shape[1]
        vector = self.vector_block(rows)
        found = []
        for text, block in zip(texts, vector, strict=True):
            columns, values = self.bag(text)
            heads = []
            for weights, start in ((self.directed, 0), (self.guilt, 0), (self.guilt, size)):
                heads.append(values @ weights[start + columns] + block @ weights[start + words : start + size])
            directed = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, heads[0] + self.directed[size]))))
            own = heads[1] + self.guilt[2 * size]
            turn = heads[2] + self.guilt[2 * size + 1]
            found.append(Stance(float(directed), float(own), float(turn)))
        return found


def weights_path(kind: str) -> Path:
    return DATA / f"stance_{kind}.npz"


_lock = threading.Lock()
_models: dict[str, Model] = {}


def model(kind: str | None = None) -> Model:
    """The shipped weights for the vector source in use, loaded once per process."""
    kind = kind or reading_vectors.kind_in_use()
    with _lock:
        if kind not in _models:
            with np.load(weights_path(kind), allow_pickle=False) as data:
                _models[kind] = Model(
                    kind,
                    {str(gram): column for column, gram in enumerate(data["grams"])},
                    data["idf"].astype(np.float32),
                    data["mean"].astype(np.float32),
                    data["scale"].astype(np.float32),
                    data["directed"].astype(np.float32),
                    data["guilt"].astype(np.float32),
                )
        return _models[kind]


CACHE_SIZE = 50_000
_cache: dict[tuple[str, str], Stance] = {}


def stances(texts: tuple[str, ...], kind: str | None = None) -> list[Stance]:
    """The stance of each text; each text is read once per process (the missing ones in one batch)."""
    kind = kind or reading_vectors.kind_in_use()
    missing = tuple(dict.fromkeys(t for t in texts if (kind, t) not in _cache))
    if missing:
        found = model(kind).stances(missing, features(missing, kind))
        with _lock:
            if len(_cache) + len(missing) > CACHE_SIZE:
                _cache.clear()
            _cache.update({(kind, text): stance for text, stance in zip(missing, found, strict=True)})
    return [_cache[(kind, t)] for t in texts]


def stance(text: str, kind: str | None = None) -> Stance:
    return stances((text,), kind)[0]


# --- building the weights ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    topic: str
    voice: str
    label: str  # guilty | not_guilty | none
    about: str  # prosecution | defence | none
    text: str


def corpus(path: Path = CORPUS) -> tuple[Example, ...]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    return tuple(Example(r["topic"], r["voice"], r["label"], r["about"], r["text"]) for r in rows)


BIAS_COLUMN = 10.0  # the bias rides on a constant column this large, so the penalty barely touches it


def _kernel_newton(x: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """L2-penalised logistic regression by Newton's method in the span of the examples (``w = x.T @ a``:
    the cost depends on the number of examples, not of columns). Deterministic: from zero, no sampling."""
    kernel = (x @ x.T).astype(np.float64)
    signs = np.where(y > 0.5, 1.0, -1.0)
    a = np.zeros(len(x))
    for _ in range(NEWTON_STEPS):
        margin = signs * (kernel @ a)
        p = 1.0 / (1.0 + np.exp(np.clip(margin, -30, 30)))  # sigmoid(-margin)
        slope = -signs * p  # d loss / d f
        curve = p * (1.0 - p)  # d2 loss / d f2
        step = np.linalg.solve(curve[:, None] * kernel + penalty * np.eye(len(x)), slope + penalty * a)
        a -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return (x.T @ a).astype(np.float64)


def _with_bias(z: np.ndarray, *extra: np.ndarray) -> np.ndarray:
    return np.hstack([z, *[column[:, None] for column in extra]])


def fit(texts: tuple[str, ...], rows: np.ndarray, examples: tuple[Example, ...], kind: str, penalty: float) -> Model:
    counted: dict[str, int] = {}
    for text in texts:
        for gram in set(grams(text)):
            counted[gram] = counted.get(gram, 0) + 1
    vocabulary = sorted(gram for gram, seen in counted.items() if seen >= MIN_SEEN)
    idf = np.array([math.log((1 + len(texts)) / (1 + counted[g])) + 1.0 for g in vocabulary], dtype=np.float32)
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0) + 1e-3
    shell = Model(kind, {g: i for i, g in enumerate(vocabulary)}, idf, mean, scale, np.zeros(0), np.zeros(0))
    z = shell.design(texts, rows).astype(np.float64)
    size = z.shape[1]
    ones = np.full(len(z), BIAS_COLUMN)
    directed_y = np.array([e.label != "none" for e in examples], dtype=float)
    w = _kernel_newton(_with_bias(z, ones), directed_y, penalty)
    directed = np.concatenate([w[:size], [w[size] * BIAS_COLUMN]])
    chosen, leans, ys = [], [], []
    for index, example in enumerate(examples):
        if example.label == "none":
            continue
        lean = LEANS[example.about]
        for each in dict.fromkeys((lean, 0.0)):  # also without its item: the reading does not always find it
            chosen.append(index)
            leans.append(each)
            ys.append(1.0 if example.label == "guilty" else 0.0)
    picked, lean_column = z[chosen], np.array(leans)
    design = np.hstack([picked, picked * lean_column[:, None]])
    ones = np.full(len(picked), BIAS_COLUMN)
    w = _kernel_newton(_with_bias(design, ones, lean_column * BIAS_COLUMN), np.array(ys), penalty)
    guilt = np.concatenate([w[: 2 * size], [w[2 * size] * BIAS_COLUMN, w[2 * size + 1] * BIAS_COLUMN]])
    return replace(shell, directed=directed.astype(np.float32), guilt=guilt.astype(np.float32))


def _fold(topic: str, folds: int) -> int:
    return int(hashlib.sha1(topic.encode()).hexdigest(), 16) % folds


def cross_validate(kind: str, penalty: float, folds: int = 5) -> dict[str, float]:
    """Accuracy on whole topics left out (grouped folds): directed vs none, and the direction of the
    directed sentences read with their item's side and without it."""
    examples = corpus()
    texts = tuple(e.text for e in examples)
    rows = features(texts, kind)
    hits = {"directed": 0, "with_item": 0, "alone": 0}
    totals = {"directed": 0, "with_item": 0, "alone": 0}
    for fold in range(folds):
        train = [i for i, e in enumerate(examples) if _fold(e.topic, folds) != fold]
        test = [i for i, e in enumerate(examples) if _fold(e.topic, folds) == fold]
        trained = fit(tuple(texts[i] for i in train), rows[train], tuple(examples[i] for i in train), kind, penalty)
        for index, found in zip(test, trained.stances(tuple(texts[i] for i in test), rows[test]), strict=True):
            example = examples[index]
            totals["directed"] += 1
            hits["directed"] += (found.directed > 0.5) == (example.label != "none")
            if example.label == "none":
                continue
            truth = example.label == "guilty"
            totals["with_item"] += 1
            hits["with_item"] += (found.guilt(LEANS[example.about]) > 0.5) == truth
            totals["alone"] += 1
            hits["alone"] += (found.guilt(0.0) > 0.5) == truth
    return {name: hits[name] / totals[name] for name in hits}


def build(kind: str, penalty: float | None = None) -> Path:
    examples = corpus()
    texts = tuple(e.text for e in examples)
    trained = fit(texts, features(texts, kind), examples, kind, PENALTY[kind] if penalty is None else penalty)
    path = weights_path(kind)
    vocabulary = sorted(trained.grams, key=trained.grams.__getitem__)
    np.savez_compressed(
        path,
        grams=np.array(vocabulary),
        idf=trained.idf.astype(np.float16),
        mean=trained.mean.astype(np.float32),
        scale=trained.scale.astype(np.float32),
        directed=trained.directed.astype(np.float32),
        guilt=trained.guilt.astype(np.float32),
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="train the weights from the corpus and write them")
    parser.add_argument("--kind", default="static", choices=reading_vectors.KINDS)
    parser.add_argument("--penalty", type=float, default=None)
    parser.add_argument("--cv", action="store_true", help="cross-validate on the corpus, whole topics left out")
    args = parser.parse_args()
    if args.cv:
        penalties = [args.penalty] if args.penalty is not None else [0.03, 0.1, 0.3, 1.0]
        for penalty in penalties:
            scores = cross_validate(args.kind, penalty)
            print(f"{args.kind} penalty {penalty:g}: " + ", ".join(f"{k} {v:.3f}" for k, v in scores.items()))
    if args.build:
        path = build(args.kind, args.penalty)
        print(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
