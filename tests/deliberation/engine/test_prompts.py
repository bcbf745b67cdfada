from __future__ import annotations

import dataclasses

from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
    Impression,
    JurorOutlook,
    KeyMoment,
    Listener,
    ReactRequest,
    SummarizeRequest,
)
from deliberation.engine.prompt_words import format_case_index
from deliberation.engine.prompts import (
    ARCHETYPE_BEHAVIOUR,
    HISTORY_CHARS,
    MAX_TURN_CHARS,
    OUTPUT_FORMAT,
    ROOM_RULES,
    TASK_LINE,
    build_craft_messages,
    build_react_messages,
    build_speak_messages,
    build_summarize_messages,
    conviction_to_text,
    fit_history,
    format_persona,
    merge_alternating,
)
from deliberation.engine.types import CaseFile, Passage, Speech
from tests.deliberation.minds.jury import CASE, JURY, speak_request, turn

MARGARET, TOM, ANN, WALTER = JURY


def roles(messages: list[dict[str, str]]) -> list[str]:
    return [message["role"] for message in messages]


def test_speakers_own_turns_are_assistant_and_everyone_elses_are_user() -> None:
    recent = (
        turn(1, 3, "The watch settles it for me."),
        turn(1, 1, "A coat in a shared room settles nothing, Tom.", target=3),
        turn(2, 5, "Think of the boy's mother."),
    )
    messages = build_speak_messages(speak_request(MARGARET, recent))

    assert roles(messages) == ["system", "user", "assistant", "user"]
    assert "The watch settles it for me." in messages[1]["content"]
    assert "A coat in a shared room settles nothing, Tom." in messages[2]["content"]
    assert "Think of the boy's mother." in messages[3]["content"]
    # The same room seen from Tom's seat flips who is "assistant".
    from_tom = build_speak_messages(speak_request(TOM, recent))
    assert "The watch settles it for me." in from_tom[2]["content"]
    assert from_tom[2]["role"] == "assistant"


def test_roles_alternate_and_start_and_end_with_user_when_turns_run_together() -> None:
    recent = (
        turn(1, 3, "First from Tom."),
        turn(1, 5, "Then Ann."),
        turn(1, 1, "Margaret once."),
        turn(2, 1, "Margaret twice."),
    )
    messages = build_speak_messages(speak_request(MARGARET, recent))
    chat = roles(messages)[1:]

    assert chat == ["user", "assistant", "user"]
    assert all(chat[i] != chat[i + 1] for i in range(len(chat) - 1))
    assert "First from Tom." in messages[1]["content"] and "Then Ann." in messages[1]["content"]
    assert "Margaret once." in messages[2]["content"] and "Margaret twice." in messages[2]["content"]
    assert messages[-1]["content"].rstrip().endswith(TASK_LINE)  # the task comes last


def test_a_speaker_who_opened_the_room_still_gets_a_user_message_first() -> None:
    messages = build_speak_messages(speak_request(MARGARET, (turn(1, 1, "I will begin."),)))

    assert roles(messages) == ["system", "user", "assistant", "user"]


def test_merge_alternating_joins_only_neighbours_of_the_same_role() -> None:
    merged = merge_alternating(
        [
            {"role": "user", "content": "a"},
            {"role": "user", "content": "b"},
            {"role": "assistant", "content": "c"},
            {"role": "user", "content": "d"},
        ]
    )

    assert merged == [
        {"role": "user", "content": "a\n\nb"},
        {"role": "assistant", "content": "c"},
        {"role": "user", "content": "d"},
    ]


def test_the_system_message_holds_the_rules_the_format_the_case_index_and_the_persona_in_that_order() -> None:
    system = build_speak_messages(speak_request(TOM, ()))[0]["content"]

    order = [system.index(part) for part in (ROOM_RULES, OUTPUT_FORMAT, "# THE CASE:", "# WHO YOU ARE")]
    assert order == sorted(order)
    for expected in ("[E1] Silver watch *", "[W1] Mary Dunn, prosecution neighbour", "robbery with violence"):
        assert expected in system
    assert system.endswith(format_persona(TOM))


def test_the_stable_head_of_the_system_message_is_the_same_for_every_juror_of_a_case() -> None:
    heads = {build_speak_messages(speak_request(juror, ()))[0]["content"].split("# WHO YOU ARE")[0] for juror in JURY}

    assert len(heads) == 1
    assert format_case_index(CASE) in heads.pop()


