"""A summary the model answered with broken JSON is no summary: the call counts as failed (an
unusable answer) and the offline engine's minutes stand, instead of the garbage being read out."""

from __future__ import annotations

import pytest

from deliberation.engine.parse_room import parse_summary
from tests.deliberation.minds.jury import JURY


@pytest.mark.parametrize(
    "garbage",
    [
        "{not json at all",
        '{"summary": "The room argued about the coat"',  # cut off mid-object
        "[• the coat, • the watch",
        "```json\n{summary: the coat, the watch\n```",
    ],
)
def test_broken_json_is_not_a_summary(garbage):
    assert parse_summary(garbage, jurors=JURY) is None


def test_plain_bullets_and_whole_json_are_still_summaries():
    assert parse_summary("• Tom pressed the watch.", jurors=JURY) is not None
    assert parse_summary('{"summary": "Tom pressed the watch; Ann doubted the light."}', jurors=JURY) is not None
