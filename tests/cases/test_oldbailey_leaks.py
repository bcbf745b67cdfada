"""No playable case lets the jury read the historical verdict, tagged or printed as plain text.

Every file of the shared sample is imported; then every playable case's summary, defence
statements, witnesses, evidence and the chunks of its retrieval index are searched,
case-insensitively, for a verdict in a verdict-like position: a sentence that is nothing but a
verdict ("Guilty.", "Acquitted.", "Henry Creed guilty", "Guilty 10 d.", "Guilty of the
felony"), or a last sentence that carries a verdict or a sentence of the court. The patterns
live in ``tests.cases.oldbailey_sample``, written independently of the importer's own.
"""

from __future__ import annotations

import pytest

from cases.models import Case
from cases.retrieval import index_chunks
from cases.services import oldbailey_import_paths
from tests.cases.oldbailey_sample import DATA, leaks_in

ALL_FILES = sorted(DATA.rglob("*.xml"))


def test_the_leak_patterns_catch_the_printed_verdicts_and_pass_ordinary_testimony():
    for leak in (
        "Mr. Cosby came and owned it. Guilty .",
        "I would have had her lashed. ACQUITTED.",
        "He has a good old mother. Guilty 5 s .",
        "She confessed. Guilty 10 d.",
        "Henry Creed guilty ; Margaret Goodman guilty.",
        "Gregory guilty 4 s. 10 d . Robinson guilty 4 s. 10 d . Hayes * acquitted .",
        "He was taken. Not Guilty.",
        "She pawned it. Guilty of felony.",
        "The statute makes it Transportation for fourteen years absolutely, the Court could not grant it.",
        "He ran off. Death.",
        "She had not a farthing. Acquitted. 217. Richard Carberry, was a second time indicted for it.",
    ):
        assert leaks_in(leak), leak
    for clean in (
        "I do not think she would be guilty of any such thing: I keep the mother of her now.",
        "He was tried for it and acquitted, and came home. I saw him the next day.",
        "The wound was the cause of death. I opened the body.",
        "I am a clerk of Mr. Smith, of No. 4, St. Paul's Churchyard.",
        "I believe Mary Jewers is guilty of what the Prisoners are charged with.",
        "Every one would say the goods were brought to them, and by that means every person might be acquitted.",
    ):
        assert not leaks_in(clean), clean


@pytest.mark.django_db
@pytest.mark.timeout(1200)  # imports every file there is (about 1,700 trials); slow on a busy machine
def test_no_playable_case_lets_the_jury_read_a_verdict_in_any_file_of_the_sample():
    report = oldbailey_import_paths(paths=ALL_FILES)
    assert report.errors == []
    playable = list(Case.objects.with_file().filter(source="oldbailey", playable=True))
    assert len(playable) > 100
    leaks: list[tuple[str, str, str]] = []
    for case in playable:
        texts = [("summary", case.summary)] + [("defence", d) for d in case.defense_arguments]
        texts += [(f"witness {w.name}", w.testimony_summary) for w in case.witnesses.all()]
        texts += [(f"evidence {e.label}", f"{e.label}. {e.description}") for e in case.evidence.all()]
        texts += [(f"index {kind} {item}", chunk) for kind, item, chunk in index_chunks(case)]
        for where, text in texts:
            leaks += [(case.source_id, where, found) for found in leaks_in(text)]
    assert leaks == [], "\n".join(map(repr, leaks))
