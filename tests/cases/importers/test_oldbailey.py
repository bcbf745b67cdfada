"""The Old Bailey parser on the real sample and on hostile input (no database)."""

from __future__ import annotations

import re

import pytest

from cases.importers.oldbailey import REASON_GUILTY_PLEA, parse_file
from cases.importers.oldbailey_xml import ERROR_FORBIDDEN, ERROR_MALFORMED, ERROR_TOO_LARGE, ImportFileError
from tests.cases.oldbailey_sample import (
    INDEX,
    SESSIONS,
    TRIALS,
    answer_texts,
    before_verdict,
    first_verdict,
    load,
    squash,
    trials_in,
)

LIMIT = 50 * 1024 * 1024
VERDICT_WORDS = {"guilty": "guilty", "notGuilty": "not_guilty"}


def parse(path):
    return parse_file(path.read_bytes(), name=str(path), max_bytes=LIMIT)


def test_the_sample_is_all_there():
    assert len(TRIALS) == 60 and len(SESSIONS) == 2


@pytest.mark.parametrize("path", TRIALS + SESSIONS, ids=lambda p: p.name)
def test_each_trial_gets_the_verdict_its_xml_records(path):
    xml_trials = {t.get("id"): t for t in trials_in(load(path))}
    records = parse(path).trials
    assert {r.trial_id for r in records} == set(xml_trials)
    for record in records:
        expected = VERDICT_WORDS.get(first_verdict(xml_trials[record.trial_id]), "unknown")
        assert record.historical_verdict == expected, record.trial_id


@pytest.mark.parametrize("path", TRIALS, ids=lambda p: p.name)
def test_single_trial_verdicts_agree_with_the_index(path):
    (record,) = parse(path).trials
    row = INDEX[record.trial_id]
    assert record.historical_verdict == VERDICT_WORDS[row["verdict"]]
    assert record.offence_category == row["offence_category"]
    assert record.year == int(row["year"])
    assert record.slug == "ob-" + record.trial_id
    assert record.title == f"The Crown v. {record.defendants[0].name}"
    assert (record.historical_punishment != "") == (row["punishment"] != "")


@pytest.mark.parametrize("path", TRIALS + SESSIONS, ids=lambda p: p.name)
def test_no_verdict_or_punishment_text_leaks_into_what_the_jury_reads(path):
    xml_trials = {t.get("id"): t for t in trials_in(load(path))}
    for record in parse(path).trials:
        readable = " ".join(
            [record.summary, *record.defense_arguments]
            + [w.testimony for w in record.witnesses]
            + [f"{e.label} {e.description}" for e in record.evidence]
        )
        for answer in answer_texts(xml_trials[record.trial_id]):
            if len(answer) >= 12:  # long answers must not appear at all
                assert answer not in readable, (record.trial_id, answer)
        # The verdict as printed in capitals ("NOT GUILTY", "GUILTY") never reaches the jury.
        assert not re.search(r"\bGUILTY\b", readable), record.trial_id


@pytest.mark.parametrize(
    "path", [p for p in TRIALS if INDEX[p.stem]["witness_count_method"] != "heuristic"], ids=lambda p: p.name
)
def test_witnesses_are_found_where_the_xml_tags_them(path):
    trial = load(path)
    (record,) = parse(path).trials
    paragraphs = before_verdict(trial)
    utterances = [u for p in paragraphs for u in p.iter("u")]
    if utterances:
        speakers = {u.get("speaker") for u in utterances if u.get("role") in {"Witness", "Victim"}}
        assert len(record.witnesses) == len(speakers)
    else:
        tagged = {
            squash(" ".join(v for v in (_interp(pn, "given"), _interp(pn, "surname")) if v)).lower()
            for p in paragraphs
            for pn in p.iter("persName")
            if pn.get("type") == "witnessName"
        }
        assert {w.name.lower() for w in record.witnesses} == tagged


def _interp(person, kind):
    for el in person.iter("interp"):
        if el.get("type") == kind and el.get("inst") == person.get("id"):
            return el.get("value", "").strip()
    return ""


@pytest.mark.parametrize(
    "path", [p for p in TRIALS if INDEX[p.stem]["witness_count_method"] == "heuristic"], ids=lambda p: p.name
)
def test_untagged_early_trials_find_witnesses_by_capitalised_names(path):
    (record,) = parse(path).trials
    expected = int(INDEX[record.trial_id]["witnesses"])
    assert expected - 1 <= len(record.witnesses) <= expected
    assert all(w.name == w.name.title() or not w.name.isupper() for w in record.witnesses)


def test_cross_examination_is_kept_as_questions_and_answers():
    path = next(p for p in TRIALS if p.stem == "t18600402-389")
    (record,) = parse(path).trials
    biggin = next(w for w in record.witnesses if w.name == "Mary Biggin")
    assert "Q. What were you standing there for? A. I went to get a candle" in biggin.testimony


def test_obc2_questions_from_counsel_become_q_lines_in_the_witness_testimony():
    path = next(p for p in TRIALS if p.stem == "t17440404-29")
    (record,) = parse(path).trials
    croon = next(w for w in record.witnesses if "Croon" in w.name)
    assert "Q. Have you not a large dog in the yard? A. Yes - he always does bark" in croon.testimony
    assert croon.role == "victim" and croon.side == "prosecution"


