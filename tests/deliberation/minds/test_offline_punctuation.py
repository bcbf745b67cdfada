"""A filler that ends its own sentence leaves no second full stop behind it."""

from deliberation.minds.offline.speech import _fill

FRAME = "{Opponents} [picks|pick] holes in {ref}, but {fact}."


def test_a_quotation_that_ends_its_sentence_takes_no_second_full_stop() -> None:
    values = {"Opponents": "The defense", "ref": "the text message", "fact": "'I swear you'll regret it.'"}
    assert (
        _fill(FRAME, values, plural=False)
        == "The defense picks holes in the text message, but 'I swear you'll regret it.'"
    )


def test_a_fact_with_its_own_stop_or_question_mark_ends_once() -> None:
    said = {"Opponents": "The prosecution", "ref": "the alibi", "fact": "the bar closed at 11 p.m."}
    assert _fill(FRAME, said, plural=False).endswith("at 11 p.m.")
    asked = {**said, "fact": "who locked the door?"}
    assert _fill(FRAME, asked, plural=False).endswith("who locked the door?")
    plain = {**said, "fact": "the receipts were never checked"}
    assert _fill(FRAME, plain, plural=False).endswith("never checked.")
