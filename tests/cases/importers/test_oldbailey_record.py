"""The original record: the whole printed trial and its address on Old Bailey Online."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from cases.importers.oldbailey import parse_file
from cases.importers.oldbailey_record import original_text, record_url
from tests.cases.oldbailey_sample import DATA


def test_the_record_link_is_the_trial_page_on_old_bailey_online():
    assert record_url("t18600402-389") == "https://www.oldbaileyonline.org/record/t18600402-389"


def test_an_id_that_is_not_an_old_bailey_trial_id_has_no_link():
    assert record_url("") == ""
    assert record_url("javascript:alert(1)") == ""
    assert record_url("t1860-389/../admin") == ""


def test_the_original_text_keeps_every_paragraph_and_the_real_verdict():
    trial = ET.fromstring((DATA / "trials" / "t18600402-389.xml").read_bytes())
    text = original_text(trial)
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == len([p for p in trial if p.tag == "p"])
    assert paragraphs[0].startswith("389. PATRICK HALPIN (26), Feloniously killing and slaying")
    assert "Bartholomew" in paragraphs[0]  # a printed line break inside a word is joined up
    assert paragraphs[-2:] == ["NOT GUILTY.", "Before Mr. Common Serjeant."]


def test_parsing_a_session_gives_each_trial_its_own_original_text_taken_before_the_answer_is_cut():
    parsed = parse_file((DATA / "sessions" / "18950225.xml").read_bytes(), name="18950225.xml", max_bytes=10**8)
    trial = next(t for t in parsed.trials if t.trial_id == "t18950225-255")
    assert "NOT GUILTY" in trial.original_text
    assert "NOT GUILTY" not in trial.summary
    assert len({t.original_text for t in parsed.trials}) == len(parsed.trials)
