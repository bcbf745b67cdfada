"""The foreperson: a process voice (the timekeeper of seed 001), not a juror.

Its lines are rule-based turns of kind ``process`` that cost no model call. It never argues the
case: it does not mention evidence, witnesses or which way anyone should vote. Rules, checked at
the start of each round:

* round 1: opens the discussion with the first ballot's tally;
* every ``TIME_INTERVAL`` rounds: reminds the room how much time is left: in a lesson with a bell,
  the lesson's minutes (the round limit then falls after the judge's direction, so a count of
  rounds would mislead), else the rounds left;
* every ``INVITE_INTERVAL`` rounds from round 2: invites by name the AI juror who has spoken
  least (and not in the last ``SILENT_ROUNDS`` rounds); the invited juror is the first AI juror
  to speak that round (``turns.select_speakers``), right after the invitation;
* ``VOTE_CALL_MARGIN`` rounds before the limit, once: calls for a vote at the end of the round
  limit.

Summing up, it names who raised each point ("For guilt, Frank Russo raised the receipt; ..."): it
notes, each round, the juror who first argued each point the room has heard (``note_raisers``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from deliberation.engine import rules as jury_rules
from deliberation.engine.judge import counted, join_names  # pure Python: how counts and names sound
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import JurorProfile

FOREPERSON_NAME = "Foreperson"
TIME_INTERVAL = 4
INVITE_INTERVAL = 3
SILENT_ROUNDS = 3
VOTE_CALL_MARGIN = 2

OPENING = "Let's begin. The first ballot stands at {guilty} guilty, {not_guilty} not guilty. Who wants to start?"
OPENING_WAITING = (
    "Let's begin. The first ballot stands at {guilty} guilty, {not_guilty} not guilty; {names} {have} not voted yet. "
    "Who wants to start?"
)
TIME_REMINDERS = (
    "We're at round {round} of {max}. {left} rounds left, let's keep moving.",
    "A reminder on time: round {round} of {max}. Let's use the {left} rounds we have left well.",
    "Time check: {left} rounds to go. Let's hear the points we haven't heard yet.",
)
# The time check when the jury is one still round from ending without agreeing (``stability_rounds``):
# the rounds the limit leaves would mislead, since this round may be the last.
TIME_REMINDER_STILL = (
    "Time check: no vote has moved for {still}. If this round changes nothing, I will have to report "
    "that we cannot agree, so let's hear what might still change a mind."
)
TIME_REMINDERS_BELL = (
    "About {left} of the lesson left, let's keep moving.",
    "A reminder on time: about {left} of the lesson left. Let's use it well.",
    "Time check: about {left} left before the bell. Let's hear the points we haven't heard yet.",
)
INVITATIONS = (
    "{name}, we haven't heard much from you. What do you make of all this?",
    "{name}, you've been quiet. I'd like to hear where you stand.",
    "Let's give {name} the floor. {name}, anything to add?",
)
VOTE_CALL = "We're nearly out of time. After round {max} we take the final vote, so say what still needs saying."


@dataclass(frozen=True)
class ProcessLine:
    """A non-juror line: the foreperson (kind ``process``) or an engine note (kind ``note``)."""

    round_number: int
    content: str
    kind: str = "process"
    speaker_name: str = FOREPERSON_NAME
    target_seat: int | None = None
    after_speeches: int = 0  # how many of the round's speeches come before it


def minutes_words(seconds: float) -> str:
    """The lesson's time left as the foreperson says it: "18 minutes", "1 minute", "less than a minute"."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "less than a minute"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def quietest(state: DeliberationState, jury: Sequence[JurorProfile]) -> JurorProfile | None:
    silent = [
        juror
        for juror in jury
        if juror.kind == "ai"
        and juror.seat not in state.discharged  # a discharged juror cannot be given the floor
        and (
            state.memories[juror.seat].spoke_count == 0
            or state.round_number - state.memories[juror.seat].last_spoke_round >= SILENT_ROUNDS
        )
    ]
    if not silent:
        return None
    return min(
        silent, key=lambda j: (state.memories[j.seat].spoke_count, state.memories[j.seat].last_spoke_round, j.seat)
    )


def not_voted(state: DeliberationState, jury: Sequence[JurorProfile]) -> list[JurorProfile]:
    """The people (and agents) whose own vote the jury still waits for: the vote their seat holds
    until then is nobody's, so no count names it."""
    if state.settings.turns_before_verdict <= 0:
        return []
    return [j for j in jury if j.kind != "ai" and j.seat not in state.own_votes and j.seat in state.votes]