def test_the_case_goes_in_as_an_index_and_its_detail_only_through_looked_up_passages() -> None:
    without = "\n".join(
        m["content"] for m in build_speak_messages(dataclasses.replace(speak_request(TOM, ()), passages=()))
    )
    looked_up = "\n".join(m["content"] for m in build_speak_messages(speak_request(TOM, ())))

    for detail in ("The pawnbroker's watch, found in Hale's coat.", "poor light", "lodging room"):
        assert detail not in without
    assert "The lamps were lit at half past six." not in without
    # The passage goes by its id: the index already gives "[E2] Lamp-lighter's timing".
    assert "[E2] The lamps were lit at half past six." in looked_up
    assert looked_up.count("Lamp-lighter's timing") == 1


def test_a_passage_that_opens_with_its_items_name_does_not_say_the_name_again() -> None:
    named = Passage("evidence", "E1", "Silver watch", "Silver watch. Engraved on the back with the owner's initials.")
    witness = Passage("witness", "W1", "Mary Dunn (neighbour)", "Mary Dunn, neighbour: I saw him at the door.")
    request = dataclasses.replace(speak_request(TOM, ()), passages=(named, witness))
    closing = build_speak_messages(request)[-1]["content"]

    assert "[E1] Engraved on the back with the owner's initials." in closing
    assert "[W1] I saw him at the door." in closing


def test_the_answer_format_is_sent_once() -> None:
    text = "\n".join(m["content"] for m in build_speak_messages(speak_request(MARGARET, (turn(1, 3, "Hello."),))))

    assert text.count("<Reasoning>") == 1 and text.count(OUTPUT_FORMAT) == 1


def test_a_looked_up_passage_is_sent_once_and_never_repeats_the_index_summary() -> None:
    case = dataclasses.replace(CASE, summary="First sentence of the case. " + "More detail follows here. " * 30)
    summary = Passage("summary", "summary", case.title, case.summary)
    twice = Passage("evidence", "E2", "Lamp-lighter's timing", "The lamps were lit at half past six.")
    request = dataclasses.replace(speak_request(TOM, ()), case=case, passages=(summary, twice, twice))
    closing = build_speak_messages(request)[-1]["content"]

    assert closing.count("The lamps were lit") == 1
    assert "First sentence of the case." not in closing  # the index already says it
    assert "[summary]" in closing and "More detail follows here." in closing


def test_the_task_carries_conviction_in_words_reasoning_doubts_opinions_summary_passages_and_tally() -> None:
    messages = build_speak_messages(
        speak_request(MARGARET, (turn(1, 3, "Hello."),), summary="• Tom doubted the light.")
    )
    text = "\n".join(message["content"] for message in messages[1:])

    assert conviction_to_text(0.55) in text
    assert "0.55" not in text
    for expected in (
        "The watch was in his coat.",
        "Who else could reach the coat?",
        "Tom Reyes: you trust them a great deal",
        "Ann Ward: you distrust them",
        "• Tom doubted the light.",
        "The lamps were lit at half past six.",
        "guilty 7, not guilty 5",
        "YOUR TURN, Margaret Chen.",
    ):
        assert expected in text


def test_only_the_jurors_a_speaker_has_a_feeling_about_are_named_in_their_private_state() -> None:
    request = speak_request(MARGARET, ())
    request = dataclasses.replace(
        request, outlook=dataclasses.replace(request.outlook, opinions={3: 0.05, 5: -0.6, 8: 0.0})
    )
    closing = build_speak_messages(request)[-1]["content"]

    assert "Ann Ward: you distrust them" in closing
    assert "Tom Reyes" not in closing and "Walter Price" not in closing
    assert "no strong feeling" not in closing


def test_the_juror_the_plan_chose_is_the_one_the_speaker_is_asked_to_answer() -> None:
    request = dataclasses.replace(speak_request(MARGARET, (turn(1, 3, "Hello."), turn(1, 5, "Hi."))), answering=3)
    closing = build_speak_messages(request)[-1]["content"]

    assert "You may answer Tom Reyes (Juror 3)." in closing and "Ann Ward (Juror 5)" not in closing


