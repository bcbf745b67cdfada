"""evidence_lookup latency (p50/p95) with at least 1,000 trials indexed.

The sample's 60 trials are replicated under new trial ids (``t...-r<n>``) until 1,020 cases
exist, each with its own persisted index. Look-ups pick a random case and a question; the
"cold" figures open each case's index from disk (the in-process cache is cleared before
every call), the "warm" ones hit cases whose index is already cached.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import statistics
import time

from _django import DATA, setup

TARGET = 1020
QUESTIONS = [
    "who saw the prisoner take it",
    "was the prisoner drunk that night",
    "what did the surgeon find",
    "where was the property found",
    "did the prisoner say anything when taken",
    "could the witness see his face in the dark",
]


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000


def main() -> None:
    scratch = setup()
    from django.conf import settings
    from django.db import transaction

    from cases import retrieval
    from cases.importers.oldbailey import parse_file, slug_for
    from cases.models import Case
    from cases.services import case_upsert_from_trial

    records = []
    for path in sorted((DATA / "trials").glob("*.xml")):
        records += parse_file(path.read_bytes(), name=path.name, max_bytes=settings.ANGRY_IMPORT_MAX_BYTES).trials
    start = time.perf_counter()
    n = 0
    while n < TARGET:
        with transaction.atomic():
            for record in records:
                copy_id = f"{record.trial_id}-r{n // len(records)}"
                case_upsert_from_trial(trial=dataclasses.replace(record, trial_id=copy_id, slug=slug_for(copy_id)))
                n += 1
    build = time.perf_counter() - start
    cases = list(Case.objects.with_file())
    indexed = sum(1 for _ in (scratch / "index" / "bm25").iterdir())
    rng = random.Random(7)
    cold, warm = [], []
    for _ in range(300):
        case, question = rng.choice(cases), rng.choice(QUESTIONS)
        with retrieval._cache_lock:
            retrieval._cache.clear()
        t = time.perf_counter()
        retrieval.evidence_lookup(case, question, 3)
        cold.append(time.perf_counter() - t)
    hot = cases[:50]
    for c in hot:
        retrieval.evidence_lookup(c, "warm up", 3)
    for _ in range(1000):
        case, question = rng.choice(hot), rng.choice(QUESTIONS)
        t = time.perf_counter()
        retrieval.evidence_lookup(case, question, 3)
        warm.append(time.perf_counter() - t)
    print(f"cases: {len(cases)}, indexes on disk: {indexed}, import + index build: {build:.1f}s")
    print(f"cold (index opened from disk): p50 {pct(cold, 50):6.1f} ms  p95 {pct(cold, 95):6.1f} ms")
    print(f"warm (index cached):           p50 {pct(warm, 50):6.1f} ms  p95 {pct(warm, 95):6.1f} ms")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
