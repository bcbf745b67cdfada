import asyncio
from dataclasses import replace

from deliberation.engine.foreperson import (
    DEADLOCK_REPORT,
    FOREPERSON_NAME,
    READY_TO_VOTE,
    TIME_REMINDER_STILL,
    VOTE_CALL,
    lines_for_round,
    minutes_words,
)
from deliberation.engine.rounds import run_round
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import CountingMind, build_case, build_jury
from tests.deliberation.engine.helpers import deadlocked


def run_all(seed: int = 6):  # type: ignore[no-untyped-def]
    state, jury = deadlocked(seed)
    mind = CountingMind()
    results = []
    while not state.end_reason:
        results.append(
            asyncio.run(
                run_round(state, case=build_case(), jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
            )
        )
    return results, mind, jury


def test_the_foreperson_speaks_in_process_lines_that_cost_no_model_call() -> None:
    results, mind, _ = run_all()
    lines = [line for r in results for line in r.process_lines]
    assert lines and all(line.kind == "process" and line.speaker_name == FOREPERSON_NAME for line in lines)
    speeches = sum(len(r.speeches) for r in results)
    summaries = sum(1 for r in results if r.summarized)
    assert len(mind.calls) == speeches + len(results) + summaries  # nothing for the foreperson


def is_mediating(text: str) -> bool:
    """A summary, a deadlock report or a question whether to vote: these name the points argued
    each way and poll the jury, still without saying which way anyone should go."""
    return text.startswith(("Let me sum up", DEADLOCK_REPORT, READY_TO_VOTE))


def test_the_foreperson_never_argues_the_case() -> None:
    results, _, _ = run_all()
    case = build_case()
    names = [item.label.lower() for item in case.evidence] + [w.name.lower() for w in case.witnesses]
    for line in (line for r in results for line in r.process_lines if not is_mediating(line.content)):
        text = line.content.lower()
        assert not any(name in text for name in names)
        if line.round_number > 1:  # only the opening reports the first ballot's tally
            assert "guilty" not in text


def test_the_foreperson_invites_a_silent_juror_by_name() -> None:
    results, _, jury = run_all()
    invitations = [line for r in results for line in r.process_lines if line.target_seat is not None]
    assert invitations
    names = {j.seat: j.name for j in jury}
    assert all(names[line.target_seat] in line.content for line in invitations)
    assert all(next(j for j in jury if j.seat == line.target_seat).kind == "ai" for line in invitations)


def test_the_foreperson_reminds_of_time_and_calls_the_vote_near_the_limit() -> None:
    results, _, _ = run_all()
    texts = [line.content for r in results for line in r.process_lines]
    assert any("rounds left" in t or "rounds to go" in t for t in texts)
    assert texts.count(VOTE_CALL.format(max=20)) == 1
    call_round = next(
        r.round_number for r in results for line in r.process_lines if line.content == VOTE_CALL.format(max=20)
    )
    assert call_round == 18


def test_a_summary_lists_each_point_once_on_the_side_it_was_argued_more() -> None:
    from deliberation.engine.foreperson import main_points
    from deliberation.engine.state import DeliberationState

    state = DeliberationState(seed=1)
    progress = state.rule_progress
    progress.heard = {"E1:evidence|1": 3, "P2:claim|1": 2, "E1:evidence|-1": 1, "W1:witness|-1": 2, "D1:claim|-1": 1}
    progress.labels = {
        "E1:evidence|1": "the alarm panel log",
        "P2:claim|1": "the alarm panel log",  # a side's argument named after the item it rests on
        "E1:evidence|-1": "the alarm panel log",
        "W1:witness|-1": "Carla Vance",
        "D1:claim|-1": "Carla Vance",
    }
    guilt, doubt = main_points(state)
    assert guilt == ["the alarm panel log"]
    assert doubt == ["Carla Vance"]


def test_the_show_of_hands_names_the_person_whose_seat_her_ai_juror_plays_not_the_juror() -> None:
    """Jaylen (seat 2) voted not guilty and let a turn run out: his seat's AI juror plays it. The
    vote is his, so the foreperson's poll names him; the juror is neither a voter nor undecided."""
    from deliberation.engine.foreperson import UNDECIDED, poll_line, state_of_argument
    from deliberation.engine.state import DeliberationState, JurorMemory

    jury = build_jury()
    stand_in = replace(jury[1], stands_in=True, holder="Jaylen")
    jury = (jury[0], stand_in, *jury[2:])
    state = DeliberationState(seed=1)
    for juror in jury:
        state.memories[juror.seat] = JurorMemory(seat=juror.seat, conviction=0.8, vote="guilty", spoke_count=1)
        state.votes[juror.seat] = "guilty"
    state.votes[2] = "not_guilty"
    state.memories[2].conviction = 0.5  # the AI juror in his seat, moved by what it heard
    line = poll_line(state, jury)
    assert line.endswith("not guilty, Jaylen.") and stand_in.name not in line
    assert not any(part.startswith(UNDECIDED.split("{")[0]) for part in state_of_argument(state, jury))


def run_rounds_with_bell(seed: int = 6, *, lesson_left: float):  # type: ignore[no-untyped-def]
    state, jury = deadlocked(seed)
    results = []
    while not state.end_reason:
        results.append(
            asyncio.run(
                run_round(
                    state,
                    case=build_case(),
                    jury=jury,
                    mind=CountingMind(),
                    fallback=OfflineMind(),
                    reader=argued_points,
                    lesson_left=lesson_left,
                )
            )
        )
    return results


def test_in_a_lesson_with_a_bell_the_foreperson_counts_the_lessons_minutes_not_the_rounds() -> None:
    results = run_rounds_with_bell(lesson_left=18 * 60 + 3)
    checks = [line.content for r in results for line in r.process_lines if "minute" in line.content]
    assert checks and all("18 minutes" in text for text in checks)
    every = " ".join(line.content for r in results for line in r.process_lines)
    assert "rounds left" not in every and "rounds to go" not in every and "round 4 of" not in every


def test_the_foreperson_says_a_minute_and_less_than_a_minute_as_a_person_would() -> None:
    assert minutes_words(61) == "1 minute"
    assert minutes_words(20) == "less than a minute"
    assert minutes_words(170) == "3 minutes"


def test_the_juror_given_the_floor_speaks_next() -> None:
    for seed in range(1, 9):
        results, _, _ = run_all(seed)
        for result in results:
            for line in result.process_lines:
                if line.target_seat is None:
                    continue
                # the next speech after the invitation is the invited juror's
                following = result.speeches[line.after_speeches :]
                assert following and following[0].seat == line.target_seat, (seed, result.round_number)


def _time_check(*, still: int, turns_needed: int = 0, turns_had: int = 5) -> str:
    """The foreperson's time check at the start of round 4, with the votes still for ``still``
    rounds, under a stability rule of 3 (seat 2 a person who has voted and had ``turns_had`` turns)."""
    state, jury = deadlocked(6, stability_rounds=3, turns_before_verdict=turns_needed)
    state.round_number, state.rounds_without_change = 4, still
    state.own_votes, state.turns_had = [2], {2: turns_had}
    return next(line.content for line in lines_for_round(state, jury) if "ime" in line.content)


def test_a_time_check_one_still_round_from_the_end_says_so_instead_of_counting_rounds_left() -> None:
    assert _time_check(still=2) == TIME_REMINDER_STILL.format(still="2 rounds")
    moving = _time_check(still=0)
    assert "round 4 of 20" in moving or "16 rounds" in moving
    # the jury waits for a person who will not have had their turns by the end of this round
    assert _time_check(still=2, turns_needed=2, turns_had=0) != TIME_REMINDER_STILL.format(still="2 rounds")