def test_conviction_is_told_in_words_that_follow_the_scale() -> None:
    words = [conviction_to_text(value / 20) for value in range(21)]

    assert words[0] == "certain that the defendant is not guilty"
    assert words[10] == "torn, on the fence"
    assert words[-1] == "certain that the defendant is guilty"
    assert len(set(words)) == 7


@dataclasses.dataclass(frozen=True)
class CaseWithHistory(CaseFile):
    historical_verdict: str = "HANGED AT NEWGATE"
    punishment: str = "TRANSPORTED FOR LIFE"


def test_no_prompt_shows_a_historical_verdict_even_when_the_case_object_carries_one() -> None:
    case = CaseWithHistory(**{field.name: getattr(CASE, field.name) for field in dataclasses.fields(CaseFile)})
    request = dataclasses.replace(speak_request(ANN, (turn(1, 3, "Hello."),)), case=case)
    speech = Speech(seat=3, speaker_name="Tom Reyes", content="Hello.")
    prompts = [
        *build_speak_messages(request),
        *build_react_messages(
            ReactRequest(
                case=case, speeches=(speech,), listeners=(Listener(ANN, request.outlook, True),), round_number=2
            )
        ),
        *build_summarize_messages(
            SummarizeRequest(case=case, turns=request.recent, previous_summary="", jurors=JURY, round_number=5)
        ),
    ]
    text = "\n".join(message["content"] for message in prompts)

    assert "Silver watch" in text  # the case file itself did go in
    assert "HANGED" not in text and "TRANSPORTED" not in text


def test_prompt_size_stays_flat_however_long_the_deliberation_and_the_reasoning_grow() -> None:
    short_history = tuple(turn(r, (1, 3, 5, 8)[r % 4], f"Statement number {r} about the watch.") for r in range(1, 11))
    long_history = tuple(turn(r, (1, 3, 5, 8)[r % 4], f"Statement number {r} about the watch.") for r in range(1, 201))
    early = speak_request(WALTER, short_history, round_number=10)
    late = dataclasses.replace(
        speak_request(WALTER, long_history, round_number=10),
        outlook=dataclasses.replace(
            early.outlook,
            reasoning_chain=tuple(f"Old reason {n}." for n in range(60)) + early.outlook.reasoning_chain * 3,
            doubts=early.outlook.doubts * 3 + tuple(f"Later doubt {n}" for n in range(60)),
        ),
    )

    early_size = sum(len(m["content"]) for m in build_speak_messages(early))
    late_size = sum(len(m["content"]) for m in build_speak_messages(late))

    assert "Statement number 200" in build_speak_messages(late)[-1]["content"]
    assert late_size <= early_size * 1.1


def test_the_reaction_prompt_names_every_listener_and_numbers_every_speech() -> None:
    doubts = ("Silver watch: it was found in a shared room", "Mary Dunn: the light was poor")
    outlook = JurorOutlook(conviction=0.3, vote="not_guilty", doubts=doubts, opinions={3: 0.5})
    speeches = (
        Speech(
            seat=3,
            speaker_name="Tom Reyes",
            content="The watch was in his coat.",
            argument_type="evidence",
            cited=("E1",),
        ),
        Speech(seat=8, speaker_name="Walter Price", content="I have seen liars before.", target_seat=3),
    )
    listeners = (Listener(MARGARET, outlook, True), Listener(ANN, outlook, False))
    messages = build_react_messages(ReactRequest(case=CASE, speeches=speeches, listeners=listeners, round_number=4))
    text = messages[-1]["content"]

    assert roles(messages) == ["system", "user"]
    assert "1. Tom Reyes (juror_3)" in text and "2. Walter Price (juror_8) to Tom Reyes" in text
    assert "juror_1: Margaret Chen" in text and "juror_5: Ann Ward" in text
    assert "NOT GUILTY, leaning that way." in text and "Trusts: Tom Reyes +0.5." in text  # active listener in full
    assert "Doubts: Silver watch." in text and "Mary Dunn" not in text  # only the doubt a speech touches
    assert "half listening" in text  # passive listener compact


