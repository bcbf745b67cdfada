"""The offline engine reads as a deliberation, not a template: whole sentences from the file, each
side arguing its own reasons, and a room that does not repeat itself."""

import asyncio
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from cases.casefile import case_file
from cases.models import Case
from deliberation.engine.ports import CraftRequest, JurorOutlook, SpeakRequest
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.engine.types import CaseFile, EvidenceItem, WitnessItem
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.points import all_points, fallback_point, mention
from deliberation.minds.offline.text import ends_dangling, fit, quotes, split_sentences
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury

TRIALS = Path("/work/shared/data/oldbailey/trials")
SESSION = Path("/work/shared/data/oldbailey/sessions/OBC2-17440404.xml")
# ob-t17440404-3 has one witness and one line of testimony: the hardest file not to repeat.
OLD_BAILEY = ("ob-t17431207-17", "ob-t18390513-1578", "ob-t17440404-3")
MOST_REPEATS = 4  # times one sentence (names and numbers aside) may recur over a 20-round run
ROUNDS = 20


def twenty_rounds(case: CaseFile, side: str, seed: int = 1) -> tuple[list[str], list[str]]:
    """A 20-round run with an automated player in seat 7 and a human holding out in seat 2."""
    jury = build_jury(side=side, seven_kind="agent")
    jury = tuple(replace(j, kind="human") if j.seat == 2 else j for j in jury)
    state = begin(case=case, jury=jury, seed=seed, player_side=side, settings=EngineSettings(stability_rounds=99))
    state.votes[2] = state.memories[2].vote = "not_guilty" if side == "prosecute" else "guilty"
    statements: list[str] = []
    while not state.end_reason:
        result = asyncio.run(
            run_round(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        statements += [speech.content for speech in result.speeches]
    assert state.round_number == ROUNDS
    names = {j.name for j in jury} | {w.name for w in case.witnesses} | {d.name for d in case.defendants}
    return statements, sorted(names | {"Juror 7"}, key=len, reverse=True)


def normalised(sentence: str, names: list[str]) -> str:
    text = sentence.lower()
    for name in names:
        text = text.replace(name.lower(), "#")
    return " ".join(re.sub(r"\d+", "0", text).split())


@pytest.fixture
def library(db: None) -> dict[str, CaseFile]:
    call_command("load_cases", verbosity=0)
    trials = [TRIALS / "t17431207-17.xml", TRIALS / "t18390513-1578.xml", SESSION]
    call_command("import_oldbailey", *map(str, trials), verbosity=0)
    slugs = [c.slug for c in Case.objects.filter(source="curated")] + list(OLD_BAILEY)
    return {slug: case_file(Case.objects.get(slug=slug)) for slug in slugs}


def test_no_sentence_recurs_more_than_a_few_times_over_twenty_rounds(library: dict[str, CaseFile]) -> None:
    assert len(library) >= 5 + len(OLD_BAILEY)
    for slug, case in library.items():
        for side in ("prosecute", "defend"):
            statements, names = twenty_rounds(case, side)
            counts = Counter(normalised(s, names) for text in statements for s in split_sentences(text))
            sentence, times = counts.most_common(1)[0]
            # A file with a single line of testimony (ob-t17440404-3) is quoted about once in ten statements.
            allowed = MOST_REPEATS + (1 if len({w.testimony for w in case.witnesses}) == 1 else 0)
            assert times <= allowed, (slug, side, sentence, times)
            assert len(set(statements)) / len(statements) >= 0.8, (slug, side)


def test_no_quote_from_any_file_ends_on_an_abbreviation_or_mid_clause(library: dict[str, CaseFile]) -> None:
    seen = 0
    for case in library.values():
        for side in ("guilty", "not_guilty"):
            for point in [*all_points(case, side), fallback_point(case, side)]:
                for line in (q for q in point.quotes or (point.detail,) if q):
                    seen += 1
                    assert not ends_dangling(line.strip("“”")), (case.slug, line)
                    assert "..." not in line, (case.slug, line)
    assert seen > 50


def test_sentences_do_not_break_after_titles_initials_or_old_money() -> None:
    text = "I am a clerk of Mr. Guilty. J. Smith saw it at No. 4 St. James's. I gave him 10 s. and a watch. He ran."
    assert split_sentences(text) == [
        "I am a clerk of Mr. Guilty.",
        "J. Smith saw it at No. 4 St. James's.",
        "I gave him 10 s. and a watch.",
        "He ran.",
    ]


def test_a_long_sentence_is_clipped_at_a_clause_boundary_never_mid_clause() -> None:
    long = (
        "I went down to the shop in the morning and found the door open, and the shutters down, and the man "
        "standing inside by the counter where she had left the box with the money and the papers in it."
    )
    (line,) = quotes(long)
    assert line.endswith(".") and not ends_dangling(line)
    assert long.startswith(line[:-1])


def test_a_job_description_is_never_quoted_as_testimony() -> None:
    testimony = "Lead detective. Arrested the defendant at 2:10 a.m. on the basis of the text and the timing."
    assert quotes(testimony, role="investigator") == (
        "Arrested the defendant at 2:10 a.m. on the basis of the text and the timing.",
    )
    assert quotes("State bloodstain pattern analyst.") == ()


def test_labels_lose_their_capital_mid_sentence_but_names_keep_theirs() -> None:
    case = build_case()
    assert fit("Forearm scratch and fingernail scrapings", case) == "forearm scratch and fingernail scrapings"
    assert fit("DNA under the fingernails", case) == "DNA under the fingernails"
    witness = case.witnesses[0].name
    assert fit(f"{witness}'s notebook", case).startswith(witness)


DEFENCE_ITEM = EvidenceItem(
    id="E9",
    label="Money order receipt",
    type="documentary",
    description="A receipt for a payment of $1,500 towards the rent arrears, dated the day before.",
    strength_prosecution=0.1,
    strength_defense=0.5,
    contestable=True,
    contest_reason="Paying part of the debt and still facing eviction could make him angrier, not calmer.",
)
STATE_REASON = "could make him angrier"
ATTRIBUTIONS = ("the prosecution says", "the prosecution points out", "the objection to")


def assert_only_as_the_other_sides_claim(content: str) -> None:
    """The State's reason may be answered by the defence, never put forward as its own argument."""
    for sentence in split_sentences(content):
        if STATE_REASON in sentence:
            assert any(phrase in sentence.lower() for phrase in ATTRIBUTIONS), content


def test_a_defence_items_contest_reason_never_argues_not_guilty() -> None:
    case = replace(build_case(), evidence=(*build_case().evidence, DEFENCE_ITEM))
    jury = build_jury()
    mind = OfflineMind()
    for seed in range(60):
        for seat in range(1, 13):
            if seat == 7:
                continue
            request = SpeakRequest(
                juror=jury[seat - 1],
                outlook=JurorOutlook(conviction=0.2, vote="not_guilty"),
                case=case,
                recent=(),
                passages=(),
                round_number=2,
                tally={"guilty": 6, "not_guilty": 6},
                jury=jury,
                seed=seed,
            )
            speech = asyncio.run(mind.speak(request))
            if speech.position == "not_guilty":  # the wildcard may change its mind and argue guilty
                assert_only_as_the_other_sides_claim(speech.content)
    player = replace(jury[6], archetype="player")
    for seed in range(30):
        for strategy in ("challenge_evidence", "reasonable_doubt", "alternative_theory", "address_juror"):
            request = CraftRequest(
                player=player,
                side="defend",
                strategy=strategy,
                case=case,
                recent=(),
                passages=(),
                round_number=2,
                tally={"guilty": 6, "not_guilty": 6},
                jury=jury,
                target_seat=1,
                seed=seed,
            )
            assert_only_as_the_other_sides_claim(asyncio.run(mind.craft_argument(request)).content)


def test_the_state_can_use_a_defence_items_contest_reason() -> None:
    case = replace(build_case(), evidence=(*build_case().evidence, DEFENCE_ITEM))
    reasons = [p.reason for p in all_points(case, "guilty") if p.item_id == "E9"]
    assert reasons and STATE_REASON in reasons[0]
    assert all(p.angle == "rebut" for p in all_points(case, "not_guilty") if STATE_REASON in p.reason)


def test_a_witness_is_named_without_an_article_and_an_item_with_one() -> None:
    case = replace(
        build_case(),
        witnesses=(WitnessItem("W9", "Dolores Finch", "eyewitness", "She heard a thud at ten.", ("Dozing",)),),
    )
    points = all_points(case, "not_guilty")
    assert any(mention(p) == "Dolores Finch" for p in points)
    assert all(not mention(p).startswith("the Dolores") for p in points)
