"""The trial engine: witnesses answer from their record, objections are ruled on, struck answers vanish."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

from deliberation.engine.initial import new_state
from deliberation.engine.phases import advance
from deliberation.engine.trial import rules
from deliberation.engine.trial.course import (
    ERROR_GROUND_UNKNOWN,
    ERROR_NOT_ON_STAND,
    ERROR_NOTHING_TO_OBJECT,
    TrialState,
    admitted,
    ask,
    groundedness,
    new_trial,
    object_to_last,
    run_trial,
    score_counsel,
    step,
    stopped_by_objection,
)
from deliberation.engine.trial.events import STAGES
from deliberation.engine.trial.jury import cast_ballot_after_trial
from deliberation.engine.trial.text import record_lines
from deliberation.engine.trial.witness import DIDNT_SEE, DONT_KNOW, answer, is_grounded, ungrounded, witness_prompt
from deliberation.engine.types import WitnessItem
from tests.deliberation.engine.factories import build_case, build_jury

PAWNBROKER = WitnessItem(
    id="W9",
    name="John Cole",
    role="pawnbroker",
    testimony=(
        "I am a pawnbroker in Holborn—the prisoner brought this watch to my shop on the 3rd of May—"
        "I lent him 15 s. upon it. Cross-examined. Q. Are you sure of his face? "
        "A. I could not swear to his face; the shop was dark—I was told by my boy that he came again."
    ),
    side="prosecution",
)


def _case(*witnesses: WitnessItem):
    return build_case(witnesses=witnesses or (PAWNBROKER,))


def _on_stand(witness: WitnessItem = PAWNBROKER) -> tuple[TrialState, object]:
    case = _case(witness)
    state = TrialState(seed=1)
    state.on_stand = witness.id
    return state, case


def test_an_old_bailey_record_splits_into_chief_and_cross_with_its_printed_questions():
    lines = record_lines(PAWNBROKER.testimony)
    assert [line.part for line in lines][:3] == ["chief", "chief", "chief"]
    printed = [line for line in lines if line.question]
    assert printed and printed[0].question == "Are you sure of his face?" and printed[0].part == "cross"


def test_a_witness_answers_with_the_line_of_its_record_that_answers_the_question():
    reply = answer(PAWNBROKER, "How much did you lend upon the watch?")
    assert reply.text == "I lent him 15 s. upon it."
    assert is_grounded(reply.text, reply.lines, PAWNBROKER)


def test_the_records_own_question_brings_its_printed_answer():
    reply = answer(PAWNBROKER, "Are you sure of his face?", part="cross")
    assert reply.text.startswith("I could not swear to his face")


def test_a_witness_that_was_not_asked_about_it_in_its_record_does_not_know():
    assert answer(PAWNBROKER, "What colour was the carriage outside the bank?").text == DONT_KNOW
    assert answer(PAWNBROKER, "Did you see who drove the carriage?").text == DIDNT_SEE


def test_a_made_up_name_or_time_is_caught_by_the_groundedness_check():
    assert ungrounded("The prisoner came at 9 o'clock with Mr. Smithers.", PAWNBROKER) == ["9", "Smithers"]
    assert not is_grounded("He came with Smithers.", ("He came with Smithers.",), PAWNBROKER)


def test_a_leading_question_to_ones_own_witness_is_sustained_and_goes_unanswered():
    state, case = _on_stand()
    events = ask(
        state, case, side="prosecution", question="You saw the prisoner bring the watch, didn't you?", part="chief"
    )
    assert [e.kind for e in events] == ["question", "objection", "ruling"]
    assert events[1].side == "defense" and events[2].sustained is True
    assert (
        events[2].text
        == rules.rule_on_question(
            "leading", "You saw the prisoner bring the watch, didn't you?", cross=False, vocabulary=set(), answered=[]
        ).reason
    )


def test_each_leading_ruling_names_what_made_the_question_leading_or_why_it_may_stand():
    def reason(question: str, cross: bool) -> str:
        ruled = rules.rule_on_question("leading", question, cross=cross, vocabulary={"watch"}, answered=[])
        assert (
            ruled.reason
            == rules.rule_on_question("leading", question, cross=cross, vocabulary={"watch"}, answered=[]).reason
        )  # the same question, the same reason
        assert ruled.reason.endswith(".") and ".." not in ruled.reason and "  " not in ruled.reason
        return ruled.reason

    tag = reason("You brought the watch, didn't you?", cross=False)
    opening = reason("Isn't it true that he brought the watch?", cross=False)
    told = reason("You saw him take the watch?", cross=False)
    assert tag.startswith("Sustained") and "didn't you?" in tag
    assert opening.startswith("Sustained") and "Isn't it true" in opening
    assert told.startswith("Sustained") and "You saw" in told
    crossed = reason("Isn't it true that he brought the watch?", cross=True)
    assert crossed.startswith("Overruled") and "Isn't it true" in crossed and "cross-examination" in crossed
    plain = reason("Where was the watch kept?", cross=False)
    assert plain.startswith("Overruled") and "Where was the watch kept?" in plain
    assert len({tag, opening, told, crossed, plain, reason("How far away were you?", cross=True)}) == 6


def test_leading_is_allowed_in_cross_examination():
    ruling = rules.rule_on_question(
        "leading", "Isn't it true that the shop was dark?", cross=True, vocabulary={"shop", "dark"}, answered=[]
    )
    assert ruling.sustained is False and ruling.reason.startswith("Overruled")


def test_speculation_argumentative_and_relevance_each_have_a_rule():
    words = {"watch", "shop", "prisoner"}
    assert rules.question_grounds(
        "Why do you think the prisoner took it?", cross=False, vocabulary=words, answered=[]
    ) == ["speculation"]
    assert "argumentative" in rules.question_grounds(
        "How can you expect the jury to believe the shop story?", cross=True, vocabulary=words, answered=[]
    )
    assert rules.question_grounds("Do you enjoy cricket?", cross=False, vocabulary=words, answered=[]) == ["relevance"]


def test_how_long_how_far_and_how_sure_a_witness_was_is_relevant_to_any_witness():
    words = {"watch", "shop", "prisoner"}  # the record says nothing of moments, distances or light
    for question in (
        "Isn't it true you only saw him for a moment?",
        "How far away were you standing?",
        "Could you swear to his face?",
        "Was there a lamp lit?",
    ):
        assert "relevance" not in rules.question_grounds(question, cross=True, vocabulary=words, answered=[]), question
        ruling = rules.rule_on_question("relevance", question, cross=True, vocabulary=words, answered=[])
        assert ruling.sustained is False
    assert rules.question_grounds("Do you enjoy cricket?", cross=True, vocabulary=words, answered=[]) == ["relevance"]


def test_hearsay_is_what_others_told_the_witness_but_not_the_accuseds_own_words():
    assert rules.asks_hearsay("What did your neighbour tell you?")
    assert not rules.asks_hearsay("What did the prisoner say to you?")
    assert not rules.asks_hearsay("What did Hale say when you stopped him?", defendants=["Thomas Hale"])


def test_a_question_asked_and_answered_again_by_the_same_side_is_sustained():
    state, case = _on_stand()
    ask(state, case, side="prosecution", question="How much did you lend upon the watch?", part="chief")
    events = ask(state, case, side="prosecution", question="How much did you lend upon the watch?", part="chief")
    assert events[1].ground == "asked_and_answered" and events[2].sustained is True


def test_a_hearsay_answer_is_struck_and_the_jury_never_hears_it():
    state, case = _on_stand()
    events = ask(state, case, side="defense", question="And the boy, did he see him?", part="cross")
    struck = next(e for e in events if e.kind == "answer")
    assert struck.struck and "I was told by my boy" in struck.text
    assert [e.kind for e in events][-2:] == ["objection", "ruling"] and events[-1].sustained
    jury = build_jury()
    deliberation = new_state(jury=jury, seed=3)
    advance(deliberation, "presentation")
    advance(deliberation, "initial_vote")
    cast_ballot_after_trial(deliberation, case=case, jury=jury, events=state.events)
    assert "told by my boy" not in json.dumps(deliberation.to_dict())
    assert struck not in admitted(state.events)


def test_admitted_answers_reach_every_ai_jurors_memory_as_trial_turns():
    case = build_case()
    trial = run_trial(case, seed=5)
    jury = build_jury()
    state = new_state(jury=jury, seed=5)
    advance(state, "presentation")
    advance(state, "initial_vote")
    cast_ballot_after_trial(state, case=case, jury=jury, events=trial.events)
    heard = state.memories[1].heard
    assert heard and all(turn.kind == "trial" for turn in heard)
    assert len(heard) == len(admitted(trial.events))
    assert any(moment.kind == "trial" for moment in state.memories[1].key_moments)
    assert sum(state.first_ballot.values()) == 12


def test_a_trial_that_helps_the_defence_lowers_the_jurys_first_convictions():
    case = build_case()
    jury = build_jury()
    plain = new_state(jury=jury, seed=8)
    tried = new_state(jury=jury, seed=8)
    for state in (plain, tried):
        advance(state, "presentation")
        advance(state, "initial_vote")
    trial = run_trial(case, seed=8)
    for_defence = [replace(e, helps="defense") if e.kind == "answer" else e for e in trial.events]
    from deliberation.engine.initial import cast_initial_ballot

    cast_initial_ballot(plain, case=case, jury=jury)
    cast_ballot_after_trial(tried, case=case, jury=jury, events=for_defence)
    assert all(tried.memories[s].conviction < plain.memories[s].conviction for s in range(1, 13) if s != 7)


def test_the_trial_runs_its_stages_in_order_and_ends_with_the_judges_directions():
    trial = run_trial(build_case(), seed=2)
    order = [e.stage for e in trial.events]
    assert all(STAGES.index(a) <= STAGES.index(b) for a, b in itertools.pairwise(order))
    assert {"openings", "prosecution_case", "defence_case", "closings", "directions"} == set(order)
    assert order[0] == "openings" and trial.events[-1].kind == "directions"
    assert "burden of proof is on the prosecution" in trial.events[-1].text
    assert {"call", "question", "answer"} <= {e.kind for e in trial.events}


def test_every_witness_answer_in_a_trial_is_grounded():
    trial = run_trial(build_case(), seed=4)
    assert groundedness(trial.events) == 1.0


def test_a_saved_trial_continues_exactly_as_an_unsaved_one():
    case = build_case()
    whole = run_trial(case, seed=6)
    half = new_trial(case, seed=6)
    for _ in range(len(half.plan) // 2):
        step(half, case)
    resumed = TrialState.from_dict(json.loads(json.dumps(half.to_dict())))
    while not resumed.finished:
        step(resumed, case)
    assert [e.to_dict() for e in resumed.events] == [e.to_dict() for e in whole.events]


def test_no_question_without_a_witness_on_the_stand():
    state = TrialState(seed=1)
    try:
        ask(state, build_case(), side="prosecution", question="Where were you?", part="chief")
    except ValueError as exc:
        assert str(exc) == ERROR_NOT_ON_STAND
    else:
        raise AssertionError("a question with nobody on the stand was accepted")


def test_counsel_scores_count_questions_and_sustained_objections_for_and_against():
    state, case = _on_stand()
    ask(state, case, side="prosecution", question="You saw the prisoner bring the watch, didn't you?", part="chief")
    ask(state, case, side="prosecution", question="How much did you lend upon the watch?", part="chief")
    score = score_counsel(state.events)
    assert score["prosecution"]["questions"] == 2 and score["prosecution"]["questions_allowed"] == 1
    assert score["prosecution"]["sustained_against"] == 1 and score["defense"]["objections_sustained"] == 1


def test_the_model_witness_prompt_holds_only_the_rule_and_the_passages():
    messages = witness_prompt(PAWNBROKER, "Was the shop dark?", ["the shop was dark"])
    assert "Never add a name" in messages[0]["content"]
    assert messages[1]["content"] == "Your testimony:\n- the shop was dark\n\nQuestion: Was the shop dark?"
    assert "Holborn" not in json.dumps(messages)


def test_a_person_asks_the_witness_in_their_own_words_and_the_other_side_objects_by_the_rules():
    state, case = _on_stand()
    events = ask(state, case, side="defense", question="What did your neighbour tell you about it?", part="cross")
    assert [e.kind for e in events] == ["question", "objection", "ruling"] and events[2].ground == "hearsay"
    events = ask(state, case, side="defense", question="Was the shop dark?", part="cross")
    reply = next(e for e in events if e.kind == "answer")
    assert reply.text == "The shop was dark." and not reply.struck


def test_a_persons_sustained_objection_strikes_the_answer_already_given():
    state, case = _on_stand()
    ask(state, case, side="prosecution", question="You lent him 15 s. upon the watch, correct?", part="cross")
    answer_event = next(e for e in state.events if e.kind == "answer")
    assert not answer_event.struck  # leading is allowed in cross, so nobody objected
    state.events[0] = replace(state.events[0], part="chief")  # as if asked of the prosecution's own witness
    events = object_to_last(state, case, side="defense", ground="leading")
    assert events[-1].sustained is True and state.events[answer_event.index].struck
    assert state.events[answer_event.index] not in admitted(state.events)


def test_a_persons_objection_on_a_ground_that_does_not_hold_is_overruled_and_the_answer_stands():
    state, case = _on_stand()
    ask(state, case, side="prosecution", question="How much did you lend upon the watch?", part="chief")
    events = object_to_last(state, case, side="defense", ground="speculation")
    assert events[-1].sustained is False and len(admitted(state.events)) == 1


def test_an_objection_needs_a_question_from_the_other_side_and_a_known_ground():
    state, case = _on_stand()
    ask(state, case, side="prosecution", question="How much did you lend upon the watch?", part="chief")
    for side, ground, message in (
        ("prosecution", "leading", ERROR_NOTHING_TO_OBJECT),
        ("defense", "rudeness", ERROR_GROUND_UNKNOWN.format(choices=", ".join(rules.GROUNDS))),
    ):
        try:
            object_to_last(state, case, side=side, ground=ground)
        except ValueError as exc:
            assert str(exc) == message
        else:
            raise AssertionError(f"the objection {ground!r} by {side} was accepted")


def test_a_question_is_known_to_be_stopped_by_a_sustained_objection_exactly_when_it_goes_unanswered():
    stopped, answered = 0, 0
    for seed in range(12):
        case = build_case()
        state = new_trial(case, seed=seed)
        while not state.finished:
            item = state.plan[state.cursor]
            foreseen = item["kind"] == "question" and stopped_by_objection(
                state, case, witness_id=item["witness"], side=item["side"], question=item["question"], part=item["part"]
            )
            events = step(state, case)
            if item["kind"] == "question":
                heard = any(e.kind == "answer" for e in events)
                assert foreseen is not heard, item["question"]
                stopped, answered = stopped + foreseen, answered + heard
    assert stopped > 0 and answered > 0  # both kinds of question were put


def _tried_and_deliberated(slug: str, seed: int, rounds: int = 4):
    """A curated case tried with one witness a side, then deliberated offline for ``rounds`` rounds."""
    import asyncio

    from deliberation.engine.rounds import run_round
    from deliberation.engine.state import DeliberationState, EngineSettings
    from deliberation.minds.offline.mind import OfflineMind
    from deliberation.minds.stand_ins import argued_points
    from tests.deliberation.minds.curated import curated_case

    case, jury = curated_case(slug), build_jury()
    trial = run_trial(case, seed=seed, max_witnesses=1)
    state = new_state(jury=jury, seed=seed, settings=EngineSettings(stability_rounds=99))
    advance(state, "presentation")
    advance(state, "initial_vote")
    cast_ballot_after_trial(state, case=case, jury=jury, events=trial.events)
    advance(state, "deliberation")
    state = DeliberationState.from_dict(json.loads(json.dumps(state.to_dict())))  # as the service stores it
    speeches = []
    for _ in range(rounds):
        result = asyncio.run(
            run_round(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        speeches += result.speeches
        if state.end_reason:
            break
    return case, trial, state, speeches


def test_after_a_trial_the_jurors_argue_only_from_the_witnesses_who_testified():
    """A witness named in an opening but never called ("Gordon Pike" when one witness a side is
    heard) is not quoted, cited or doubted in the deliberation; the evidence stays the jury's."""
    checked = 0
    for slug in ("kessler-market-robbery", "alder-street-hit-and-run"):
        for seed in range(3):
            case, trial, state, speeches = _tried_and_deliberated(slug, seed)
            heard = {e.witness_id for e in admitted(trial.events)}
            filed = " ".join([f"{e.label} {e.description}" for e in case.evidence] + [case.summary])
            unheard = [w for w in case.witnesses if w.id not in heard]
            assert unheard and any(w.name in e.text for w in unheard for e in trial.events if e.kind == "speech")
            for speech in speeches:
                checked += 1
                assert not {w.id for w in unheard} & set(speech.cited), speech.content
                named = [w.name for w in unheard if w.name in speech.content and w.name not in filed]
                assert not named, (named, speech.content)
            assert state.heard_witnesses == [w.id for w in case.witnesses if w.id in heard]
            for memory in state.memories.values():
                assert not [d for d in memory.doubts if any(d.startswith(f"{w.name}:") for w in unheard)]
    assert checked > 20


