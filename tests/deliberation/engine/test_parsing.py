from __future__ import annotations

import pytest

from deliberation.engine.parse_room import parse_reactions, parse_summary
from deliberation.engine.parsing import ContentStream, normalize_argument_type, parse_speech, resolve_seat
from tests.deliberation.minds.jury import JURY

IDS = ["E1", "E2", "W1"]
WELL_FORMED = (
    "<SpeakingTo>Tom Reyes</SpeakingTo>\n<ArgumentType>evidence</ArgumentType>\n<Position>NOT GUILTY</Position>\n"
    "<Reasoning>The coat was shared.</Reasoning>\n<Cites>E1, W1</Cites>\n"
    "<Content>Tom, anyone could reach that coat.</Content>"
)
LANE = "Picture the lane at dusk."


def parse(text: str | None):
    return parse_speech(text, jury=JURY, known_ids=IDS)


def test_a_well_formed_answer_yields_every_field() -> None:
    parsed = parse(WELL_FORMED)

    assert parsed is not None
    assert parsed.content == "Tom, anyone could reach that coat."
    assert (parsed.speaking_to, parsed.argument_type, parsed.position) == (3, "evidence", "not_guilty")
    assert parsed.reasoning == "The coat was shared."
    assert parsed.cited == ("E1", "W1")
    assert parsed.structured


@pytest.mark.parametrize(
    "text",
    [
        "```xml\n" + WELL_FORMED + "\n```",
        "Certainly! Here is my statement as Margaret:\n\n" + WELL_FORMED + "\n\nI hope this helps.",
        "<think>Let me consider the coat.</think>" + WELL_FORMED,
        "<Message id='7'>\n<Speaker>Margaret Chen</Speaker>\n" + WELL_FORMED + "\n</Message>",
        WELL_FORMED.replace("</Content>", ""),
        WELL_FORMED.lower(),
    ],
    ids=["code-fence", "chatty-prose", "thinking-block", "message-wrapper", "unclosed-content", "lower-case-tags"],
)
def test_the_statement_survives_wrapping_and_sloppy_tags(text: str) -> None:
    parsed = parse(text)

    assert parsed is not None
    assert parsed.content.lower() == "tom, anyone could reach that coat."
    assert parsed.speaking_to == 3
    assert parsed.position == "not_guilty"


def test_missing_tags_leave_their_fields_empty_but_keep_the_statement() -> None:
    parsed = parse("<Content>The lamps were lit at half past six, per E2.</Content>")

    assert parsed is not None
    assert parsed.speaking_to is None and parsed.position is None and parsed.reasoning == ""
    assert parsed.argument_type == "logical"
    assert parsed.cited == ("E2",)  # found in the statement itself


def test_tags_without_content_use_the_prose_around_them() -> None:
    parsed = parse("<Verdict>Guilty</Verdict><VerdictReasoning>the watch</VerdictReasoning>\nHe had the watch, Ann.")

    assert parsed is not None
    assert parsed.content == "He had the watch, Ann."
    assert parsed.position == "guilty" and parsed.reasoning == "the watch"


def test_bare_prose_is_taken_as_the_statement() -> None:
    parsed = parse("I keep coming back to the lamp-lighter.")

    assert parsed is not None and parsed.content == "I keep coming back to the lamp-lighter."
    assert not parsed.structured


@pytest.mark.parametrize(
    "text",
    [
        '{"speaking_to": "Juror 5", "argument_type": "story", "position": "guilty", "content": "' + LANE + '"}',
        '```json\n{"SpeakingTo": "Ann", "ArgumentType": "narrative", "Position": "Guilty", "Content": "'
        + LANE
        + '",}\n```',
        "{'speaking_to': 5, 'argument_type': 'narrative', 'position': 'GUILTY', 'content': '" + LANE + "'}",
        'Here you go: {"to": "ann ward", "type": "narrative", "verdict": "guilty", "text": "' + LANE + '"}',
    ],
    ids=["json", "fenced-json-trailing-comma", "python-dict", "prose-then-json"],
)
def test_json_answers_are_read_like_tags(text: str) -> None:
    parsed = parse(text)

    assert parsed is not None
    assert (parsed.content, parsed.speaking_to, parsed.argument_type, parsed.position) == (
        "Picture the lane at dusk.",
        5,
        "narrative",
        "guilty",
    )


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "   \n ",
        "```\n```",
        "<Content></Content>",
        "<Position>GUILTY</Position>",
        '{"mood": "grim"}',
        "%%$#@!&*^~~",
        "0101 1101 0011",
    ],
    ids=[
        "none",
        "empty",
        "blank",
        "empty-fence",
        "empty-content",
        "tags-only",
        "json-without-content",
        "symbols",
        "digits",
    ],
)
def test_unusable_answers_give_none_so_the_mind_can_fall_back(text: str | None) -> None:
    assert parse(text) is None


