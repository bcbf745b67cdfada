"""``manage.py verdict_leaks`` over the sample and the 13 more sessions (1801-1912), and a planted leak.

Every sentence the check flags in the imported record was read by a person; the ones below
are the record's own words about something other than this trial's outcome (the former
conviction that is the offence itself, a witness's own past, evidence in reply), so they stay.
Anything else flagged fails the test.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from cases.services import oldbailey_import_paths
from tests.cases.oldbailey_sample import DATA
from tests.factories import CaseFactory, DefendantFactory, WitnessFactory

ALL_FILES = sorted(DATA.rglob("*.xml"))
REVIEWED = {
    "t18011028-70": "cross-examination about an earlier trial of the prisoner, in which he was acquitted",
    "t18140420-2": "returning from transportation: the earlier sentence is the offence charged",
    "t18140420-3": "a second uttering: the earlier conviction and sentence are the offence charged",
    "t18261026-3": "being at large before the end of a sentence of transportation: the offence charged",
    "t18261026-37": "counsel proves a prosecution witness's own conviction in 1807 (his credit)",
    "t18370918-2188": "the prisoner said 'I wish to be transported' when taken",
    "t18540508-656": "a witness was asked to be confined until the trial was over",
    "t18620922-989": "a witness speaks of an earlier trial at the Middlesex Sessions",
    "t18710109-120": "the prisoner's own statement of what an indictment would bring",
    "t18790526-527": "the sentences of two other men, in evidence of an earlier robbery",
    "t18790526-574": "the prisoner was taken on leaving prison (bigamy charged)",
    "t18870912-908": "evidence in reply on character, before the verdict",
    "t18870912-917": "a witness's own conviction for an assault",
    "t18811121-54": "a warder: the prisoner was serving a sentence when the offence was committed",
}


def _run(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("verdict_leaks", *args, stdout=out)
    return out.getvalue().strip().splitlines()


@pytest.mark.django_db
def test_a_planted_verdict_in_a_witness_statement_is_listed_and_fails_the_check():
    case = CaseFactory(slug="planted", source_id="t19090101-1")
    DefendantFactory(case=case)
    WitnessFactory(
        case=case,
        name="Inspector Hale",
        testimony_summary="I arrested both. Verdict, both prisoners Guilty, with a recommendation to mercy.",
    )
    lines = _run("--no-index")
    assert lines[0].startswith("t19090101-1 | witness Inspector Hale | Verdict, both prisoners Guilty")
    assert lines[-1] == "1 suspicious passage(s) in 1 of 1 case(s)"
    with pytest.raises(CommandError):
        call_command("verdict_leaks", "--no-index", "--fail", stdout=io.StringIO())


@pytest.mark.timeout(1800)  # 1,700 trials imported: minutes on a shared machine
@pytest.mark.django_db
def test_no_playable_case_of_the_sample_or_the_more_sessions_shows_the_answer():
    assert len([p for p in ALL_FILES if "more-sessions" in str(p)]) == 13
    report = oldbailey_import_paths(paths=ALL_FILES)
    assert report.errors == [] and report.trials > 1500
    lines = _run("--source", "oldbailey")
    flagged = {line.split(" | ")[0] for line in lines[:-1]}
    unexplained = [line for line in lines[:-1] if line.split(" | ")[0] not in REVIEWED]
    assert unexplained == []
    assert flagged <= set(REVIEWED)
    assert lines[-1].endswith(f"of {report.trials - _unplayable(report)} case(s)")


def _unplayable(report) -> int:
    return sum(report.unplayable.values())