def test_witnesses_after_the_defence_opens_speak_for_the_defence():
    path = next(p for p in TRIALS if p.stem == "t18280221-71")
    (record,) = parse(path).trials
    sides = {w.name: w.side for w in record.witnesses}
    assert sides["Charles Bradshaw"] == "prosecution"
    assert sides["James Smith"] == "defense"


def test_content_notes_follow_the_offence_category():
    by_id = {r.trial_id: r for path in TRIALS for r in parse(path).trials}
    assert {"violence", "death"} <= set(by_id["t18600402-389"].content_notes)  # kill/manslaughter
    assert "sexual_offence" in by_id["t17441017-25"].content_notes  # sexual/rape
    assert "death_of_a_child" in by_id["t19030622-559"].content_notes  # concealing a birth
    assert by_id["t18411213-402"].content_notes == ()  # burglary


def test_guilty_pleas_are_kept_but_not_playable():
    records = [r for path in SESSIONS for r in parse(path).trials]
    pleas = [r for r in records if r.verdict_subcategory in {"pleadedGuilty", "pleadedPartGuilty"}]
    assert pleas, "the sessions hold guilty pleas"
    assert all(not r.playable and r.unplayable_reason == REASON_GUILTY_PLEA for r in pleas)
    assert all(r.playable for r in records if r.witnesses and r not in pleas)


def test_multi_defendant_trials_keep_every_defendant():
    for path in SESSIONS:
        for trial in trials_in(load(path)):
            names = {pn.get("id") for pn in trial.iter("persName") if pn.get("type") == "defendantName"}
            if len(names) > 1:
                record = next(r for r in parse(path).trials if r.trial_id == trial.get("id"))
                assert len(record.defendants) >= 2 and record.title.endswith("and others")
                return
    pytest.fail("no multi-defendant trial in the sessions")


def test_a_session_trial_without_its_own_sentence_takes_it_from_the_punishment_summary():
    # The summary lists "Received Sentence of Death" then "Isabella Mills 200"; trial 200 is hers.
    path = next(p for p in SESSIONS if p.name.startswith("OBC2"))
    text = path.read_text(encoding="utf-8")
    mills = next(
        t
        for t in trials_in(load(path))
        if any("Mills" in "".join(pn.itertext()) for pn in t.iter("persName") if pn.get("type") == "defendantName")
    )
    trial_id = mills.get("id")
    start = text.index(f'<div1 id="{trial_id}"')
    end = text.index("</div1>", start)
    trial_text = re.sub(r'<rs id="[^"]*" type="punishmentDescription">.*?</rs>', "", text[start:end], flags=re.S)
    assert "punishmentDescription" not in trial_text
    data = (text[:start] + trial_text + text[end:]).encode("utf-8")
    record = next(r for r in parse_file(data, name="s.xml", max_bytes=LIMIT).trials if r.trial_id == trial_id)
    assert "Death" in record.historical_punishment


def test_fragments_and_whole_sessions_parse_the_same_trial_alike():
    session = next(p for p in SESSIONS if p.name == "18950225.xml")
    fragment = next(p for p in TRIALS if p.stem == "t18950225-255")
    in_session = next(r for r in parse(session).trials if r.trial_id == "t18950225-255")
    assert parse(fragment).trials[0] == in_session


XXE = b"""<?xml version="1.0"?>
<!DOCTYPE div1 [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<div1 type="trialAccount" id="t1-1"><p>&secret;</p></div1>"""
LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<div1 type="trialAccount" id="t1-1"><p>&lol3;</p></div1>"""
DTD = b"""<?xml version="1.0"?>
<!DOCTYPE TEI.2 SYSTEM "http://127.0.0.1:9/tei.dtd">
<div1 type="trialAccount" id="t1-1"><p>x</p></div1>"""


@pytest.mark.parametrize("data", [XXE, LAUGHS, DTD], ids=["xxe", "billion-laughs", "dtd"])
def test_hostile_xml_is_refused_with_a_clear_error(data):
    with pytest.raises(ImportFileError) as caught:
        parse_file(data, name="evil.xml", max_bytes=LIMIT)
    prefix = ERROR_FORBIDDEN.split("(")[0].format(name="evil.xml")
    assert str(caught.value).startswith(prefix)
    assert "root:" not in str(caught.value)


def test_malformed_xml_names_the_file_and_the_line():
    data = b'<div1 type="trialAccount" id="t1-1">\n<p>one</p>\n<p>two</x>\n</div1>'
    with pytest.raises(ImportFileError) as caught:
        parse_file(data, name="broken.xml", max_bytes=LIMIT)
    assert caught.value.line == 3
    assert str(caught.value).startswith(ERROR_MALFORMED.split(" at")[0].format(name="broken.xml"))
    assert "line 3" in str(caught.value)


def test_a_file_over_the_size_limit_is_refused():
    data = TRIALS[0].read_bytes()
    with pytest.raises(ImportFileError) as caught:
        parse_file(data, name="big.xml", max_bytes=len(data) - 1)
    assert str(caught.value) == ERROR_TOO_LARGE.format(name="big.xml", size=len(data), limit=len(data) - 1)
