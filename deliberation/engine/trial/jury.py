"""What the jury takes from the trial: only admitted answers reach a juror's memory and first vote.

``cast_ballot_after_trial`` casts the initial ballot as usual (``initial.cast_initial_ballot``),
then, for every AI juror:

- its memory hears each admitted answer as a ``trial`` turn (who was asked what, and the answer);
- the ``TRIAL_MOMENTS`` admitted answers that helped a side most plainly become key moments
  ("at the trial, the pawnbroker said ...") that the juror may recall in deliberation;
- admitted cross-examination answers that helped the defence become doubts;
- only the witnesses who testified (``testified``: an admitted answer) stay the jury's to argue:
  ``DeliberationState.heard_witnesses`` keeps them, the deliberation's speakers are given the case
  file without the others (``round_work``), and a first doubt about a witness never called is dropped;
- what each of them said (``heard_words``: the lines of their admitted answers) is all of their
  testimony the deliberation's speakers are given: a juror quotes a witness with her words at the
  trial, never the file's statement she did not make there; a doubt the file notes about her that
  her answers never brought out is dropped;
- its conviction moves by ``TRIAL_SCALE`` x the trial balance (answers that helped the
  prosecution less those that helped the defence, over all admitted answers that helped either),
  times the juror's weight for evidence arguments; the vote follows the new conviction.

A struck answer is never read here: it exists only in the trial record, marked struck.
"""

from __future__ import annotations

from collections.abc import Sequence

from deliberation.engine import initial, params
from deliberation.engine.conviction import clamp, vote_from_conviction
from deliberation.engine.initial import new_state
from deliberation.engine.memory import add_doubt, flag_moment
from deliberation.engine.phases import advance
from deliberation.engine.ports import HeardTurn, KeyMoment
from deliberation.engine.round_work import as_heard
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.trial.course import Answerer, TrialEvent, admitted, run_trial
from deliberation.engine.trial.witness import AS_I_SAID, NO_KNOWLEDGE
from deliberation.engine.types import CaseFile, JurorProfile

TRIAL_SCALE = 0.12
TRIAL_MOMENTS = 3
QUOTE_CHARS = 160
TRIAL_KIND = "trial"


def short(text: str, limit: int = QUOTE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def trial_balance(events: Sequence[TrialEvent]) -> float:
    """-1 (the trial helped the defence) .. +1 (it helped the prosecution), from admitted answers only."""
    helped = [e.helps for e in admitted(list(events)) if e.helps]
    if not helped:
        return 0.0
    return (helped.count("prosecution") - helped.count("defense")) / len(helped)


def heard_turns(events: Sequence[TrialEvent]) -> list[HeardTurn]:
    questions = {e.index: e for e in events if e.kind == "question"}
    turns: list[HeardTurn] = []
    for event in admitted(list(events)):
        asked = next((questions[i] for i in range(event.index - 1, -1, -1) if i in questions), None)
        prefix = f"(at the trial, asked: {asked.text}) " if asked is not None else "(at the trial) "
        position = {"prosecution": "guilty", "defense": "not_guilty"}.get(event.helps, "")
        turns.append(
            HeardTurn(
                round_number=0,
                seat=0,
                speaker_name=event.speaker,
                content=prefix + event.text,
                kind=TRIAL_KIND,
                position=position,
            )
        )
    return turns


def testified(events: Sequence[TrialEvent]) -> list[str]:
    """The ids of the witnesses the jury heard: each with an admitted answer, in the trial's order.
    A witness only named in an opening, or whose every answer was struck, was not heard."""
    return list(dict.fromkeys(e.witness_id for e in admitted(list(events)) if e.witness_id))


def heard_words(events: Sequence[TrialEvent]) -> dict[str, list[str]]:
    """What each witness said at the trial, by id (those of ``testified``, in its order): the record
    lines of their admitted answers, once each (an answer with none, a model witness's, as it was
    said; "As I said, ..." as the line it repeats). "I couldn't say" is no fact and is left out."""
    words: dict[str, list[str]] = {}
    for event in admitted(list(events)):
        if not event.witness_id:
            continue
        said = words.setdefault(event.witness_id, [])
        text = event.text.removeprefix(AS_I_SAID).strip()
        lines = list(event.quoted) or ([] if text in NO_KNOWLEDGE or not text else [text[:1].upper() + text[1:]])
        said.extend(line for line in lines if line not in said)
    return words


def moments(events: Sequence[TrialEvent]) -> list[KeyMoment]:
    """The answers most worth remembering: those that helped a side, cross-examination first."""
    useful = [e for e in admitted(list(events)) if e.helps]
    useful.sort(key=lambda e: (e.part != "cross", e.index))
    return [KeyMoment(0, TRIAL_KIND, f'{e.speaker} said "{short(e.text).rstrip(".")}"') for e in useful[:TRIAL_MOMENTS]]


def cast_ballot_after_trial(
    state: DeliberationState, *, case: CaseFile, jury: Sequence[JurorProfile], events: Sequence[TrialEvent]
) -> dict[str, int]:
    """The initial ballot, formed from the case file and what the trial admitted (see the module)."""
    initial.cast_initial_ballot(state, case=case, jury=jury)
    state.heard_witnesses = testified(events)
    state.heard_words = heard_words(events)
    unheard = tuple(f"{w.name}:" for w in case.witnesses if w.id not in state.heard_witnesses)
    # A doubt the file notes about a witness who testified, but that her answers never brought out.
    brought = {w.id: w.credibility_issues for w in as_heard(case, state.heard_witnesses, state.heard_words).witnesses}
    unsaid = {
        f"{w.name}: {issue}"
        for w in case.witnesses
        if w.id in brought
        for issue in w.credibility_issues
        if issue not in brought[w.id]
    }
    balance = trial_balance(events)
    turns = heard_turns(events)
    flagged = moments(events)
    doubts = [
        f'{e.speaker}: "{short(e.text)}"' for e in admitted(list(events)) if e.part == "cross" and e.helps == "defense"
    ]
    for juror in jury:
        if juror.kind != "ai":
            continue
        memory = state.memories[juror.seat]
        memory.doubts = [d for d in memory.doubts if not (unheard and d.startswith(unheard)) and d not in unsaid]
        memory.heard = [*turns, *memory.heard]
        for moment in flagged:
            flag_moment(memory, moment)
        for doubt in doubts[:2]:
            add_doubt(memory, doubt)
        weight = juror.modifiers.get("evidence", 1.0)
        memory.conviction = clamp(
            memory.conviction + TRIAL_SCALE * balance * weight, params.INITIAL_MIN, params.INITIAL_MAX
        )
        memory.vote = vote_from_conviction(memory.conviction)
        memory.conviction_history = [memory.conviction]
        state.votes[juror.seat] = memory.vote
    state.vote_history = [dict(state.votes)]
    state.first_ballot = state.tally()
    return dict(state.first_ballot)


def begin_after_trial(
    *,
    case: CaseFile,
    jury: Sequence[JurorProfile],
    seed: int,
    settings: EngineSettings | None = None,
    answerer: Answerer | None = None,
) -> DeliberationState:
    """``session.begin`` with the trial held first (AI counsel on both sides), for AI-only runs.

    ``answerer`` answers for the witnesses (a model witness); without it, the offline rule."""
    state = new_state(jury=jury, seed=seed, player_side="none", settings=settings)
    advance(state, "presentation")
    advance(state, "initial_vote")
    trial = run_trial(case, seed=seed, answerer=answerer)
    cast_ballot_after_trial(state, case=case, jury=jury, events=trial.events)
    advance(state, "deliberation")
    return state
