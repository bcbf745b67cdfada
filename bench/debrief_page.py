"""The debrief page and its CSV: queries and time to answer, by length of deliberation.

Run: .venv/bin/python bench/debrief_page.py [--rounds 2 40 200] [--repeat 5]

Each deliberation is written row by row (tests/deliberation/review/conftest.py: a foreperson line
and two speeches per round, every speech with eleven reactions); the page and the CSV are asked
for through Django's test client, after one warm-up request. Figures: queries per request (must
not grow with the rounds), the median time of the page, of the CSV, of building the debrief from
an already fetched deliberation (pure arithmetic), and of the transcript page for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._django import setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, nargs="+", default=[2, 40, 200])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from deliberation.review.debrief import build_debrief
    from deliberation.review.selectors import build_transcript, deliberation_for_review
    from tests.deliberation.review.conftest import write_deliberation

    settings.ALLOWED_HOSTS = ["*"]
    setup_test_environment()
    client = Client()
    print(
        f"{'rounds':>6} {'speeches':>8} {'queries':>7} {'csv queries':>11} {'page ms':>8} {'csv ms':>7}"
        f" {'build ms':>8} {'transcript ms':>13}"
    )
    for rounds in args.rounds:
        d = write_deliberation(rounds=rounds)
        figures = {}
        for name in ("review:debrief", "review:debrief_csv", "review:transcript"):
            url = reverse(name, args=[d.pk])
            assert client.get(url).status_code == 200
            times = []
            for _ in range(args.repeat):
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    assert client.get(url).status_code == 200
                    times.append((time.perf_counter() - start) * 1000)
            figures[name] = (len(captured.captured_queries), statistics.median(times))
        fetched = deliberation_for_review(d.pk)
        build = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            build_debrief(build_transcript(fetched))
            build.append((time.perf_counter() - start) * 1000)
        queries, page_ms = figures["review:debrief"]
        csv_queries, csv_ms = figures["review:debrief_csv"]
        _, transcript_ms = figures["review:transcript"]
        print(
            f"{rounds:>6} {2 * rounds:>8} {queries:>7} {csv_queries:>11} {page_ms:>8.1f} {csv_ms:>7.1f}"
            f" {statistics.median(build):>8.1f} {transcript_ms:>13.1f}"
        )


if __name__ == "__main__":
    main()