def test_without_a_trial_every_witness_of_the_file_is_the_jurys_to_argue():
    state = new_state(jury=build_jury(), seed=1)
    assert state.heard_witnesses is None
    from deliberation.engine.round_work import as_heard

    case = build_case()
    assert as_heard(case, None) is case
    assert as_heard(case, []).witnesses == ()


def test_asked_and_answered_holds_only_for_a_question_that_asks_the_same_thing_again():
    def ruled(question: str, earlier: str) -> bool:
        words = {"car", "park", "man", "watch", "lend"}
        return rules.rule_on_question(
            "asked_and_answered", question, cross=False, vocabulary=words, answered=[earlier]
        ).sustained

    # New questions sharing the common words of an earlier one: the judge lets them be answered.
    assert not ruled("When was the car parked?", "Where was the car parked?")
    assert not ruled("Did you know the man?", "Did you see the man?")
    assert not ruled("How far away was the man?", "How long did you see the man?")
    assert not ruled("Who parked the car?", "Where was the car parked?")
    # The same question again, however it is put.
    assert ruled("Where was the car parked?", "Where was the car parked?")
    assert ruled("That night, did you see the man?", "Did you see the man that night?")
    assert ruled("How much did you lend upon the watch?", "How much did you lend upon the watch, then?")
    ruling = rules.rule_on_question(
        "asked_and_answered", "When was the car parked?", cross=False, vocabulary={"car"}, answered=[]
    )
    assert ruling.reason.startswith("Overruled") and "new question" in ruling.reason