def test_a_refusal_is_not_taken_for_a_statement() -> None:
    assert parse("I'm sorry, but I can't take part in this role-play.") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("evidence", "evidence"),
        ("Evidence-based", "evidence"),
        ("FACTUAL", "evidence"),
        ("emotion", "emotional"),
        ("Logic", "logical"),
        ("questioning", "question"),
        ("ethical", "moral"),
        ("storytelling", "narrative"),
        ("narativ", "narrative"),
        ("", "logical"),
        ("interpretive dance", "logical"),
    ],
)
def test_argument_types_map_to_the_nearest_known_type_or_the_default(raw: str, expected: str) -> None:
    assert normalize_argument_type(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Juror 5", 5),
        ("juror_5", 5),
        ("#8", 8),
        ("3", 3),
        (8, 8),
        ("Ann Ward (Juror 5)", 5),
        ("Walter", 8),
        ("margaret chen", 1),
        ("Margret Chen", 1),
        ("the cynic", 3),
        ("everyone", None),
        ("The jury", None),
        ("Juror 11", None),
        ("Nobody in particular", None),
        (None, None),
    ],
)
def test_speaking_to_becomes_a_seat_from_a_name_a_label_or_a_number(raw: object, expected: int | None) -> None:
    assert resolve_seat(raw, JURY) == expected


def test_the_stream_filter_lets_out_only_the_content_text_in_order() -> None:
    stream = ContentStream()
    pieces = [stream.feed(WELL_FORMED[i : i + 4]) for i in range(0, len(WELL_FORMED), 4)]

    assert "".join(pieces) == "Tom, anyone could reach that coat."
    assert all("<" not in piece and "Tom Reyes" not in piece for piece in pieces)


def test_the_stream_filter_lets_out_a_less_than_sign_that_is_not_a_tag() -> None:
    stream = ContentStream()
    text = "<Content>Six < seven, and a<b too.</Content>"
    pieces = [stream.feed(char) for char in text]

    assert "".join(pieces) == "Six < seven, and a<b too."


def test_reactions_read_juror_keys_in_any_spelling_and_clamp_the_impact() -> None:
    listeners = JURY[:3]
    text = """```json
    {"juror_1": [{"speech": 1, "impact": 2.5, "thought": "Strong point", "persuaded": "yes"},
                 {"speech": 2, "impact": -0.2, "thought": "Hm", "persuaded": false},],
     "3": {"delta": "-4", "reaction": "Nonsense"},
     "Ann Ward": 0.1,
     "juror_11": {"impact": 1.0},}
    ```"""
    parsed = parse_reactions(text, listeners=listeners, speech_count=2)

    assert parsed is not None
    table = {(r.seat, r.speech_index): r for r in parsed.reactions}
    assert len(parsed.reactions) == 6  # every listener, every speech
    assert (table[1, 0].base_impact, table[1, 0].persuaded, table[1, 0].thought) == (1.0, True, "Strong point")
    assert table[1, 1].base_impact == -0.2
    assert table[3, 1].base_impact == -1.0 and table[3, 1].thought == "Nonsense"  # a bare object: the last speech
    assert table[3, 0].base_impact == 0.0
    assert table[5, 1].base_impact == 0.1
    assert parsed.missing == ()


def test_reactions_default_missing_jurors_to_no_impact_and_name_them() -> None:
    parsed = parse_reactions(
        '{"reactions": [{"juror": 3, "speech": 1, "impact": 0.4}]}', listeners=JURY, speech_count=1
    )

    assert parsed is not None
    assert {r.seat: r.base_impact for r in parsed.reactions} == {1: 0.0, 3: 0.4, 5: 0.0, 8: 0.0}
    assert parsed.missing == (1, 5, 8)


@pytest.mark.parametrize(
    "text", ["", "The jury is moved.", "{not json at all", '{"juror_42": {"impact": 1}}', "[1, 2, 3]"]
)
def test_reactions_that_cover_nobody_give_none(text: str) -> None:
    assert parse_reactions(text, listeners=JURY, speech_count=1) is None


def test_summaries_read_json_bullets_and_each_jurors_line() -> None:
    text = (
        '```json\n{"summary": ["Tom pressed the watch.", "Ann doubted Mary Dunn."],'
        ' "jurors": {"juror_1": "Margaret wants the lamp times."}}\n```'
    )

    shared, personal = parse_summary(text, jurors=JURY) or ("", {})

    assert shared == "• Tom pressed the watch.\n• Ann doubted Mary Dunn."
    assert personal == {1: "Margaret wants the lamp times."}


def test_summaries_accept_plain_bullets_and_refuse_noise() -> None:
    assert parse_summary("• Tom pressed the watch.\n• Ann doubted.", jurors=JURY) == (
        "• Tom pressed the watch.\n• Ann doubted.",
        {},
    )
    assert parse_summary("", jurors=JURY) is None
    assert parse_summary('{"other": 1}', jurors=JURY) is None
