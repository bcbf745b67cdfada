"""The offline jurors' words, over many seeded games of the five curated cases: no clause that is a
label or is cut before its verb, no subjectless clause, no fact that argues the other side, no
"their" for a juror, and words that agree with the speaker's vote unless the speaker says why not."""

from __future__ import annotations

import random
import re

from deliberation.minds.offline import phrases
from deliberation.minds.offline.points import all_points
from deliberation.minds.offline.reading import read
from deliberation.minds.offline.speech import _facts, _own_words, ref_of
from deliberation.minds.offline.text import clip, issue_clause, split_sentences
from tests.deliberation.minds.curated import SLUGS, curated_case
from tests.deliberation.minds.games import on_the_stand, spoken, spoken_in

# Said when a juror argues against its own vote: devil's advocacy, being won over, going along.
DECLARED = re.compile(
    r"devil's advocate|other side|argue against|let it be me|changed my mind|turns me around|come round"
    r"|convinced me|I agree\.|go along|holding things up|I can see why|moved me towards",
    re.I,
)


def _speeches() -> list[str]:
    return [s.speech.content for s in spoken()]


def _every_fact() -> list[tuple[str, str, str, str, str]]:
    """(case, side, angle, item label, clause) for every clause any point of a curated case can carry."""
    found = []
    for slug in SLUGS:
        case = curated_case(slug)
        for side in ("guilty", "not_guilty"):
            for point in all_points(case, side, random.Random(0)):
                plural = ref_of(point, case).plural
                for limit in (10, 16):
                    found += [
                        (slug, side, point.angle, point.label, f) for f in _facts(point, case, plural, limit, side)
                    ]
    return found


NAMED = re.compile(r"[a-z0-9-]{3,}")
PARTICIPLE = re.compile(r"^((?:[\w'-]+ ){1,4})[a-z]+ed (?:from|on|at|by|in|with)\b", re.I)


def test_no_fact_is_an_items_caption_or_a_witness_job_title() -> None:
    """ "Say what you like about the alarm panel log; panel log downloaded from the alarm company."
    put the description's caption (the item's name and a participle) where a clause goes; "Dr. Nadia
    Hollis told us fire protection engineer ..., called by the defense" did the same with a job."""
    facts = _every_fact()
    assert len(facts) > 150
    captions = []
    for _, _, angle, label, fact in facts:
        head = PARTICIPLE.match(fact) if angle in {"support", "rebut", "contest"} else None
        if head and re.search(r"\b(?:is|was|are|were|has|had)\b", head.group(1)):
            head = None
        named = set(NAMED.findall(label.lower())) - {"the", "and", "from", "with"}
        if head and named & set(NAMED.findall(head.group(1).lower())):
            captions.append(fact)
        if re.search(r", (?:called|retained|hired) by\b", fact):
            captions.append(fact)
    assert not captions, captions[:5]


def test_a_clause_cut_short_keeps_its_verb() -> None:
    """ "NFPA 921 states that irregular floor patterns" stopped before the verb of its "that" clause;
    "code 01 was the owner's birth year and, according to the night manager" inside an aside."""
    reported = re.compile(r"\b(?:states|says|shows|finds|found|concludes|argues|notes) that ((?:[\w'’-]+ ?){1,5})$")
    verb = re.compile(r"\b(?:is|was|were|are|be|can|could|had|has|have|did|\w+ed|\w+es|he|she|they|it|we)\b")
    open_clauses = []
    for _, _, _, _, fact in _every_fact():
        tail = reported.search(fact)
        if (tail and not verb.search(tail.group(1))) or re.search(r"\b(?:and|but|or)\s*,\s*[^,]*$", fact):
            open_clauses.append(fact)
    assert not open_clauses, open_clauses[:5]
    cut = "NFPA 921 states that irregular floor patterns, crazed glass and low burns can all be caused by a flashover"
    assert clip(cut, 16) == ""


def test_no_clause_leaves_its_subject_out_after_a_semicolon_or_a_colon() -> None:
    """ "Dr. Nadia Hollis never visited the scene; worked from photographs ..." and "Here's my problem
    with Tom Ibsen: says 'I think' and concedes ..." """
    subjectless = re.compile(
        r"(?:[;:]|, but) (?:says|said|concedes|admits|worked|was|did|had|never|unsure|wrote|chose)\b"
        r"|\. (?:Wrote|Chose|Concedes|Says) "
    )
    slips = [text for text in _speeches() if subjectless.search(text)]
    slips += [f for *_, f in _every_fact() if subjectless.search(f) or re.match(r"(?:says|concedes|unsure) ", f)]
    assert not slips, slips[:3]
    assert issue_clause("Says 'I think' and concedes it could be anyone.", "Tom Ibsen").startswith("Tom Ibsen says")
    assert issue_clause("Unsure whether the last character was 2 or Z.", "Ruth Adeyemi") == (
        "Ruth Adeyemi was unsure whether the last character was 2 or Z"
    )
    assert issue_clause("Never visited the scene; worked from photographs.", "Dr. Hollis") == (
        "Dr. Hollis never visited the scene and worked from photographs"
    )


def test_an_items_fact_never_argues_the_other_side() -> None:
    """ "Look at the gas can purchase: a neighbour saw him mowing on Saturday June 5." argued guilt
    with the defence's answer to the purchase: an item's description holds both sides' facts."""
    wrong = []
    for slug, side, angle, _, fact in _every_fact():
        if angle not in {"support", "rebut"}:
            continue
        push = read(curated_case(slug), fact).push
        if push * (1 if side == "guilty" else -1) < -0.05:
            wrong.append((slug, side, fact))
    assert not wrong, wrong[:5]
    said = " ".join(_speeches())
    assert "saw him mowing" not in said or "mowing" in curated_case("copper-kettle-fire").summary