def opening_line(state: DeliberationState, jury: Sequence[JurorProfile]) -> str:
    """The first ballot as cast: the votes of the people who have not voted yet are left out."""
    waiting = not_voted(state, jury)
    if not waiting:
        return OPENING.format(**state.tally())
    left_out = {j.seat for j in waiting}
    values = [value for seat, value in state.votes.items() if seat not in left_out]
    return OPENING_WAITING.format(
        guilty=values.count("guilty"),
        not_guilty=values.count("not_guilty"),
        names=_names(waiting),
        have="has" if len(waiting) == 1 else "have",
    )


def _one_still_round_from_the_end(state: DeliberationState, jury: Sequence[JurorProfile]) -> bool:
    """Would one more round without a vote change end the deliberation (``ending.end_reason``'s
    stability rule)? Not while a participant will still lack a vote of their own or their turns at
    the end of this round, since the jury then waits for them."""
    if state.rounds_without_change + 1 < state.settings.stability_rounds:
        return False
    needed = state.settings.turns_before_verdict
    people = [juror.seat for juror in jury if juror.kind != "ai"]
    return needed <= 0 or all(seat in state.own_votes and state.turns_had.get(seat, 0) + 1 >= needed for seat in people)


def lines_for_round(
    state: DeliberationState, jury: Sequence[JurorProfile], *, lesson_left: float | None = None
) -> list[ProcessLine]:
    """The foreperson's lines at the start of ``state.round_number`` (already incremented).
    ``lesson_left``: the seconds before the lesson's bell, in a room that has one (None: no bell)."""
    number = state.round_number
    note_raisers(state)  # before last round's speeches leave the jurors' memories
    rules = jury_rules.rule_set(state.settings.rules)
    limit = jury_rules.round_limit(state.settings.max_rounds, rules, state.rule_progress)  # the rules' cap too
    lines: list[ProcessLine] = []
    if number == 1:
        lines.append(ProcessLine(number, opening_line(state, jury)))
    if number > 1 and number % TIME_INTERVAL == 0 and number < limit - VOTE_CALL_MARGIN:
        turn = number // TIME_INTERVAL
        if _one_still_round_from_the_end(state, jury):
            text = TIME_REMINDER_STILL.format(still=counted(state.rounds_without_change, "round"))
        elif lesson_left is not None:
            text = TIME_REMINDERS_BELL[turn % len(TIME_REMINDERS_BELL)].format(left=minutes_words(lesson_left))
        else:
            text = TIME_REMINDERS[turn % len(TIME_REMINDERS)].format(round=number, max=limit, left=limit - number)
        lines.append(ProcessLine(number, text))
    if number >= 2 and number % INVITE_INTERVAL == 0:
        juror = quietest(state, jury)
        if juror is not None:
            text = INVITATIONS[(number // INVITE_INTERVAL) % len(INVITATIONS)]
            lines.append(ProcessLine(number, text.format(name=juror.name), target_seat=juror.seat))
    if not state.foreperson_called_vote and limit > VOTE_CALL_MARGIN and number >= limit - VOTE_CALL_MARGIN:
        state.foreperson_called_vote = True
        lines.append(ProcessLine(number, VOTE_CALL.format(max=limit)))
    return lines


# --- The foreperson as mediator: summaries, polls, readiness, the deadlock report ----------
POINTS_SHOWN = 3  # main points each way in a summary
POLL_HANDS = "On a show of hands: guilty, {guilty}; not guilty, {not_guilty}."
POLL_SECRET = "On a secret ballot: {guilty} guilty, {not_guilty} not guilty."
NOBODY = "nobody"
SUMMARY_OPENING = "Let me sum up where we are after round {round}."
DEADLOCK_REPORT = "Your Honour, we have not been able to agree."
POINTS_FOR_GUILT = "For guilt, {points}."
POINTS_FOR_DOUBT = "Against it, {points}."
RAISED = "{name} raised {points}"
ALSO_RAISED = "{points} came up as well"
ANSWERED = "{points} came up when {name} answered {them}"
NO_POINTS = "No point in the case file has been argued yet."
UNDECIDED = "Still undecided: {names}."
UNHEARD = "We have not heard from {names}."
NOT_VOTED = "Still to vote: {names}."
IN_SHORT = "In short: {text}"  # the model's own summary of the argument, when a model deliberates
MODEL_SUMMARY_CHARS = 400
READY_TO_VOTE = "Nothing new has come up for two rounds. Are we ready to vote?"
FENCE = (0.35, 0.65)  # a conviction in this band is undecided (the speaker selection's fence)


def _names(jurors: Sequence[JurorProfile]) -> str:
    return join_names([j.name for j in jurors]) or NOBODY


def poll_line(state: DeliberationState, jury: Sequence[JurorProfile]) -> str:
    """The jury's votes as the foreperson takes them: by name on a show of hands, counts in secret.
    A person who has not voted yet raises no hand."""
    left_out = {j.seat for j in not_voted(state, jury)}
    cast = {seat: value for seat, value in state.votes.items() if seat not in left_out}
    if state.settings.poll == "secret":
        return POLL_SECRET.format(**{value: list(cast.values()).count(value) for value in ("guilty", "not_guilty")})
    by_vote = {
        value: join_names([j.voter for j in jury if cast.get(j.seat) == value]) or NOBODY
        for value in ("guilty", "not_guilty")
    }
    return POLL_HANDS.format(**by_vote)


def main_points(state: DeliberationState) -> tuple[list[str], list[str]]:
    """The points argued most often each way (towards guilt, towards doubt), as the room named them.

    Each point is listed once: the reader's keys that the room names alike (an item and a side's
    argument resting on it) are counted together, and a point argued both ways is listed on the side
    it was argued more (towards guilt on a tie)."""
    guilt, doubt = _ranked(state)
    return [name for name, _, _ in guilt], [name for name, _, _ in doubt]


Raised = tuple[str, str, bool]  # the point, who first raised it ("" when unknown), whether only to answer it


def _ranked(state: DeliberationState) -> tuple[list[Raised], list[Raised]]:
    """``main_points`` with who first raised each point on the side it is listed ("" when unknown),
    and whether that juror named it only to answer it (arguing the other way)."""
    progress = state.rule_progress
    shown: dict[str, str] = {}
    counts: dict[str, dict[int, int]] = {}
    raisers: dict[tuple[str, int], tuple[int, str, bool]] = {}
    for key, heard in sorted(progress.heard.items()):
        label = progress.labels.get(key)
        sign = 1 if key.endswith("|1") else -1 if key.endswith("|-1") else 0
        if not label or not sign:
            continue
        name = " ".join(label.split())
        shown.setdefault(name.lower(), name)
        ways = counts.setdefault(name.lower(), {1: 0, -1: 0})
        ways[sign] += heard
        if key in progress.raised:
            # a juror who argued the point this way comes before one who only answered it
            first = (progress.raised_round.get(key, 0), progress.raised[key], key in progress.answered)
            earlier = raisers.get((name.lower(), sign), first)
            raisers[(name.lower(), sign)] = min(earlier, first, key=lambda seen: (seen[2], seen[0], seen[1]))
    ranked = sorted(counts.items(), key=lambda item: (-max(item[1].values()), item[0]))

    def listed(name: str, sign: int) -> Raised:
        _, who, answered = raisers.get((name, sign), (0, "", False))
        return shown[name], who, answered

    guilt = [listed(name, 1) for name, ways in ranked if ways[1] >= ways[-1]]
    doubt = [listed(name, -1) for name, ways in ranked if ways[-1] > ways[1]]
    return guilt[:POINTS_SHOWN], doubt[:POINTS_SHOWN]


SURNAME = re.compile(r"\b[A-Z][a-z]{3,}$")


def _core(label: str) -> str:
    """What a speech says of a point: "the doubts about Tasha Hale" -> "tasha hale"."""
    text = " ".join(label.lower().split())
    for head in ("the doubts about ", "doubts about ", "the ", "a ", "an "):
        text = text.removeprefix(head)
    return text


def note_raisers(state: DeliberationState) -> None:
    """Note who first argued each point the room has heard and that has no raiser yet: the earliest
    speech the jurors remember that names it, by a juror arguing that way; else the earliest juror
    arguing that way whose argument on that item struck a listener; else the earliest juror who named
    it at all (to concede it or to answer it, the reader took it that way). A point whose raiser the
    jurors no longer remember stays unnamed ("... came up as well")."""
    progress = state.rule_progress
    missing = [key for key in progress.heard if key not in progress.raised and progress.labels.get(key)]
    if not missing:
        return
    turns: dict[tuple[int, int, str], tuple[int, str, str, str]] = {}
    for memory in state.memories.values():
        for order, turn in enumerate(memory.heard):
            if turn.kind == "speech" and turn.speaker_name:
                place = (turn.round_number, turn.seat, turn.content)
                turns.setdefault(place, (order, turn.speaker_name, turn.content.lower(), turn.position))
    spoken = sorted(((r, order, name, text, side) for (r, _, _), (order, name, text, side) in turns.items()))
    struck = sorted(
        (i.round_number, i.speaker_name, i.item_id, i.position)
        for memory in state.memories.values()
        for i in memory.impressions
        if i.speaker_name
    )
    for key in missing:
        side = "guilty" if key.endswith("|1") else "not_guilty"
        label = progress.labels[key]
        core = _core(label)
        # "Detective Angela Burris" is "Angela Burris" or "Burris" to the room
        tails = {" ".join(core.split()[-2:])} | ({core.split()[-1]} if SURNAME.search(label) else set())
        naming = [(r, name, said) for r, _, name, text, said in spoken if core and any(t in text for t in tails)]
        item = key.split(":", 1)[0]
        found = next(((r, name) for r, name, said in naming if said == side), None) or next(
            ((r, name) for r, name, it, said in struck if it == item and said == side), None
        )
        answer = None if found else next(((r, name) for r, name, _ in naming), None)  # to concede or answer it
        if answer is not None:
            progress.answered.append(key)
        picked = found or answer
        if picked is not None:
            progress.raised_round[key], progress.raised[key] = picked


def _raised_by(points: list[Raised]) -> str:
    """ "Frank Russo raised the receipt and the pawn ticket; Ann Lee raised the 911 call": each
    point once, under the juror who raised it, in the order the points rank. A point the first
    juror to name only answered (arguing the other way) is not said to be theirs: "the alibi came
    up when Ann Lee answered it"."""
    by: dict[str, list[str]] = {}
    answering: dict[str, list[str]] = {}
    for point, name, answered in points:
        (answering if answered and name else by).setdefault(name, []).append(point)
    clauses = [RAISED.format(name=name, points=join_names(listed)) for name, listed in by.items() if name]
    clauses += [
        ANSWERED.format(points=join_names(listed), name=name, them="them" if len(listed) > 1 else "it")
        for name, listed in answering.items()
    ]
    if by.get(""):
        clauses.append(ALSO_RAISED.format(points=join_names(by[""])))
    return "; ".join(clauses)


def state_of_argument(state: DeliberationState, jury: Sequence[JurorProfile]) -> list[str]:
    """The sentences of a summary: the poll, the main points each way, who is undecided, who has
    not spoken, who has not voted. It names points and people, never which way anyone should go."""
    note_raisers(state)
    guilt, doubt = _ranked(state)
    parts = [poll_line(state, jury)]
    if guilt or doubt:
        if guilt:
            parts.append(POINTS_FOR_GUILT.format(points=_raised_by(guilt)))
        if doubt:
            parts.append(POINTS_FOR_DOUBT.format(points=_raised_by(doubt)))
    else:
        parts.append(NO_POINTS)
    # The AI juror playing a person's empty seat is moved, but the seat's vote is hers: not undecided.
    ai = [j for j in jury if j.kind == "ai" and not j.stands_in]
    undecided = [j for j in ai if FENCE[0] <= state.memories[j.seat].conviction <= FENCE[1]]
    if undecided:
        parts.append(UNDECIDED.format(names=_names(undecided)))
    unheard = [j for j in jury if state.memories[j.seat].spoke_count == 0]
    if unheard:
        parts.append(UNHEARD.format(names=join_names([j.voter for j in unheard])))
    if state.settings.turns_before_verdict > 0:
        waiting = [j for j in jury if j.kind != "ai" and j.seat not in state.own_votes]
        if waiting:
            parts.append(NOT_VOTED.format(names=_names(waiting)))
    return parts


def summary_line(
    state: DeliberationState, jury: Sequence[JurorProfile], *, after: int, model_summary: str = ""
) -> ProcessLine:
    """The summary; with a model deliberating, the model's own summary of the argument (written in
    this round's summarize call, no extra call) follows the rule-based one."""
    parts = [SUMMARY_OPENING.format(round=state.round_number), *state_of_argument(state, jury)]
    words = " ".join(model_summary.replace("•", " ").split())
    if words:
        short = words if len(words) <= MODEL_SUMMARY_CHARS else words[:MODEL_SUMMARY_CHARS].rsplit(" ", 1)[0] + "…"
        parts.append(IN_SHORT.format(text=short))
    return ProcessLine(state.round_number, " ".join(parts), after_speeches=after)


def deadlock_line(state: DeliberationState, jury: Sequence[JurorProfile], *, after: int) -> ProcessLine:
    text = " ".join([DEADLOCK_REPORT, *state_of_argument(state, jury)])
    return ProcessLine(state.round_number, text, after_speeches=after)


def closing_lines(
    state: DeliberationState, jury: Sequence[JurorProfile], *, after: int, model_summary: str = ""
) -> list[ProcessLine]:
    """The foreperson's lines at the end of a round that did not end the deliberation: a summary
    every ``foreperson_summary_every`` rounds, and the question whether the jury is ready to vote
    when nothing new was said for two rounds."""
    lines: list[ProcessLine] = []
    every = state.settings.foreperson_summary_every
    if every > 0 and state.round_number % every == 0:
        lines.append(summary_line(state, jury, after=after, model_summary=model_summary))
    progress = state.rule_progress
    if progress.rounds_without_new == 2 and progress.asked_ready_round != state.round_number:
        progress.asked_ready_round = state.round_number
        text = f"{READY_TO_VOTE} {poll_line(state, jury)}"
        lines.append(ProcessLine(state.round_number, text, after_speeches=after))
    return lines
