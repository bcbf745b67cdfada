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


def test_a_clause_spliced_mid_sentence_starts_lower_case_unless_it_starts_on_a_name() -> None:
    """ "We're asked to believe Tasha Hale, but She first told a detective ..." was a credibility
    issue of the file spliced as written; over many seeded games of the curated cases no pronoun or
    common word after ", but", "that", "when" and the like keeps a capital, while names do."""
    import asyncio
    import re

    from deliberation.engine.session import begin, run_to_end
    from deliberation.minds.offline.mind import OfflineMind
    from deliberation.minds.stand_ins import argued_points
    from tests.deliberation.engine.factories import build_jury
    from tests.deliberation.minds.curated import SLUGS, curated_case

    common = "She|He|They|It|We|His|Her|Their|Its|This|These|Those|The|A|An|There|Nobody|None|Some|Police"
    joiner = r"(?:,|\b(?:but|that|and|when|because|so|if|while|though|although|since))"
    slip = re.compile(rf"{joiner} (?:{common})\b(?! [A-Z])")
    speeches = []
    for slug in SLUGS:
        case = curated_case(slug)
        for seed in range(6):
            jury = build_jury()
            state = begin(case=case, jury=jury, seed=seed)
            results = asyncio.run(
                run_to_end(
                    state, case=case, jury=list(jury), mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
                )
            )
            speeches += [s.content for r in results for s in r.speeches]
    assert len(speeches) > 300
    slips = [m.group(0) + " in: " + text for text in speeches for m in slip.finditer(text)]
    assert not slips, slips[:3]
    names = [w.name for slug in SLUGS for w in curated_case(slug).witnesses]
    assert any(f"believe {name}, but {name.split()[0]}" in text for text in speeches for name in names) or any(
        re.search(r", but [A-Z][a-z]+ [A-Z]", text) for text in speeches
    )  # a clause led by a name keeps its capital


def test_an_item_named_by_an_acronym_keeps_it_in_a_listeners_thought_and_a_jurors_memory() -> None:
    from deliberation.engine.memory import named
    from deliberation.minds.offline.facets import evidence_name

    assert evidence_name("CCTV footage from the shop") == "the CCTV footage from the shop"
    assert named("CCTV footage from the shop", witness=False) == "the CCTV footage from the shop"
    assert evidence_name("Bait bills in the glovebox") == "the bait bills in the glovebox"
    assert named("Bait bills in the glovebox", witness=False) == "the bait bills in the glovebox"


def test_a_clause_mid_sentence_keeps_an_abbreviations_stop_and_drops_a_quotations() -> None:
    """ "at 10:04 p.m, and the rest follows" lost the abbreviation's stop; "If 'I was just driving
    around.', then ..." kept the quotation's full stop mid-sentence."""
    from deliberation.minds.offline.saying import clauses
    from deliberation.minds.offline.speech import _fill
    from deliberation.minds.offline.text import fit, unstopped

    assert unstopped("all six were in the glovebox at 10:04 p.m.") == "all six were in the glovebox at 10:04 p.m."
    assert fit("The owner says the counter is wiped at 6 p.m.") == "the owner says the counter is wiped at 6 p.m."
    assert clauses("Hale's phone connected to a tower between 9:31 and 9:49 p.m.")[0].endswith("9:49 p.m.")
    start = _fill(
        "Start from {ref}. {Fact}, and the rest follows.", {"ref": "the cash", "Fact": "At 10:04 p.m."}, False
    )
    assert start == "Start from the cash. At 10:04 p.m., and the rest follows."
    quoted = _fill(
        "If {fact}, then {ref} [points|point] one way.", {"fact": "'I was just driving around.'", "ref": "it"}, False
    )
    assert quoted == "If 'I was just driving around', then it points one way."


def test_a_spliced_sentence_keeps_the_capital_of_a_name_the_file_gives_in_full() -> None:
    """ "Even so, boyer knew which photo was Hale's": Detective Ray Boyer is named in full mid-sentence."""
    from deliberation.minds.offline.text import fit, proper_words
    from tests.deliberation.minds.curated import curated_case

    case = curated_case("kessler-market-robbery")
    assert "boyer" in proper_words(case)
    assert fit("Boyer knew which photo was Hale's", case) == "Boyer knew which photo was Hale's"


def test_a_label_led_by_a_common_nouns_possessive_takes_the_article() -> None:
    """ "Exactly what I thought about defendant's statements to police." """
    from deliberation.minds.offline.facets import evidence_name
    from tests.deliberation.minds.curated import curated_case

    case = curated_case("kessler-market-robbery")
    assert evidence_name("Defendant's statements to police", case) == "the defendant's statements to police"
    assert evidence_name("Hale's phone records", case) == "Hale's phone records"