def test_a_juror_is_named_not_called_they() -> None:
    """ "Sarah Chen changed their vote": a juror the room knows is named again, never "their"."""
    assert not [text for text in _speeches() if re.search(r"\b[A-Z][a-z]+ changed their vote\b", text)]
    assert any(re.search(r"\b[A-Z][a-z]+ switched to (?:not )?guilty\b", text) for text in _speeches())


def test_a_fact_is_not_passed_off_as_the_item_itself() -> None:
    """ "An electrician's invoice shows an appointment booked for June 9. That's the arc bead on the
    neon-sign circuit, in black and white.": the invoice is not the bead."""
    assert not [text for text in _speeches() if re.search(r"\. That's the [^.]+, in black and white", text)]
    assert not [text for text in _speeches() if "It's not there, so" in text]


def disagreement(games=None) -> float:  # type: ignore[no-untyped-def]
    """The share of speeches whose words go against the speaker's vote, unexplained: the side the
    speech argues (its closing line's) is not the vote, or the offline reading hears the whole
    speech push the other way."""
    games = games if games is not None else spoken()
    against = 0
    for s in games:
        if DECLARED.search(s.speech.content):
            continue
        towards = 1 if s.vote == "guilty" else -1
        argued = s.speech.position or s.vote
        against += argued != s.vote or read(s.case, s.speech.content).push * towards < -0.05
    return against / len(games)


def test_a_jurors_words_agree_with_its_vote_unless_it_says_why() -> None:
    """A contrarian arguing the other side says it plays devil's advocate (in words the room has not
    heard, so the words are not dropped as a repeat), and a juror recalls another's change of vote
    only when it went the speaker's way."""
    games = spoken(10)
    silent = [
        s.speech.content
        for s in games
        if (s.speech.position or s.vote) != s.vote and not DECLARED.search(s.speech.content)
    ]
    assert not silent, silent[:3]
    recalled_against = [
        s.speech.content
        for s in games
        if (m := re.search(r"(?:switched|changed their vote) to (not guilty|guilty)", s.speech.content))
        and m.group(1).replace(" ", "_") != s.vote
        and not DECLARED.search(s.speech.content)
    ]
    assert not recalled_against, recalled_against[:3]


def test_a_friendly_witness_is_not_quoted_against_its_own_side() -> None:
    """ "Dr. Nadia Hollis was clear. “I never visited the scene.”" from a juror arguing not guilty:
    the defence's expert's own words, but the matter of her credibility issue; nor her concession
    "I cannot rule out arson". A witness's line that repeats its own weakness is the other side's."""
    against = []
    for slug in SLUGS:
        case = on_the_stand(slug)
        for side in ("guilty", "not_guilty"):
            for point in all_points(case, side, random.Random(0)):
                if point.angle != "witness_support":
                    continue
                issues = next(w for w in case.witnesses if w.id == point.item_id).credibility_issues
                for line in _own_words(point, case, 14, side):
                    said = set(re.findall(r"[a-z]{5,}", line.lower()))
                    if "rule out" in line or any(
                        len(said & set(re.findall(r"[a-z]{5,}", i.lower()))) >= 2 for i in issues
                    ):
                        against.append((slug, point.label, line))
    assert not against, against[:5]
    hollis = [s.speech.content for s in spoken() if s.vote == "not_guilty" and "Hollis" in s.speech.content]
    assert hollis and not [
        t for t in hollis if "“I never visited the scene.”" in t or "“I cannot rule out arson.”" in t
    ]


COUNT = re.compile(r"(\d+) (?:guilty, |to )(\d+)")


def test_a_count_a_juror_quotes_is_the_last_count_taken_and_said_to_be_so() -> None:
    # Votes change at the end of a round, shown beside the speech that moved them: a later speaker
    # of that round who said "We're 12 to 0 right now" would contradict the change just shown.
    for template in phrases.ROUND_ASIDES:
        assert "{guilty}" not in template or "last count" in template, template
    quoted = 0
    for said in spoken():
        for sentence in split_sentences(said.speech.content):
            found = COUNT.search(sentence)
            if found and "last count" in sentence:
                quoted += 1
                assert (int(found.group(1)), int(found.group(2))) == said.tally, sentence
    assert quoted >= 5  # the asides that quote the count are heard in these games


VERDICT_CLOSER = re.compile(r"\b(?:so|then)[:,]? (not guilty|guilty)\.$|^(not guilty|guilty)\b", re.I)


def test_a_juror_arguing_the_other_side_never_closes_by_declaring_that_sides_verdict() -> None:
    # "Nobody has answered that, so: not guilty." ended a devil's advocate's speech while it voted guilty
    # (the arson case, seed 12).
    declared = 0
    for said in (*spoken(), *spoken_in("copper-kettle-fire", 13)):
        for sentence in split_sentences(said.speech.content):
            found = VERDICT_CLOSER.search(sentence.strip())
            if found:
                declared += 1
                verdict = (found.group(1) or found.group(2)).lower().replace(" ", "_")
                assert verdict == said.vote, (said.vote, said.speech.content)
    assert declared >= 5  # closers that name a verdict are heard in these games
