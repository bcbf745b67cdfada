"""``manage.py verdict_leaks`` over the sample and the 13 more sessions (1801-1912), and a planted leak.

Every sentence the check flagged in the imported record was read by a person (37 passages in 14
trials, counting the index chunks). None is this trial's outcome; each is the record's own words
about another one, and the check now says which (``cases.leaks.explain``, each reason tested on
its passage in ``tests/cases/test_leaks.py``). The trials and reasons below are the whole list:
a new flag, or a known trial explained by another reason, fails the test.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from cases.services import oldbailey_import_paths
from tests.cases.oldbailey_sample import DATA
from tests.factories import CaseFactory, DefendantFactory, WitnessFactory

ALL_FILES = sorted(DATA.rglob("*.xml"))
EXPLAINED = {
    # cross-examination: "And then the Jury acquitted Jones?" (an earlier trial of the prisoner)
    "t18011028-70": {"a question"},
    # returning from transportation, a second uttering, at large before the end of a sentence:
    # the earlier sentence is the offence the indictment charges
    "t18140420-2": {"the indictment"},
    "t18140420-3": {"the indictment", "an earlier trial"},  # and the witness who saw her convicted in 1810
    "t18261026-3": {"the indictment"},
    "t18261026-37": {"an earlier trial"},  # counsel proves a prosecution witness's conviction in 1807
    "t18370918-2188": {"a wish or a condition"},  # the prisoner: "I wish to be transported"
    "t18540508-656": {"a wish or a condition"},  # "willing to be confined there till after the trial"
    "t18620922-989": {"an earlier trial"},  # a man convicted at the Middlesex Sessions
    "t18710109-120": {"a wish or a condition"},  # what an indictment "would" bring
    "t18790526-527": {"another person"},  # Wainwright and Phillips's sentences, George Stannard on trial
    "t18790526-574": {"serving a sentence"},  # taken on leaving prison (bigamy charged)
    "t18811121-54": {"serving a sentence"},  # a warder: the offence was committed in prison
    "t18870912-908": {"an earlier trial"},  # evidence in reply: a calendar from the Lancaster police
    "t18870912-917": {"an earlier trial"},  # a witness's own conviction at the Middlesex Sessions
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


@pytest.mark.django_db
def test_a_defendants_age_printed_only_in_the_verdicts_age_line_is_listed_and_fails_the_check():
    case = CaseFactory(
        slug="aged", source_id="t18011028-77", original_text="She pawned it.\n\nBridget Joyce, GUILTY, aged 45."
    )
    DefendantFactory(case=case, name="Bridget Joyce", age=45)
    lines = _run("--no-index")
    assert lines[0] == "t18011028-77 | defendant Bridget Joyce | aged 45"
    assert lines[-1] == "1 suspicious passage(s) in 1 of 1 case(s)"
    with pytest.raises(CommandError):
        call_command("verdict_leaks", "--no-index", "--fail", stdout=io.StringIO())


@pytest.mark.timeout(1800)  # 1,700 trials imported: minutes on a shared machine
@pytest.mark.django_db
def test_no_playable_case_of_the_sample_or_the_more_sessions_shows_the_answer():
    assert len([p for p in ALL_FILES if "more-sessions" in str(p)]) == 13
    report = oldbailey_import_paths(paths=ALL_FILES)
    assert report.errors == [] and report.trials > 1500
    lines = _run("--source", "oldbailey", "--explained")
    unexplained = [line for line in lines[:-2] if " | explained: " not in line]
    assert unexplained == []
    assert lines[-1] == f"0 suspicious passage(s) in 0 of {report.trials - _unplayable(report)} case(s)"
    explained: dict[str, set[str]] = {}
    for line in lines[:-2]:
        case, _where, reason, _text = line.split(" | ", 3)
        explained.setdefault(case, set()).add(reason.removeprefix("explained: "))
    assert explained == EXPLAINED
    assert lines[-2].startswith("37 explained passage(s) in 14 case(s)")


def _unplayable(report) -> int:
    return sum(report.unplayable.values())
