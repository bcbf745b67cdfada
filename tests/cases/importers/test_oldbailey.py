"""The Old Bailey parser on the real sample and on hostile input (no database)."""

from __future__ import annotations

import re

import pytest

from cases.importers.oldbailey import REASON_GUILTY_PLEA, parse_file
from cases.importers.oldbailey_rules import split_sentences
from cases.importers.oldbailey_verdict import REASON_NO_VERDICT, REASON_UNREADABLE_VERDICT
from cases.importers.oldbailey_xml import (
    ERROR_FORBIDDEN,
    ERROR_MALFORMED,
    ERROR_TOO_DEEP,
    ERROR_TOO_LARGE,
    MAX_DEPTH,
    ImportFileError,
)
from cases.leaks import age_only_after_verdict
from tests.cases.oldbailey_sample import (
    DATA,
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
OBC2 = next(p for p in SESSIONS if p.name.startswith("OBC2"))


def parse(path):
    return parse_file(path.read_bytes(), name=str(path), max_bytes=LIMIT)


def test_the_sample_is_all_there():
    assert len(TRIALS) == 60 and len(SESSIONS) == 2


# The OBC2 session's trials without verdict tags, and the verdict printed at their end (read by hand).
PRINTED = {
    "t17440404-2": "guilty",  # "Gregory guilty 4 s. 10 d. Robinson guilty 4 s. 10 d. Hayes * acquitted."
    "t17440404-4": "guilty",
    "t17440404-6": "guilty",
    "t17440404-9": "not_guilty",
    "t17440404-11": "guilty",
    "t17440404-12": "guilty",  # "Guilty 10 d."
    "t17440404-13": "guilty",
    "t17440404-15": "guilty",  # "Henry Creed guilty; Margaret Goodman guilty."
    "t17440404-17": "not_guilty",
    "t17440404-27": "not_guilty",  # "Acquitted. 217. Richard Carberry, was a second time indicted..."
    "t17440404-35": "guilty",  # "Guilty 5 s."
}


def obc2_session():
    return {r.trial_id: r for r in parse(OBC2).trials}


@pytest.mark.parametrize("path", TRIALS + SESSIONS, ids=lambda p: p.name)
def test_each_trial_gets_the_verdict_its_xml_records(path):
    xml_trials = {t.get("id"): t for t in trials_in(load(path))}
    records = parse(path).trials
    assert {r.trial_id for r in records} == set(xml_trials)
    for record in records:
        tagged = first_verdict(xml_trials[record.trial_id])
        expected = VERDICT_WORDS.get(tagged, "unknown") if tagged else PRINTED[record.trial_id]
        assert record.historical_verdict == expected, record.trial_id


def test_verdicts_printed_as_plain_words_are_read_and_cut_from_the_testimony():
    records = obc2_session()
    untagged = {t.get("id") for t in trials_in(load(OBC2)) if not first_verdict(t)}
    assert untagged == set(PRINTED)
    for trial_id, verdict in PRINTED.items():
        record = records[trial_id]
        assert record.historical_verdict == verdict and record.playable, trial_id
        last = record.witnesses[-1].testimony
        assert not re.search(r"(guilty|acquitted)[\s\d sd.]*$", last, re.I), (trial_id, last[-80:])
    sherrard = next(w for w in records["t17440404-11"].witnesses if w.name == "George Sherrard")
    assert sherrard.testimony.endswith("and Mr. Cosby came and owned it.")
    assert records["t17440404-12"].witnesses[-1].testimony.endswith("gave them to Elizabeth Cook to pawn.")


def test_a_sentence_noted_as_see_summary_is_taken_from_the_sessions_punishment_summary():
    records = obc2_session()
    assert not any("See summary" in r.historical_punishment for r in records.values())
    assert records["t17440404-11"].historical_punishment == "Transportation for 7 Years"  # "Callen 197" listed


def test_the_jurys_recommendation_and_the_footnotes_after_a_printed_verdict_are_cut_too():
    records = obc2_session()
    goodman = " ".join(w.testimony for w in records["t17440404-15"].witnesses)
    assert "recommended" not in goodman and "Transportation for fourteen years" not in goodman
    assert goodman.endswith("desired to know where her husband lived.")
    hayes = " ".join(w.testimony for w in records["t17440404-2"].witnesses)
    assert "no indictment for the first fact" not in hayes


def test_an_account_holding_a_second_indictment_keeps_only_the_first_up_to_its_verdict():
    record = obc2_session()["t17440404-27"]
    text = " ".join([*(w.testimony for w in record.witnesses), *record.defense_arguments])
    assert "a second time indicted" not in text and "Acquitted" not in text
    assert text  # the first indictment's testimony is all there
    assert record.witnesses[3].testimony.endswith("the mother has the character of keeping a disorderly house.")


UNTAGGED = """<div1 type="trialAccount" id="t17440101-1"><interp inst="t17440101-1" type="year" value="1744"/>
<p>1. <persName id="d1" type="defendantName">John Brown<interp inst="d1" type="surname" value="Brown"/>
<interp inst="d1" type="given" value="John"/></persName> and <persName id="d2" type="defendantName">Ann Smith
<interp inst="d2" type="surname" value="Smith"/><interp inst="d2" type="given" value="Ann"/></persName>, were
indicted for <rs id="o1" type="offenceDescription"><interp inst="o1" type="offenceCategory" value="theft"/>
stealing a coat</rs>.</p>
<p>Mary Cole. <u role="Witness" speaker="s1">I saw Mr. Brown take the coat from the stall. {end}</u></p>
</div1>"""


@pytest.mark.parametrize(
    ("end", "verdict", "reason"),
    [
        ("Guilty .", "guilty", ""),
        ("Brown acquitted. Smith guilty 10 d.", "not_guilty", ""),  # the first defendant's verdict
        ("Jones acquitted. Cole guilty.", "unknown", REASON_UNREADABLE_VERDICT),  # neither names the first
        ("", "unknown", REASON_NO_VERDICT),
    ],
)
def test_an_untagged_verdict_read_unambiguously_is_recorded_otherwise_the_trial_is_not_playable(end, verdict, reason):
    data = UNTAGGED.format(end=end).encode()
    (record,) = parse_file(data, name="u.xml", max_bytes=LIMIT).trials
    assert (record.historical_verdict, record.unplayable_reason, record.playable) == (verdict, reason, not reason)
    assert record.witnesses[0].testimony == "I saw Mr. Brown take the coat from the stall."


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
            if pn.get("type") == "witnessName" and not COUNSEL.search(squash("".join(p.itertext())))
        }
        found = {w.name.lower() for w in record.witnesses}
        assert tagged <= found
        # besides, only the witnesses the printer named by rank and left untagged ("Detective-sergeant ALFRED
        # GROSSE, Y Division."), and the printer's summary of the character evidence
        untagged = {
            match.group(1).split()[-1].lower()
            for p in paragraphs
            if not any(pn.get("type") == "witnessName" for pn in p.iter("persName"))
            and (match := RANKED_NAME.match(squash("".join(p.itertext()))))
        }
        for extra in found - tagged:
            assert extra == "witnesses to character" or extra.split()[-1] in untagged, extra


