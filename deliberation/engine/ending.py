"""When a deliberation ends, and with which verdict.

Checked after every round from round 1 (``rounds.run_round`` does it and records the reason on the
state): unanimity, a vote called by the player, stability (``stability_rounds`` rounds in a row
without a vote change) and the round limit. The verdict needs what the jury's rules require
(``engine.rules``: twelve votes alike, or a majority after the direction); anything less is a hung jury.

The jury leaves room to argue: with ``settings.turns_before_verdict`` set (the courtroom: 2, a
room: 5), it reaches no verdict by itself (unanimity or stability) until every participant has
cast a vote of their own (or let a turn's time run out) and had that many turns, and a unanimous
jury gives its verdict only when it was already close (unanimous or one vote short, for the same
verdict) at the end of the round before: the people were told so (``verdict_outlook``) and had a
turn to answer. A called vote and the round limit still end it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

from deliberation.engine import rules as jury_rules
from deliberation.engine.foreperson import ProcessLine, closing_lines, deadlock_line
from deliberation.engine.judge import counted, join_names  # pure Python: how counts and names sound
from deliberation.engine.ports import ArgumentReader
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import CaseFile, JurorProfile, Speech

EndReason = Literal["unanimous", "majority", "called", "stable", "no_new_arguments", "round_limit", "deadlock", "time"]
STUCK: frozenset[str] = frozenset({"stable", "no_new_arguments", "round_limit"})
Verdict = Literal["guilty", "not_guilty", "hung"]


def is_unanimous(votes: dict[int, str]) -> bool:
    return len(votes) > 0 and len(set(votes.values())) == 1


def waiting_for(state: DeliberationState, participants: Collection[int]) -> list[int]:
    """The participants the jury still waits for before it may reach a verdict by itself."""
    needed = state.settings.turns_before_verdict
    if needed <= 0:
        return []
    return sorted(seat for seat in participants if seat not in state.own_votes or state.turns_had.get(seat, 0) < needed)


def awaiting_vote(state: DeliberationState, participants: Collection[int]) -> list[int]:
    """Participants whose own vote the jury is waiting for (their seat shows no vote yet)."""
    if state.settings.turns_before_verdict <= 0:
        return []
    return sorted(seat for seat in participants if seat not in state.own_votes)


def tally_cast(state: DeliberationState, participants: Collection[int]) -> dict[str, int]:
    """The tally of the votes cast: a participant whose seat shows no vote yet is left out, as the
    room's tally leaves them out (the judge's count and the page's agree). ``waiting`` counts the
    seats with no vote for either side yet (a person whose run-out turn left their seat without a
    vote among them), so that the judge never calls such a jury unanimous."""
    waiting = set(awaiting_vote(state, participants))
    values = [value for seat, value in state.votes.items() if seat not in waiting]
    guilty, not_guilty = values.count("guilty"), values.count("not_guilty")
    out = set(state.discharged)
    no_vote = {seat for seat in participants if seat not in out and (seat in waiting or seat not in state.votes)}
    return {"guilty": guilty, "not_guilty": not_guilty, "waiting": len(no_vote)}


def was_close(state: DeliberationState) -> bool:
    """The jury was already close to this unanimous verdict when the last round began (or the
    deliberation is ungated): the people were told and had a turn to answer."""
    if state.settings.turns_before_verdict <= 0:
        return True
    if len(state.vote_history) < 2 or not state.votes:
        return False
    verdict = next(iter(state.votes.values()))
    return list(state.vote_history[-2].values()).count(verdict) >= len(state.votes) - 1


def end_reason(state: DeliberationState, participants: Collection[int] = ()) -> EndReason | None:
    """Why the deliberation should end now, or None to keep going. Unanimity wins ties.

    ``participants`` are the seats people or agents hold: see ``waiting_for``.
    """
    if state.round_number < 1:
        return None
    room_to_argue = bool(waiting_for(state, participants))
    if is_unanimous(state.votes) and not room_to_argue and was_close(state):
        return "unanimous"
    rules = jury_rules.rule_set(state.settings.rules)
    progress = state.rule_progress
    majority = jury_rules.valid_verdict(state.votes, rules=rules, progress=progress)
    if majority and not is_unanimous(state.votes) and not room_to_argue:
        return "majority"
    if state.vote_called:
        return "called"
    if state.rounds_without_change >= state.settings.stability_rounds and not room_to_argue:
        return "stable"
    no_new = state.settings.no_new_rounds
    if no_new > 0 and progress.rounds_without_new >= no_new and not room_to_argue:
        return "no_new_arguments"
    if state.round_number >= jury_rules.round_limit(state.settings.max_rounds, rules, progress):
        return "round_limit"
    return None


def verdict_of(votes: dict[int, str]) -> Verdict:
    if is_unanimous(votes):
        return "guilty" if next(iter(votes.values())) == "guilty" else "not_guilty"
    return "hung"


def call_vote(state: DeliberationState) -> None:
    """The player calls the vote: the deliberation ends after the current round is checked."""
    state.vote_called = True


FINAL_VOTE_ONLY = "The verdict is read only after the final vote."
UNKNOWN_VOTE = "A vote is 'guilty' or 'not_guilty', not '{value}'."
NOT_A_SEAT = "Seat {seat} is not on this jury."


def cast_vote(state: DeliberationState, *, seat: int, value: str) -> bool:
    """A participant (human or external agent) casts or changes a vote; True when it changed.

    The change counts as a vote change for the stability rule at the end of the current round.
    """
    if value not in ("guilty", "not_guilty"):
        raise ValueError(UNKNOWN_VOTE.format(value=value))
    if seat not in state.memories:
        raise ValueError(NOT_A_SEAT.format(seat=seat))
    memory = state.memories[seat]
    changed = state.votes.get(seat) != value
    state.votes[seat] = value
    memory.vote = value
    if seat not in state.own_votes:
        state.own_votes.append(seat)
    return changed


def record_turn(state: DeliberationState, *, seat: int, timed_out: bool = False) -> None:
    """A participant had a turn (spoke, passed, or let the time run out).

    A turn whose time ran out also settles the seat's ballot: a person who walked away does not
    hold the jury forever (their vote stays as it stands).
    """
    state.turns_had[seat] = state.turns_had.get(seat, 0) + 1
    if timed_out and seat not in state.own_votes:
        state.own_votes.append(seat)


def reopen_ballot(state: DeliberationState, *, seat: int) -> bool:
    """A participant whose run-out turn settled their ballot is back: the jury waits for their own
    vote again. True when it was settled (a vote the person cast is never taken back here)."""
    if seat not in state.own_votes or seat in state.votes:
        return False
    state.own_votes.remove(seat)
    return True


def has_own_vote(state: DeliberationState, seat: int) -> bool:
    return seat in state.own_votes


def final_verdict(state: DeliberationState) -> Verdict:
    """Read the verdict from the final ballot (phase ``final_vote``) and record it on the state."""
    if state.phase != "final_vote":
        raise ValueError(FINAL_VOTE_ONLY)
    rules = jury_rules.rule_set(state.settings.rules)
    if state.end_reason == "deadlock":
        state.verdict = "hung"
    else:
        found = jury_rules.valid_verdict(state.votes, rules=rules, progress=state.rule_progress)
        state.verdict = found or "hung"
    if state.verdict == "guilty":
        return "guilty"
    return "not_guilty" if state.verdict == "not_guilty" else "hung"


NEAR_UNANIMOUS = (
    "The jury is unanimous: {verdict}. Unless a vote changes, the verdict is read at the end of the next round."
)
NEAR_UNANIMOUS_WAITING = (
    "The jury is unanimous: {verdict}. The verdict waits until every participant has voted and had {turns}."
)
NEAR_MAJORITY = (
    "The jury stands {count} to {rest} for {verdict}: a majority verdict the judge can now accept ({rules}). "
    "Unless a vote changes, the verdict is read at the end of the next round."
)
NEAR_MAJORITY_WAITING = (
    "The jury stands {count} to {rest} for {verdict}: a majority verdict the judge can now accept ({rules}). "
    "The verdict waits until every participant has voted and had {turns}."
)
NEAR_ONE_SHORT = (
    "Close to a verdict: {count} of {size} vote {verdict}; one more vote and the jury is unanimous ({rules})."
)
NEAR_ONE_SHORT_MAJORITY = (
    "Close to a verdict: {count} of {size} vote {verdict}; one more vote and the judge can accept {required} ({rules})."
)
NEAR_STABLE = (
    "Close to the end: no vote has changed for {rounds}; one more round like that ends the "
    "deliberation with a hung jury, short of {required} ({rules})."
)
NEAR_STABLE_SENT_BACK = (
    "Close to a deadlock: no vote has changed for {rounds}; one more round like that and the "
    "foreperson reports it, and the judge sends the jury back to keep trying ({rules})."
)
NEAR_STABLE_ALLEN = (
    "Close to a deadlock: no vote has changed for {rounds}; one more round like that and the "
    "foreperson reports it, and the judge asks the jury to try once more; only a second deadlock is a "
    "mistrial ({rules})."
)
NEAR_LIMIT = (
    "Last round: after round {limit} the final vote is taken; anything short of {required} is a hung jury ({rules})."
)
NEAR_LIMIT_ALLEN = (
    "Last round before the limit: still divided after round {limit}, the foreperson reports a deadlock and "
    "the judge gives the jury {extra} more rounds; only a second deadlock is a mistrial ({rules})."
)
WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}


def verdict_outlook(
    *,
    votes: dict[int, str],
    round_number: int,
    max_rounds: int,
    rounds_without_change: int,
    stability_rounds: int,
    waiting: bool = False,
    turns_needed: int = 0,
    rules: str = jury_rules.DEFAULT_RULES,
    progress: jury_rules.RuleProgress | None = None,
    size: int = 12,
) -> str:
    """How close the jury is to ending on its own, in one sentence for the people in it ("" when
    it is not close), under the jury's ``rules`` as they stand (``progress``: the majority direction
    given, deadlocks reported, the Old Bailey jury sent out) and for the ``size`` of jurors still
    sitting. ``votes`` are the votes cast (a participant who has not voted is left out). Every
    line that warns of a verdict or a hung jury names the rules (``RuleSet.label``)."""
    if round_number < 1 and not votes:
        return ""
    rule = jury_rules.RULE_SETS.get(rules, jury_rules.RULE_SETS[jury_rules.DEFAULT_RULES])
    progress = progress or jury_rules.RuleProgress()
    named = f"rules: {rule.label}"
    direction = bool(rule.majority_direction and progress.direction_round and size >= 10)
    required = jury_rules.required_verdict(rule.name, size=size, direction_given=direction)
    cast = list(votes.values())
    leader = max(("guilty", "not_guilty"), key=cast.count) if cast else "guilty"
    count = cast.count(leader)
    verdict = WORDS[leader]
    if count >= size:
        if waiting:
            return NEAR_UNANIMOUS_WAITING.format(verdict=verdict, turns=counted(turns_needed, "turn"))
        return NEAR_UNANIMOUS.format(verdict=verdict)
    needed = jury_rules.majority_needed(size) if direction else size
    if count >= needed:
        template = NEAR_MAJORITY_WAITING if waiting else NEAR_MAJORITY
        return template.format(
            count=count, rest=size - count, verdict=verdict, rules=named, turns=counted(turns_needed, "turn")
        )
    if count == needed - 1:
        if direction:
            return NEAR_ONE_SHORT_MAJORITY.format(
                count=count, size=size, verdict=verdict, required=required, rules=named
            )
        return NEAR_ONE_SHORT.format(count=count, size=size, verdict=verdict, rules=named)
    allen_left = progress.deadlocks < rule.further_instructions
    if round_number + 1 >= max_rounds:
        if allen_left:
            return NEAR_LIMIT_ALLEN.format(limit=max_rounds, extra=jury_rules.ALLEN_EXTRA_ROUNDS, rules=named)
        return NEAR_LIMIT.format(limit=max_rounds, required=required, rules=named)
    if not waiting and round_number >= 1 and rounds_without_change + 1 >= stability_rounds:
        if rule.kept_until_agreed or (rule.majority_direction and not progress.direction_round):
            return NEAR_STABLE_SENT_BACK.format(rounds=counted(rounds_without_change, "round"), rules=named)
        if allen_left:
            return NEAR_STABLE_ALLEN.format(rounds=counted(rounds_without_change, "round"), rules=named)
        return NEAR_STABLE.format(rounds=counted(rounds_without_change, "round"), required=required, rules=named)
    return ""


def note_arguments(state: DeliberationState, case: CaseFile, speeches: list[Speech], *, reader: ArgumentReader) -> bool:
    """Record what the round's speeches argued (``reader``: which point of the case file, which
    way) and count the rounds in a row in which nothing was new. True when something was."""
    progress = state.rule_progress
    new = False
    for speech in speeches:
        points = {(p.key, p.sign): p.name for p in reader(case, speech.content)}
        for (key, sign), name in sorted(points.items()):
            point = f"{key}|{sign}"
            new = new or point not in progress.heard
            progress.heard[point] = progress.heard.get(point, 0) + 1
            progress.labels.setdefault(point, name or key)
    progress.rounds_without_new = 0 if new else progress.rounds_without_new + 1
    return new


def _judge(state: DeliberationState, text: str, after: int) -> ProcessLine:
    return ProcessLine(state.round_number, text, kind="judge", speaker_name=jury_rules.JUDGE_NAME, after_speeches=after)


def settle_round(
    state: DeliberationState,
    *,
    jury: list[JurorProfile],
    case: CaseFile,
    speeches: list[Speech],
    participants: Collection[int] = (),
    reader: ArgumentReader,
    model_summary: str = "",
) -> tuple[str, list[ProcessLine]]:
    """At the end of a round: the end reason under the jury's rules ("" to go on) and the lines the
    foreperson and the judge say after the round's speeches.

    * england-wales: at ``majority_after_rounds`` the judge gives the majority direction; a stuck
      jury before it (stable, nothing new) reports its deadlock and is sent back to keep trying.
    * us-allen: the first deadlock (stable, nothing new, the round limit) brings the further-
      deliberation instruction and a fresh start (``ALLEN_EXTRA_ROUNDS`` more at the limit); the
      second hangs the jury with the reason ``deadlock``.
    * every rule set: a jury that ends stuck hears the foreperson's deadlock report first.
    """
    note_arguments(state, case, speeches, reader=reader)
    rules = jury_rules.rule_set(state.settings.rules)
    progress = state.rule_progress
    after = len(speeches)
    lines: list[ProcessLine] = []
    reason = end_reason(state, participants) or ""
    foreperson = state.settings.foreperson
    if rules.kept_until_agreed:
        return _kept_until_agreed(state, jury, reason, after, model_summary)
    if reason in STUCK:
        if rules.majority_direction and not progress.direction_round and reason != "round_limit":
            progress.deadlocks += 1
            lines += [deadlock_line(state, jury, after=after), _judge(state, jury_rules.KEEP_TRYING, after)]
            state.rounds_without_change = progress.rounds_without_new = 0
            reason = ""
        elif progress.deadlocks < rules.further_instructions:
            progress.deadlocks += 1
            lines += [deadlock_line(state, jury, after=after), _judge(state, jury_rules.ALLEN_INSTRUCTION, after)]
            state.rounds_without_change = progress.rounds_without_new = 0
            if reason == "round_limit":
                progress.extra_rounds += jury_rules.ALLEN_EXTRA_ROUNDS
            reason = ""
        else:
            if rules.further_instructions:
                reason = "deadlock"
            progress.deadlocks += 1
            if foreperson:
                lines.append(deadlock_line(state, jury, after=after))
    if not reason and rules.majority_direction and not progress.direction_round:
        if state.round_number >= state.settings.majority_after_rounds:
            progress.direction_round = state.round_number
            size = jury_rules.jury_size(state.votes)
            text = jury_rules.MAJORITY_DIRECTION.format(needed=jury_rules.majority_needed(size), size=size)
            lines.append(_judge(state, text, after))
    if not reason and foreperson:
        lines += closing_lines(state, jury, after=after, model_summary=model_summary)
    return reason, lines


def _kept_until_agreed(
    state: DeliberationState, jury: list[JurorProfile], reason: str, after: int, model_summary: str
) -> tuple[str, list[ProcessLine]]:
    """The Old Bailey (``rules.kept_until_agreed``): the jury confers in the box; not agreed after
    ``OLD_BAILEY_BOX_ROUNDS`` (or stuck sooner) it is sent out, kept until it agrees, pressed by
    its foreperson, and sent back whenever it reports it cannot agree; at the court's limit it is
    discharged unagreed (reason ``deadlock``: hung). A jury whose votes already agree and only waits
    for a person's own vote or turn is never sent out, sent back or discharged: at the limit its
    verdict is taken on the votes (reason ``round_limit``)."""
    progress = state.rule_progress
    foreperson = state.settings.foreperson
    lines: list[ProcessLine] = []
    at_limit = reason == "round_limit"
    rules = jury_rules.rule_set(state.settings.rules)
    if (not reason or reason in STUCK) and jury_rules.valid_verdict(state.votes, rules=rules, progress=progress):
        # Agreed, and only waiting (for a person's own vote or turn, ``waiting_for``): nobody reports
        # that the jury cannot agree, and at the court's limit the verdict is taken on the votes.
        if at_limit:
            return "round_limit", lines
        if foreperson:
            lines += closing_lines(state, jury, after=after, model_summary=model_summary)
        return "", lines
    if not progress.retired_round and not reason and state.round_number >= jury_rules.OLD_BAILEY_BOX_ROUNDS:
        reason = "stable"  # the minutes in the box are over: the jury is not agreed
    if reason in STUCK and not at_limit:
        if progress.retired_round:
            progress.deadlocks += 1
            lines += [deadlock_line(state, jury, after=after), _judge(state, jury_rules.SEND_BACK, after)]
        else:
            progress.retired_round = state.round_number
            lines.append(_judge(state, jury_rules.SEND_OUT, after))
        state.rounds_without_change = progress.rounds_without_new = 0
        reason = ""
    elif at_limit:
        progress.deadlocks += 1
        lines += [deadlock_line(state, jury, after=after), _judge(state, jury_rules.DISCHARGE_UNAGREED, after)]
        return "deadlock", lines
    if reason:
        return reason, lines
    if foreperson and progress.retired_round and progress.retired_round < state.round_number:
        press = pressing_line(state, jury, after=after)
        if press is not None:
            lines.append(press)
    if foreperson:
        lines += closing_lines(state, jury, after=after, model_summary=model_summary)
    return "", lines


def pressing_line(state: DeliberationState, jury: list[JurorProfile], *, after: int) -> ProcessLine | None:
    """The foreperson of a kept jury presses the minority, by name, for agreement."""
    towards = jury_rules.pressed_towards(state.votes)
    minority = [j.name for j in jury if state.votes.get(j.seat, towards) != towards]
    if not minority:
        return None
    count = list(state.votes.values()).count(towards)
    text = jury_rules.PRESS_FOR_AGREEMENT.format(
        count=count,
        rest=len(state.votes) - count,
        verdict=jury_rules.WORDS[towards],
        names=join_names(minority),
    )
    return ProcessLine(state.round_number, text, after_speeches=after)