def test_a_persons_objection_asked_and_answered_to_a_new_question_is_overruled_and_the_answer_stands():
    state, case = _on_stand()
    ask(
        state,
        case,
        side="prosecution",
        question="Did you see the prisoner that day?",
        part="chief",
        opponent_objects=False,
    )
    ask(
        state,
        case,
        side="prosecution",
        question="Did you know the prisoner that day?",
        part="chief",
        opponent_objects=False,
    )
    events = object_to_last(state, case, side="defense", ground="asked_and_answered")
    assert events[-1].kind == "ruling" and events[-1].sustained is False
    assert not any(e.struck for e in state.events)


def test_a_leading_ruling_on_a_plain_yes_or_no_question_says_so():
    reason = rules.rule_on_question(
        "leading", "Did you see him take the watch?", cross=False, vocabulary={"watch"}, answered=[]
    ).reason
    assert reason.startswith("Overruled") and "yes or no" in reason and "own account" not in reason
    open_reason = rules.rule_on_question(
        "leading", "Where was the watch kept?", cross=False, vocabulary={"watch"}, answered=[]
    ).reason
    assert "own account" in open_reason


def test_after_a_trial_a_witness_is_quoted_only_with_what_she_said_there():
    """The walk's trial: the clerk said one thing in chief and "I didn't see that" in cross; the
    officer was called and asked nothing; nobody else was called. No juror quotes the clerk's file
    statement (the bandana slipping, the dark spot, the 911 call), nor a note on her credibility her
    answers never brought out, and the foreperson never says the officer's name "came up"."""
    import asyncio

    from deliberation.engine.rounds import run_round
    from deliberation.engine.state import EngineSettings
    from deliberation.engine.trial.events import TrialEvent
    from deliberation.minds.offline.mind import OfflineMind
    from deliberation.minds.stand_ins import argued_points
    from tests.deliberation.minds.curated import curated_case

    case, jury = curated_case("kessler-market-robbery"), build_jury()
    clerk, officer = case.witnesses[0], case.witnesses[1]
    said = "I pressed the silent alarm as he left."
    events = [
        TrialEvent(0, "prosecution_case", "call", "Prosecutor", "prosecution", f"I call {clerk.name}.", clerk.id),
        TrialEvent(
            1, "prosecution_case", "question", "Prosecutor", "prosecution", "What did you do?", clerk.id, "chief"
        ),
        TrialEvent(
            2,
            "prosecution_case",
            "answer",
            clerk.name,
            "witness",
            said,
            clerk.id,
            "chief",
            helps="prosecution",
            quoted=(said,),
        ),
        TrialEvent(
            3, "prosecution_case", "question", "Defence", "defense", "You never saw his face?", clerk.id, "cross"
        ),
        TrialEvent(
            4, "prosecution_case", "answer", clerk.name, "witness", DIDNT_SEE, clerk.id, "cross", helps="defense"
        ),
        TrialEvent(5, "prosecution_case", "call", "Prosecutor", "prosecution", f"I call {officer.name}.", officer.id),
    ]
    unsaid = ("chin and jaw", "dark spot", "twenty-five", "emptied the register", "looking mostly at the gun")
    filed = " ".join([case.summary, *(f"{e.label} {e.description} {e.contest_reason}" for e in case.evidence)])
    assert not [words for words in unsaid if words in filed.lower()]  # only her statement says these
    others = [w.name for w in case.witnesses[1:]]
    checked = 0
    for seed in range(8):
        settings = EngineSettings(stability_rounds=99, foreperson_summary_every=1)
        state = new_state(jury=jury, seed=seed, settings=settings)
        advance(state, "presentation")
        advance(state, "initial_vote")
        cast_ballot_after_trial(state, case=case, jury=jury, events=events)
        advance(state, "deliberation")
        assert state.heard_witnesses == [clerk.id] and state.heard_words == {clerk.id: [said]}
        for _ in range(6):
            if state.end_reason:
                break
            result = asyncio.run(
                run_round(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
            )
            for speech in result.speeches:
                checked += 1
                low = speech.content.lower()
                assert not [words for words in unsaid if words in low], speech.content
            for line in result.process_lines:
                assert not [name for name in others if f"{name} came up" in line.content], line.content
        for memory in state.memories.values():
            noted = [f"{clerk.name}: {issue}" for issue in clerk.credibility_issues]
            assert not [d for d in memory.doubts if d in noted], memory.doubts
    assert checked > 20


def test_the_judges_directions_let_the_jury_use_the_answers_and_the_exhibits():
    """The jurors argue from the witnesses' answers and the exhibits; the judge says the same."""
    from deliberation.engine.trial.counsel import directions

    said = directions(build_case(), 0)
    assert "exhibits" in said and "answers the witnesses gave" in said
    assert "and on nothing else" not in said