# Counsel are sometimes tagged as witnesses ("MR. HORACE AVORY conducted the Prosecution"); they give no evidence,
# nor when they argue the law ("MR. SYDENHAM JONES submitted that there was no case to go to the Jury").
COUNSEL = re.compile(
    r"^M ?R\.?\s[^.]*?\b(?:conducted the (?:Prosecution|Defence)|Prosecuted|Defended|submitted)\b", re.IGNORECASE
)
# A rank or title, then a name ending in a surname in capitals.
RANKED_NAME = re.compile(r"^(?:[A-Z][a-z-]+\.? )+((?:[A-Z][\w.'-]* )*[A-Z][A-Z'-]+)\b")


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


def all_records():
    return [r for path in TRIALS + SESSIONS for r in parse(path).trials]


def test_a_statement_by_the_accused_is_attributed_to_the_defendant_and_reported_by_the_witness():
    record = obc2_session()["t17440404-11"]
    (statement,) = [e for e in record.evidence if e.label.startswith("Statement by the accused")]
    assert statement.label == "Statement by the accused (Eleanor Callen), as reported by George Sherrard"
    for record in all_records():
        defendants = {d.name for d in record.defendants}
        for item in record.evidence:
            named = re.match(r"Statement by the accused \(([^)]*)\)", item.label)
            assert named is None or named.group(1) in defendants, (record.trial_id, item.label)