def test_the_reaction_prompt_leaves_the_argument_types_that_move_a_listener_to_the_engine() -> None:
    outlook = JurorOutlook(conviction=0.5, vote="guilty")
    speech = Speech(seat=3, speaker_name="Tom Reyes", content="Think of his mother.", argument_type="emotional")
    request = ReactRequest(
        case=CASE, speeches=(speech,), listeners=(Listener(MARGARET, outlook, True),), round_number=2
    )
    text = build_react_messages(request)[-1]["content"]

    # The engine multiplies the model's impact by the archetype's modifier for the speech's type.
    assert MARGARET.modifiers and not any(kind in text.split("The listeners:")[1] for kind in MARGARET.modifiers)


def test_the_reaction_prompt_carries_no_case_brief() -> None:
    outlook = JurorOutlook(conviction=0.3, vote="not_guilty")
    speech = Speech(seat=3, speaker_name="Tom Reyes", content="The watch was in his coat.")
    request = ReactRequest(
        case=CASE, speeches=(speech,), listeners=(Listener(MARGARET, outlook, True),), round_number=4
    )
    text = "\n".join(m["content"] for m in build_react_messages(request))

    assert CASE.title not in text and CASE.summary not in text and "robbery with violence" not in text


def test_the_summary_prompt_folds_the_previous_minutes_and_the_turns_into_the_rooms_minutes() -> None:
    turns = (turn(1, 3, "The watch."), HeardTurn(2, 0, "The foreperson", "Ten minutes left.", kind="process"))
    request = SummarizeRequest(case=CASE, turns=turns, previous_summary="• Earlier.", jurors=JURY, round_number=5)
    text = build_summarize_messages(request)[-1]["content"]

    assert "• Earlier." in text and "The watch." in text and "The foreperson: Ten minutes left." in text
    assert "juror_" not in text and "own take" not in text.lower()  # no juror's personal copy is asked for


def test_the_players_prompt_carries_the_side_strategy_target_and_own_words() -> None:
    player = dataclasses.replace(MARGARET, seat=7, name="Juror 7")
    request = CraftRequest(
        player=player,
        side="defend",
        strategy="question_witness",
        case=CASE,
        recent=(turn(1, 3, "Mary Dunn saw him."),),
        passages=(),
        round_number=3,
        tally={"guilty": 8, "not_guilty": 4},
        jury=(*JURY, player),
        target_seat=3,
        free_text="she owed him money",
    )
    messages = build_craft_messages(request)
    text = messages[-1]["content"]

    assert roles(messages) == ["system", "user"]
    assert "NOT GUILTY" in messages[0]["content"]
    assert "Raise doubts about one witness's reliability." in text
    assert "Address Tom Reyes (Juror 3) directly." in text
    assert "she owed him money" in text


def test_a_verbose_room_is_held_to_the_history_budget_newest_turns_whole() -> None:
    rambling = "I have a great deal to say about the watch and the coat and the lodging house. " * 12
    history = tuple(turn(r, (3, 5, 8)[r % 3], f"Turn {r}. {rambling}") for r in range(1, 11))
    messages = build_speak_messages(speak_request(MARGARET, history, round_number=10))
    history_text = "\n".join(m["content"] for m in messages[1:])

    kept = fit_history(history)
    assert sum(min(len(t.content), limit) for t, limit in kept) <= HISTORY_CHARS
    assert kept[-1] == (history[-1], MAX_TURN_CHARS)  # the newest turn goes in whole
    assert "Turn 10." in history_text and "Turn 1." not in history_text  # the oldest ones drop out first


def test_the_persona_asks_each_acting_archetype_for_its_behaviour() -> None:
    expected = {
        "contrarian": "devil's advocate",
        "conformist": "Echo the juror who last persuaded you",
        "impatient": "press the foreperson to call the vote",
        "wildcard": "change your mind for reasons of your own",
    }
    for archetype, words in expected.items():
        system = build_speak_messages(speak_request(dataclasses.replace(TOM, archetype=archetype), ()))[0]
        assert words in system["content"]
        assert ARCHETYPE_BEHAVIOUR[archetype] in system["content"]
    plain = build_speak_messages(speak_request(TOM, ()))[0]["content"]
    assert not any(line in plain for line in ARCHETYPE_BEHAVIOUR.values())


