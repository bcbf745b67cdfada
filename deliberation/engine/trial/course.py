"""The trial before the deliberation: openings, witnesses examined and cross-examined, closings,
the judge's directions. Pure Python; see TRIAL.md beside this file for the rules.

``new_trial`` lays out the plan (one step per speech or question); ``step`` plays the next step and
returns its events; ``run_trial`` plays them all. A question step is a small pipeline, as in a
courtroom: the other side may object to the question (the judge rules; sustained, the witness does
not answer), the witness answers from its own record, and the other side may move to strike the
answer (sustained, it is struck and the jury told to disregard it). ``ask`` runs the same pipeline
for a question a person puts. Struck answers are kept in the record, marked, and never reach the
jury (``admitted``). What a trial is made of (its state and events) is ``events``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from deliberation.engine.trial import counsel, rules
from deliberation.engine.trial.asking import Question
from deliberation.engine.trial.events import (
    DOUBT_WORDS,
    ERROR_GROUND_UNKNOWN,
    ERROR_NOT_ON_STAND,
    ERROR_NOTHING_TO_OBJECT,
    ERROR_QUESTION_BLANK,
    JUDGE,
    MAX_WITNESSES_PER_SIDE,
    Answerer,
    TrialEvent,
    TrialState,
)
from deliberation.engine.trial.text import content_words, normalise
from deliberation.engine.trial.witness import NO_KNOWLEDGE, is_grounded, is_non_answer
from deliberation.engine.trial.witness import answer as witness_answer
from deliberation.engine.types import CaseFile, WitnessItem


def calling_side(witness: WitnessItem) -> str:
    return "defense" if witness.side == "defense" else "prosecution"


def witnesses_for(case: CaseFile, side: str, limit: int = MAX_WITNESSES_PER_SIDE) -> list[WitnessItem]:
    return [w for w in case.witnesses if calling_side(w) == side][:limit]


def new_trial(
    case: CaseFile, *, seed: int, max_witnesses: int = MAX_WITNESSES_PER_SIDE, max_questions: int | None = None
) -> TrialState:
    """Lay out the whole trial: the questions AI counsel will ask are drawn now, from the case file.
    ``max_questions`` (a lesson's length) caps the questions of each examination, chief and cross."""
    state = TrialState(seed=seed)
    plan: list[dict[str, Any]] = [
        {"stage": "openings", "kind": "opening", "side": "prosecution"},
        {"stage": "openings", "kind": "opening", "side": "defense"},
    ]
    for stage, side in (("prosecution_case", "prosecution"), ("defence_case", "defense")):
        for witness in witnesses_for(case, side, max_witnesses):
            plan.append({"stage": stage, "kind": "call", "side": side, "witness": witness.id, "name": witness.name})
            for question in counsel.chief_questions(witness, state.rng)[:max_questions]:
                plan.append(_question_step(stage, side, witness.id, question, "chief"))
            for question in counsel.cross_questions(witness, case, state.rng)[:max_questions]:
                plan.append(_question_step(stage, counsel.other(side), witness.id, question, "cross"))
    plan.append({"stage": "closings", "kind": "closing", "side": "prosecution"})
    plan.append({"stage": "closings", "kind": "closing", "side": "defense"})
    plan.append({"stage": "directions", "kind": "directions", "side": "judge"})
    state.plan = plan
    return state


def _question_step(stage: str, side: str, witness_id: str, question: Question, part: str) -> dict[str, Any]:
    """A planned question, with the record line it was made from (``line``) and what it asks (``asks``)."""
    return {
        "stage": stage,
        "kind": "question",
        "side": side,
        "witness": witness_id,
        "question": question.text,
        "part": part,
        "asks": question.kind,
        "line": question.line,
    }


def _witness(case: CaseFile, witness_id: str) -> WitnessItem:
    return next(w for w in case.witnesses if w.id == witness_id)


def _emit(state: TrialState, **values: Any) -> TrialEvent:
    event = TrialEvent(index=len(state.events), **values)
    state.events.append(event)
    return event


@functools.lru_cache(maxsize=64)
def vocabulary(case: CaseFile, witness: WitnessItem) -> frozenset[str]:
    """The words a relevant question shares with the case file (read once per witness of a trial)."""
    texts = [case.summary, *case.charges, witness.testimony, witness.first_person, *witness.credibility_issues]
    texts += [d.name for d in case.defendants] + [f"{e.label} {e.description}" for e in case.evidence]
    texts += [w.name for w in case.witnesses]
    return frozenset(set().union(*(content_words(t) for t in texts)) | {"prisoner", "defendant", "accused"})


def helps(
    answer_text: str, *, knows: bool, part: str, side_asking: str, record_part: str, conceded: bool = False
) -> str:
    """Which side an admitted answer helped (the documented rule in TRIAL.md). ``conceded``: the answer
    comes from what a curated witness's own words say it concedes under cross-examination."""
    doubtful = conceded or not knows or record_part == "record" or any(w in answer_text.lower() for w in DOUBT_WORDS)
    if part == "chief":
        return side_asking if knows else ""
    return side_asking if doubtful else counsel.other(side_asking)


def ask(
    state: TrialState,
    case: CaseFile,
    *,
    side: str,
    question: str,
    part: str,
    stage: str = "",
    answerer: Answerer | None = None,
    opponent_objects: bool = True,
) -> list[TrialEvent]:
    """One question put to the witness on the stand: objection, ruling, answer, motion to strike.

    Used for AI counsel's planned questions and for a person's free-text ones alike. With
    ``opponent_objects`` off (the other side is a person, who objects for themselves after the
    answer: ``object_to_last``) no AI objection or motion to strike is made for them.
    """
    if not state.on_stand:
        raise ValueError(ERROR_NOT_ON_STAND)
    question = question.strip()
    if not question:
        raise ValueError(ERROR_QUESTION_BLANK)
    stage = stage or state.stage
    witness = _witness(case, state.on_stand)
    opponent = counsel.other(side)
    key = f"{witness.id}:{side}"
    answered = state.answered.setdefault(key, [])
    words = vocabulary(case, witness)
    defendants = [d.name for d in case.defendants]
    base = {"stage": stage, "witness_id": witness.id, "part": part}
    events = [_emit(state, kind="question", speaker=counsel.side_name(side), side=side, text=question, **base)]
    cross = part == "cross"
    grounds = (
        rules.question_grounds(question, cross=cross, vocabulary=words, answered=answered, defendants=defendants)
        if opponent_objects
        else []
    )
    ground = (
        grounds[0] if grounds else ("leading" if cross and state.rng.random() < counsel.WRONG_OBJECTION_RATE else "")
    )
    if not opponent_objects:
        ground = ""
    if ground:
        ruling = rules.rule_on_question(
            ground, question, cross=cross, vocabulary=words, answered=answered, defendants=defendants
        )
        events.append(_objection(state, opponent, ground, base))
        events.append(_ruling(state, ruling, base))
        if ruling.sustained:
            return events
    said = set(state.said.setdefault(witness.id, []))
    reply = (answerer or witness_answer)(witness, question, part=part, said=said)
    hearsay = opponent_objects and rules.is_hearsay_answer(reply.text)
    strike = rules.rule_on_answer("hearsay", reply.text) if hearsay else None
    struck = bool(strike and strike.sustained)
    conceded = bool(witness.first_person) and reply.part == "cross"
    gained = (
        ""
        if struck
        else helps(
            reply.text, knows=reply.knows, part=part, side_asking=side, record_part=reply.part, conceded=conceded
        )
    )
    grounded = is_grounded(reply.text, reply.lines, witness)
    events.append(
        _emit(
            state,
            kind="answer",
            speaker=witness.name,
            side="witness",
            text=reply.text,
            struck=struck,
            helps=gained,
            grounded=grounded,
            quoted=reply.lines,
            **base,
        )
    )
    if strike is not None:
        events.append(_objection(state, opponent, "hearsay", base, strike=True))
        events.append(_ruling(state, strike, base))
    if not struck:
        answered.append(question)
        state.said[witness.id] = sorted(said | {normalise(line) for line in reply.lines})
    return events


def stopped_by_objection(
    state: TrialState, case: CaseFile, *, witness_id: str, side: str, question: str, part: str
) -> bool:
    """Would the other side's AI counsel object to this question and the judge sustain it (so the
    witness never answers)? The same rules ``ask`` applies, without drawing from the trial's
    generator: a model's answer need not be asked for a question that will not be answered."""
    if counsel.other(side) in state.people:
        return False  # a person objects for themselves, after the answer
    witness = _witness(case, witness_id)
    answered = state.answered.get(f"{witness.id}:{side}", [])
    words = vocabulary(case, witness)
    defendants = [d.name for d in case.defendants]
    cross = part == "cross"
    grounds = rules.question_grounds(question, cross=cross, vocabulary=words, answered=answered, defendants=defendants)
    if not grounds:
        return False
    ruling = rules.rule_on_question(
        grounds[0], question, cross=cross, vocabulary=words, answered=answered, defendants=defendants
    )
    return ruling.sustained


def _objection(state: TrialState, side: str, ground: str, base: dict[str, Any], *, strike: bool = False) -> TrialEvent:
    words = rules.GROUND_WORDS[ground]
    text = f"Objection: {words.lower()}" + ("; I ask that the answer be struck." if strike else ".")
    return _emit(state, kind="objection", speaker=counsel.side_name(side), side=side, text=text, ground=ground, **base)


def _ruling(state: TrialState, ruling: rules.Ruling, base: dict[str, Any]) -> TrialEvent:
    text = ruling.reason
    return _emit(
        state,
        kind="ruling",
        speaker=JUDGE,
        side="judge",
        text=text,
        ground=ruling.ground,
        sustained=ruling.sustained,
        **base,
    )


def object_to_last(state: TrialState, case: CaseFile, *, side: str, ground: str) -> list[TrialEvent]:
    """A person's objection to the other side's last question, made after the answer came:
    the judge rules by the same rules; sustained, the answer is struck (it never reaches the jury)."""
    if ground not in rules.GROUNDS:
        raise ValueError(ERROR_GROUND_UNKNOWN.format(choices=", ".join(rules.GROUNDS)))
    asked = next((e for e in reversed(state.events) if e.kind == "question"), None)
    if asked is None or asked.side == side:
        raise ValueError(ERROR_NOTHING_TO_OBJECT)
    reply = next((e for e in state.events[asked.index + 1 :] if e.kind == "answer"), None)
    witness = _witness(case, asked.witness_id)
    key = f"{witness.id}:{asked.side}"
    earlier = list(state.answered.get(key, []))
    if asked.text in earlier:  # the question itself, once answered, is not an earlier question
        del earlier[len(earlier) - 1 - earlier[::-1].index(asked.text)]
    if ground == "hearsay" and reply is not None and rules.is_hearsay_answer(reply.text):
        ruling = rules.rule_on_answer(ground, reply.text)
    else:
        ruling = rules.rule_on_question(
            ground,
            asked.text,
            cross=asked.part == "cross",
            vocabulary=vocabulary(case, witness),
            answered=earlier,
            defendants=[d.name for d in case.defendants],
        )
    base = {"stage": asked.stage, "witness_id": asked.witness_id, "part": asked.part}
    events = [_objection(state, side, ground, base, strike=reply is not None), _ruling(state, ruling, base)]
    if ruling.sustained and reply is not None and not reply.struck:
        state.events[reply.index] = replace(reply, struck=True, helps="")
        if asked.text in state.answered.get(key, []):
            state.answered[key].remove(asked.text)
    return events


def skip_answered(state: TrialState, *, side: str = "") -> None:
    """Pass over planned questions whose record line the witness has already given in an answer that
    stands (a person's own question, or an open one, drew it out first): asking it again only gets
    "As I said". With
    ``side``, only that side's questions of the examination under way."""
    first = state.plan[state.cursor] if not state.finished else None
    given = {
        (e.witness_id, normalise(line))
        for e in state.events
        if e.kind == "answer" and not e.struck
        for line in e.quoted
    }  # a struck answer was never given: counsel may put its question again, properly
    while not state.finished:
        item = state.plan[state.cursor]
        line = item.get("line") if item["kind"] == "question" else None
        if not line or (item["witness"], normalise(line)) not in given:
            return
        if side and first and (item["side"], item["witness"], item["part"]) != (side, first["witness"], first["part"]):
            return
        state.cursor += 1


def step(state: TrialState, case: CaseFile, answerer: Answerer | None = None) -> list[TrialEvent]:
    """Play the next step of the plan and return what was said (nothing once the trial is over)."""
    if state.finished:
        return []
    item = state.plan[state.cursor]
    state.cursor += 1
    kind, side, stage = item["kind"], item["side"], item["stage"]
    if kind == "opening":
        text = counsel.opening(case, side, witnesses_for(case, side))
        return [_emit(state, stage=stage, kind="speech", speaker=counsel.side_name(side), side=side, text=text)]
    if kind == "call":
        witness = _witness(case, item["witness"])
        state.on_stand = witness.id
        text = counsel.call_words(side, witness)
        return [
            _emit(
                state,
                stage=stage,
                kind="call",
                speaker=counsel.side_name(side),
                side=side,
                text=text,
                witness_id=witness.id,
            )
        ]
    if kind == "question":
        state.on_stand = item["witness"]
        return ask(state, case, side=side, question=item["question"], part=item["part"], stage=stage, answerer=answerer)
    state.on_stand = ""
    if kind == "closing":
        text = counsel.closing(side, *_quotes(state, case, side))
        return [_emit(state, stage=stage, kind="speech", speaker=counsel.side_name(side), side=side, text=text)]
    struck = sum(1 for e in state.events if e.struck)
    return [
        _emit(state, stage=stage, kind="directions", speaker=JUDGE, side="judge", text=counsel.directions(case, struck))
    ]


def _quotes(
    state: TrialState, case: CaseFile, side: str
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """What this side's closing may quote: answers that helped it in chief and in cross, and the
    questions of its cross-examination a witness could not answer (with the question asked)."""
    names = {w.id: w.name for w in case.witnesses}
    mine, exposed, unanswered = [], [], []
    asked = ""
    for event in state.events:
        if event.kind == "question":
            asked = event.text
        if event.kind != "answer" or event.struck or event.helps != side:
            continue
        if event.text in NO_KNOWLEDGE:
            if event.part == "cross":
                unanswered.append((names[event.witness_id], asked))
        elif event.part == "chief":
            mine.append((names[event.witness_id], event.text))
        else:
            exposed.append((names[event.witness_id], event.text))
    return mine, exposed, unanswered


def run_trial(
    case: CaseFile, *, seed: int, max_witnesses: int = MAX_WITNESSES_PER_SIDE, answerer: Answerer | None = None
) -> TrialState:
    """The whole trial with AI counsel on both sides."""
    state = new_trial(case, seed=seed, max_witnesses=max_witnesses)
    while not state.finished:
        step(state, case, answerer)
    return state


def admitted(events: list[TrialEvent]) -> list[TrialEvent]:
    """The answers the jury may use: every answer not struck out."""
    return [e for e in events if e.kind == "answer" and not e.struck]


def stood_in(event: TrialEvent) -> bool:
    """A move AI counsel made for a person's side, in their own name (``counsel.stand_in_name``)."""
    return event.speaker in counsel.STAND_IN_NAMES.values()


def score_counsel(
    events: list[TrialEvent], *, own_only: bool = False, since: Mapping[str, int] | None = None
) -> dict[str, dict[str, int]]:
    """Each side's record at the trial (not a win or a loss): see TRIAL.md for what counts.

    ``own_only``: the record of the counsel who held the side, as the debrief shows it beside her
    name: a question AI counsel asked in her stead (``stood_in``), and what came of it (its answer,
    a sustained objection to it), is not hers; nor is a move AI counsel made for the side before she
    claimed it (``since``: the index of each side's first event after the claim)."""
    score = {side: dict.fromkeys(SCORE_KEYS, 0) for side in ("prosecution", "defense")}
    last_question: TrialEvent | None = None
    since = since or {}

    def theirs(event: TrialEvent | None) -> bool:
        if not own_only or event is None:
            return True
        return not stood_in(event) and event.index >= int(since.get(event.side, 0))

    for event in events:
        if event.kind == "question":
            last_question = event
            if theirs(event):
                score[event.side]["questions"] += 1
        elif event.kind == "objection":
            if theirs(event):
                score[event.side]["objections"] += 1
        elif event.kind == "ruling" and event.sustained is not None:
            objector = next(e for e in reversed(events[: event.index]) if e.kind == "objection")
            if event.sustained:
                if theirs(objector):
                    score[objector.side]["objections_sustained"] += 1
                if theirs(last_question) or last_question is None or last_question.side == objector.side:
                    score[counsel.other(objector.side)]["sustained_against"] += 1
        elif event.kind == "answer" and last_question is not None:
            asker = last_question.side
            asked = theirs(last_question)
            if not event.struck and asked:
                score[asker]["questions_allowed"] += 1
            if event.helps and (asked or event.helps != asker):
                score[event.helps]["answers_helped"] += 1
            if event.part == "cross" and event.helps == asker and asked:
                score[asker]["points_exposed_in_cross"] += 1
    return score


SCORE_KEYS = (
    "questions",
    "questions_allowed",
    "objections",
    "objections_sustained",
    "sustained_against",
    "points_exposed_in_cross",
    "answers_helped",
)


def groundedness(events: list[TrialEvent]) -> float:
    """The share of the witnesses' answers from the record that are grounded: a non-answer ("I
    couldn't say") quotes no line and is counted apart (``non_answers``), not as a grounded answer."""
    answers = [e for e in events if e.kind == "answer" and not is_non_answer(e.text)]
    return sum(1 for e in answers if e.grounded) / len(answers) if answers else 1.0


def non_answers(events: list[TrialEvent]) -> int:
    """How many times a witness said "I couldn't say" or "I didn't see that"."""
    return sum(1 for e in events if e.kind == "answer" and is_non_answer(e.text))