def test_a_defendant_giving_evidence_speaks_for_the_defence_as_the_accused():
    (record,) = parse(next(p for p in TRIALS if p.stem == "t19080623-39")).trials
    hunt = next(w for w in record.witnesses if w.name == "Gertrude Alice Hunt")
    assert record.defendants[0].name == "Gertrude Alice Hunt"
    assert (hunt.role, hunt.side) == ("the accused", "defense")
    assert not any("as reported by Gertrude Alice Hunt" in e.label for e in record.evidence)


def test_testimony_sentences_do_not_break_after_titles_abbreviations_or_initials():
    text = "I am a clerk of Mr. Smith, of No. 4, St. Paul's. I asked J. W. Brown. Q. Did he answer? A. No. He left."
    assert split_sentences(text) == [
        "I am a clerk of Mr. Smith, of No. 4, St. Paul's.",
        "I asked J. W. Brown.",
        "Q. Did he answer?",
        "A. No.",
        "He left.",
    ]


def test_no_evidence_quote_is_cut_short_after_an_abbreviation():
    for record in all_records():
        for item in record.evidence:
            for quote in item.description.split(" … "):
                assert not re.search(r"\b(Mr|Mrs|Dr|St|Messrs|[A-Z])\.$", quote), (record.trial_id, quote[-60:])


def test_testimony_that_merely_opens_with_a_punishment_word_is_not_taken_for_a_verdict():
    data = UNTAGGED.format(end="Death was near, said the surgeon.").encode()
    (record,) = parse_file(data, name="u.xml", max_bytes=LIMIT).trials
    assert record.witnesses[0].testimony.endswith("Death was near, said the surgeon.")
    assert (record.historical_verdict, record.unplayable_reason) == ("unknown", REASON_NO_VERDICT)


def _nested(depth: int) -> bytes:
    return b'<div1 type="trialAccount" id="t1-1"><p>' + b"<hi>" * depth + b"x" + b"</hi>" * depth + b"</p></div1>"


def test_a_tree_nested_20000_deep_is_refused_with_a_clear_error_not_a_recursion_error():
    with pytest.raises(ImportFileError) as caught:
        parse_file(_nested(20000), name="deep.xml", max_bytes=LIMIT)
    assert str(caught.value) == ERROR_TOO_DEEP.format(name="deep.xml", limit=MAX_DEPTH)


def test_nesting_within_the_limit_still_parses():
    assert len(parse_file(_nested(MAX_DEPTH - 5), name="nested.xml", max_bytes=LIMIT).trials) == 1


def test_an_age_printed_only_after_the_verdict_never_reaches_the_jury_and_a_headings_age_does():
    early = {r.trial_id: r for r in parse(DATA / "more-sessions" / "18011028.xml").trials}
    joyce = early["t18011028-77"]  # "Bridget Joyce, GUILTY, aged 45." and nothing before the verdict
    assert "GUILTY, aged 45" in joyce.original_text
    assert [d.age for d in joyce.defendants] == [None, None]
    assert "aged" not in joyce.summary
    later = {r.trial_id: r for r in parse(DATA / "more-sessions" / "18620922.xml").trials}
    assert any(d.age for r in later.values() for d in r.defendants)  # "MARGARET NAGLE (20), was indicted"


@pytest.mark.timeout(600)  # every shared file: about 1,750 trials
def test_every_age_shown_is_printed_beside_the_name_in_every_file():
    shown = 0
    for path in sorted(DATA.rglob("*.xml")):
        for record in parse(path).trials:
            for defendant in record.defendants:
                if defendant.age:
                    shown += 1
                    assert re.search(rf"\(\s*\.?{defendant.age}\b", record.original_text), record.trial_id
                    assert not age_only_after_verdict(defendant.age, record.original_text), record.trial_id
    assert shown > 300  # the 1860-1912 headings print every prisoner's age