def test_the_speakers_prompt_carries_its_own_memory_of_the_room() -> None:
    struck = Impression(2, 5, "Ann Ward", "not_guilty", "w1", "Mary Dunn", -0.12, False, "The light was poor.")
    kept = Impression(2, 3, "Tom Reyes", "guilty", "e1", "Silver watch", 0.01, False, "A watch proves little.")
    request = speak_request(MARGARET, (turn(1, 3, "Hello."),))
    request = dataclasses.replace(
        request,
        outlook=dataclasses.replace(
            request.outlook,
            impressions=(struck, kept),
            counterpoints=(kept,),
            key_moments=(KeyMoment(2, "flip", "Walter Obi changed their vote to guilty"),),
            points_made=("Pawn ticket",),
        ),
    )
    text = build_speak_messages(request)[-1]["content"]
    for expected in (
        "Ann Ward (not guilty, [W1]) moved you towards not guilty",  # items by their index id
        "Tom Reyes (guilty, [E1]) moved you little",
        "You may answer Tom Reyes (Juror 3), the last to speak; on [E1] you thought: A watch proves little.",
        "You remember: round 2, Walter Obi changed their vote to guilty.",
        "You argued already (do not repeat): Pawn ticket.",  # not in the index: in words
    ):
        assert expected in text
    assert "Yet to answer" not in text  # the counter-point to the juror the task names rides in the task


def test_a_counterpoint_to_someone_the_task_does_not_name_is_kept_in_the_private_state() -> None:
    point = Impression(1, 5, "Ann Ward", "not_guilty", "W1", "Mary Dunn", -0.2, False, "She saw nothing.")
    request = speak_request(MARGARET, (turn(1, 3, "Hello."),))
    request = dataclasses.replace(request, outlook=dataclasses.replace(request.outlook, counterpoints=(point,)))
    text = build_speak_messages(request)[-1]["content"]

    assert "Yet to answer, by name: Ann Ward, [W1]: She saw nothing." in text
    assert "You may answer Tom Reyes (Juror 3), the last to speak." in text


def test_a_doubt_led_by_an_item_of_the_index_goes_by_its_id() -> None:
    request = speak_request(MARGARET, ())
    doubts = ("Silver watch: it was found in a shared room", "Who else could reach the coat?")
    request = dataclasses.replace(request, outlook=dataclasses.replace(request.outlook, doubts=doubts))
    closing = build_speak_messages(request)[-1]["content"]

    assert "Your doubts: [E1] it was found in a shared room; Who else could reach the coat?" in closing


def test_the_vote_and_conviction_are_said_once_when_they_agree_and_in_full_when_they_do_not() -> None:
    request = speak_request(MARGARET, ())
    sure = dataclasses.replace(request, outlook=dataclasses.replace(request.outlook, conviction=0.8, vote="guilty"))
    against = dataclasses.replace(request, outlook=dataclasses.replace(request.outlook, conviction=0.2, vote="guilty"))

    assert "you vote GUILTY, fairly sure." in build_speak_messages(sure)[-1]["content"]
    assert (
        "you vote GUILTY; fairly sure that the defendant is not guilty." in build_speak_messages(against)[-1]["content"]
    )


def test_a_remembered_turn_names_its_round_only_when_the_round_changes() -> None:
    recent = (turn(1, 3, "First."), turn(1, 5, "Second."), turn(2, 8, "Third."))
    text = build_speak_messages(speak_request(MARGARET, recent, round_number=3))[1]["content"]

    assert "[R1] Tom Reyes: First." in text and "\nAnn Ward: Second." in text and "[R2] Walter Price: Third." in text


def test_the_speakers_memory_in_the_prompt_is_capped_however_much_it_holds() -> None:
    many = tuple(
        Impression(n, 5, "Ann Ward", "not_guilty", "w1", f"Item {n}", -0.1, False, "No.") for n in range(1, 13)
    )
    request = speak_request(MARGARET, ())
    full = dataclasses.replace(
        request,
        outlook=dataclasses.replace(
            request.outlook,
            impressions=many,
            counterpoints=many[-3:],
            key_moments=tuple(KeyMoment(n, "flip", f"moment {n}") for n in range(1, 6)),
            points_made=tuple(f"Point {n}" for n in range(1, 7)),
        ),
    )
    text = build_speak_messages(full)[-1]["content"]
    assert "Item 12" in text and "Item 9" not in text
    assert "moment 5" in text and "moment 2" not in text
    assert "Point 6" in text and "Point 3" not in text
