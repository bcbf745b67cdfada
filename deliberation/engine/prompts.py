"""Chat messages for a juror's (or a participant's) speech. Pure Python, no Django.

Every speaking prompt follows the per-speaker perspective: one system message, then the remembered
turns, where the speaker's own statements are ``assistant`` and everyone else's are ``user``,
merged so that roles alternate and the conversation starts and ends with ``user``. The juror's
private state (conviction in words, reasoning, doubts, the opinions they do hold, looked-up
passages, the tally) rides in the last ``user`` message beside the task.

The system message puts what never changes first, for providers' prompt caches: the room's rules
and the answer format (the same for every juror of every case), then the case index (the same for
every juror of the case), then the persona. Nothing is sent twice: the format is in the system
message only, and looked-up passages skip what the index already says.

Prompt size stays flat as a deliberation grows: only the memory window (within a character budget),
the rolling summary and bounded slices of the reasoning state go in, each cut to a fixed length.
The reaction and summary prompts live in ``deliberation.engine.room_prompts``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deliberation.engine.formats import UNCAPPED
from deliberation.engine.ports import CraftRequest, HeardTurn, Impression, JurorOutlook, Message, SpeakRequest
from deliberation.engine.prompt_words import (
    TURN_CHARS,
    clip,
    conviction_to_text,
    doubt_ref,
    format_case_index,
    format_heard_turn,
    format_passages,
    has_opinion,
    item_ids,
    item_ref,
    seat_label,
    short_name,
    stance_to_text,
    trust_to_text,
)
from deliberation.engine.room_prompts import build_react_messages, build_summarize_messages
from deliberation.engine.strategies import item_label
from deliberation.engine.types import ARGUMENT_TYPES, CaseFile, JurorProfile

__all__ = [  # the prompt builders the minds use, whichever module holds them
    "build_craft_messages",
    "build_react_messages",
    "build_speak_messages",
    "build_summarize_messages",
    "clip",
    "conviction_to_text",
]

# Fixed caps keep every prompt's size independent of the deliberation's length.
MAX_CHAIN = 1
MAX_DOUBTS = 2
CHAIN_CHARS = 90
DOUBT_CHARS = 48
MAX_SUMMARY_CHARS = 220
MAX_TURN_CHARS = TURN_CHARS
GIST_CHARS = 80  # an older turn that no longer fits whole is kept as its opening words
HISTORY_CHARS = 400  # the remembered turns together, newest first: a ceiling however verbose the room
MAX_WINDOW = 4  # turns, whatever a persona's memory window says
MAX_MEMORY_ITEMS = 2  # of the juror's own impressions and points made shown to a model
MAX_MOMENTS_SHOWN = 1  # ... and of its key moments

STRATEGY_HINTS: dict[str, str] = {
    "challenge_evidence": "Point out the weaknesses of one specific piece of evidence.",
    "question_witness": "Raise doubts about one witness's reliability.",
    "reasonable_doubt": "Remind the room that guilt must be proved beyond reasonable doubt, and show where it is not.",
    "alternative_theory": "Suggest, from the case file, what else might really have happened.",
    "address_juror": "Answer and try to persuade one juror in particular, by name.",
    "free_argument": "Make the player's own argument, in their words.",
}

OUTPUT_FORMAT = """Answer only in this format:
<SpeakingTo>a juror's name, or everyone</SpeakingTo>
<ArgumentType>{types}</ArgumentType>
<Position>GUILTY or NOT GUILTY</Position>
<Reasoning>one private sentence: why you hold it now</Reasoning>
<Cites>ids, or none</Cites>
<Withdrawn>true only if you have nothing new to add (you still vote)</Withdrawn>
<Content>what you say aloud</Content>""".format(types="|".join(ARGUMENT_TYPES))

ROOM_RULES = """You are one of twelve jurors deliberating a criminal case until you agree. Speak only for yourself,
in the first person, as in a jury room; never narrate. Rely only on the case and this room; name evidence
and witnesses by id. Guilty means proved beyond reasonable doubt."""

TASK_LINE = "Say something new, in the format above."
CONTRADICTION_HINT = "You noticed (round {round}): {text}. You may point it out."


# What each archetype does in the room, beyond how it is moved (the offline engine acts the same).
ARCHETYPE_BEHAVIOUR: dict[str, str] = {
    "contrarian": (
        "When nine or more jurors agree, play devil's advocate: argue the other side, whatever your own vote,"
        " and say that is what you are doing."
    ),
    "conformist": (
        "Echo the juror who last persuaded you, by name, or else go along with the majority; you rarely start"
        " an argument of your own."
    ),
    "impatient": "From the second round on, press the foreperson to call the vote, in so many words.",
    "wildcard": (
        "Now and then change your mind for reasons of your own, from something nobody else has dwelt on;"
        " when you do, say so and give your new position."
    ),
}


def format_persona(juror: JurorProfile) -> str:
    """The individual layer: who this juror is and how they argue."""
    lines = [f"# WHO YOU ARE\nYou are {juror.name}, Juror {juror.seat}. Archetype: {juror.archetype}."]
    if juror.personality:
        lines.append(juror.personality.strip())
    if juror.archetype in ARCHETYPE_BEHAVIOUR:
        lines.append(ARCHETYPE_BEHAVIOUR[juror.archetype])
    if juror.modifiers:
        ranked = sorted(juror.modifiers.items(), key=lambda pair: pair[1], reverse=True)
        lines.append(
            f"{ranked[0][0].capitalize()} arguments move you most, {ranked[-1][0]} ones least; you argue so too."
        )
    if juror.stubbornness >= 0.7:
        lines.append("You do not change your mind easily.")
    elif juror.stubbornness <= 0.3:
        lines.append("You are open to being persuaded.")
    if juror.verbosity >= 0.7:
        lines.append("You speak at some length: four to six sentences.")
    elif juror.verbosity <= 0.3:
        lines.append("You are terse: one or two sentences.")
    else:
        lines.append("You speak briefly: two to four sentences.")
    return "\n".join(lines)


def system_message(case: CaseFile, persona: str) -> Message:
    """Stable first (rules, format, case index: shared by every juror), the persona last."""
    return {"role": "system", "content": f"{ROOM_RULES}\n\n{OUTPUT_FORMAT}\n\n{format_case_index(case)}\n\n{persona}"}


def format_own_turn(turn: HeardTurn, jury: Sequence[JurorProfile], limit: int = MAX_TURN_CHARS) -> str:
    """The speaker's own past statement, in the answer format it would have used."""
    target = short_name(turn.target_seat, jury) if turn.target_seat is not None else "everyone"
    return f"<SpeakingTo>{target}</SpeakingTo>\n<Content>{clip(turn.content, limit)}</Content>"


def merge_alternating(messages: Iterable[Message]) -> list[Message]:
    """Join consecutive messages of one role so roles alternate, as some providers require."""
    merged: list[Message] = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"]:
            merged[-1] = {"role": message["role"], "content": merged[-1]["content"] + "\n\n" + message["content"]}
        else:
            merged.append(dict(message))
    return merged


def fit_history(
    turns: Sequence[HeardTurn], budget: int = HISTORY_CHARS, window: int = MAX_WINDOW
) -> list[tuple[HeardTurn, int]]:
    """The turns that fit the history budget, each with its length limit, oldest first.

    The newest turns go in whole; once the budget runs short, older ones shrink to their opening
    words and then drop out (the rolling summary covers what came before). This bounds the
    prompt even when a model's jurors are far more verbose than the offline engine's.
    """
    kept: list[tuple[HeardTurn, int]] = []
    for turn in reversed(turns[-window:] if window > 0 else ()):
        whole = min(len(turn.content), MAX_TURN_CHARS)
        if whole <= budget or not kept:
            limit = MAX_TURN_CHARS
        elif min(whole, GIST_CHARS) <= budget:
            limit = GIST_CHARS
        else:
            break
        kept.append((turn, limit))
        budget -= min(whole, limit)
    return kept[::-1]


def perspective_messages(
    *,
    seat: int,
    turns: Sequence[HeardTurn],
    jury: Sequence[JurorProfile],
    opening: str,
    closing: str,
    uncapped: bool = False,
) -> list[Message]:
    """The conversation from one seat's point of view: own turns ``assistant``, the rest ``user``.

    ``opening`` starts the conversation as ``user`` (so a speaker who spoke first still gets a
    user turn before their own); ``closing`` is the last ``user`` message, the task. ``uncapped``
    (the full-log and last-n scopes) lets every turn in whole, past the window's budget.
    """
    raw: list[Message] = [{"role": "user", "content": opening}]
    fitted = [(turn, MAX_TURN_CHARS) for turn in turns] if uncapped else fit_history(turns)
    said = 0  # the round the last heard turn named: the next ones of that round need not name it again
    for turn, limit in fitted:
        if turn.seat == seat and turn.kind == "speech":
            raw.append({"role": "assistant", "content": format_own_turn(turn, jury, limit)})
        else:
            heard = format_heard_turn(turn, jury, limit, marked=turn.round_number != said)
            raw.append({"role": "user", "content": heard})
            said = turn.round_number
    raw.append({"role": "user", "content": closing})
    return merge_alternating(raw)


def format_opening(round_number: int, summary: str, *, has_turns: bool) -> str:
    opening = f"Round {round_number}."
    if summary:
        opening += f" Earlier, in brief:\n{clip(summary, MAX_SUMMARY_CHARS)}"
    if not has_turns:
        return opening + "\nNobody has spoken yet in this part of the deliberation."
    return opening + ("\nThen:" if summary else " The room so far:")


def format_tally(tally: dict[str, int]) -> str:
    return f"Tally: guilty {tally.get('guilty', 0)}, not guilty {tally.get('not_guilty', 0)}."


def format_outlook(
    outlook: JurorOutlook, jury: Sequence[JurorProfile], seat: int, ids: dict[str, str], answered: int | None = None
) -> str:
    """The juror's reasoning state (memory layer 3), in words and in bounded slices.

    Only the jurors this one has a feeling about are named: "no strong feeling" is left unsaid.
    Items of the case go by their index id (``ids``, from ``item_ids``). ``answered`` is the seat
    the task asks this juror to answer: its counter-point rides in the task, not here too.
    """
    chain = [clip(step, CHAIN_CHARS) for step in outlook.reasoning_chain[-MAX_CHAIN:]]
    doubts = [doubt_ref(doubt, ids, DOUBT_CHARS) for doubt in outlook.doubts[:MAX_DOUBTS]]
    lines = [f"# YOU (private): you vote {stance_to_text(outlook.vote, outlook.conviction)}."]
    if chain:
        lines.append("Your reasoning: " + " ".join(chain))
    if doubts:
        lines.append("Your doubts: " + "; ".join(doubts))
    opinions = [
        f"{short_name(other, jury)}: {trust_to_text(trust)}"
        for other, trust in sorted(outlook.opinions.items())
        if other != seat and has_opinion(trust)
    ]
    if opinions:
        lines.append("Of the others: " + "; ".join(opinions) + ".")
    lines.extend(format_memory(outlook, ids, answered))
    return "\n".join(lines)


def format_memory(outlook: JurorOutlook, ids: dict[str, str], answered: int | None = None) -> list[str]:
    """Memory layers 2 and 3 for this juror alone, the newest few of each: how the arguments struck
    them, what they mean to answer, the moments they flagged and what they have argued already."""
    lines: list[str] = []
    side = {"guilty": "guilty", "not_guilty": "not guilty"}
    struck = []
    for i in outlook.impressions[-MAX_MEMORY_ITEMS:]:
        moved = f"moved you towards {'guilty' if i.delta > 0 else 'not guilty'}"
        if i.persuaded or abs(i.delta) < 0.03:
            moved = "persuaded you" if i.persuaded else "moved you little"
        about = f", {item_ref(i.label, ids)}" if i.label else ""
        struck.append(f"{i.speaker_name} ({side.get(i.position, i.position)}{about}) {moved}")
    if struck:
        lines.append("Heard lately: " + "; ".join(struck) + ".")
    if outlook.counterpoints and outlook.counterpoints[-1].seat != answered:
        lines.append("Yet to answer, by name: " + counterpoint(outlook.counterpoints[-1], ids))
    if outlook.key_moments:
        moments = outlook.key_moments[-MAX_MOMENTS_SHOWN:]
        lines.append("You remember: " + "; ".join(f"round {m.round_number}, {m.text}" for m in moments) + ".")
        caught = [m for m in outlook.key_moments if m.kind == "contradiction"]
        if caught and caught[-1] not in moments:  # reflection: a contradiction is worth saying aloud
            lines.append(CONTRADICTION_HINT.format(text=caught[-1].text, round=caught[-1].round_number))
    if outlook.points_made:
        made = [item_ref(label, ids) for label in outlook.points_made[-MAX_MEMORY_ITEMS:]]
        lines.append("You argued already (do not repeat): " + "; ".join(made) + ".")
    return lines


def counterpoint(point: Impression, ids: dict[str, str]) -> str:
    about = f", {item_ref(point.label, ids)}" if point.label else ""
    return f"{point.speaker_name}{about}: {clip(point.thought, 80)}"


def answer_target(turns: Sequence[HeardTurn], seat: int, answering: int | None) -> tuple[int | None, bool]:
    """Whom to answer: the juror the round's plan chose, else the last one who spoke (``True``)."""
    if answering is not None and answering != seat:
        return answering, False
    for turn in reversed(turns):
        if turn.kind == "speech" and turn.seat != seat:
            return turn.seat, True
    return None, False


def answer_hint(
    target: int | None, last: bool, outlook: JurorOutlook, jury: Sequence[JurorProfile], ids: dict[str, str]
) -> str:
    """The task's nudge to answer ``target``, with what this juror thought of their point when it means to answer it."""
    if target is None:
        return ""
    who = seat_label(target, jury) + (", the last to speak" if last else "")
    meant = ""
    if outlook.counterpoints and (point := outlook.counterpoints[-1]).seat == target:
        on = f" on {item_ref(point.label, ids)}" if point.label else ""
        meant = f";{on} you thought: {clip(point.thought, 80).rstrip('.')}"
    return f" You may answer {who}{meant}."


def window_of(recent: Sequence[HeardTurn], memory_window: int) -> tuple[HeardTurn, ...]:
    return tuple(recent[-memory_window:]) if memory_window > 0 else ()


def build_speak_messages(request: SpeakRequest) -> list[Message]:
    """The speaker's prompt: the rules, the case index and their persona, the room from their seat, the task."""
    juror = request.juror
    uncapped = request.context_scope in UNCAPPED  # the engine already cut ``recent`` to the scope
    window = tuple(request.recent) if uncapped else window_of(request.recent, juror.memory_window)
    ids = item_ids(request.case)
    target, last = answer_target(window, juror.seat, request.answering)
    hint = answer_hint(target, last, request.outlook, request.jury, ids)
    task = f"# YOUR TURN, {juror.name}.{hint} {TASK_LINE}"
    closing = "\n\n".join(
        part
        for part in (
            format_tally(request.tally),
            format_outlook(request.outlook, request.jury, juror.seat, ids, target),
            format_passages(request.passages, request.case),
            task,
        )
        if part
    )
    return [
        system_message(request.case, format_persona(juror)),
        *perspective_messages(
            seat=juror.seat,
            turns=window,
            jury=request.jury,
            opening=format_opening(request.round_number, request.outlook.summary, has_turns=bool(window)),
            closing=closing,
            uncapped=uncapped,
        ),
    ]


def build_craft_messages(request: CraftRequest) -> list[Message]:
    """The player's argument, written in their seat from a strategy, a target and their own words."""
    player = request.player
    window = window_of(request.recent, player.memory_window)
    verdict = "NOT GUILTY" if request.side == "defend" else "GUILTY"
    persona = (
        f"# WHO YOU ARE\nYou are {player.name}, Juror {player.seat}, and you argue for {verdict}."
        " You speak plainly and persuasively: three to five sentences."
    )
    task = ["# YOUR TURN. " + STRATEGY_HINTS.get(request.strategy, STRATEGY_HINTS["free_argument"])]
    if request.target_seat is not None:
        task.append(f"Address {seat_label(request.target_seat, request.jury)} directly.")
    picked = item_label(request.case, request.item_id)
    if picked:
        task.append(f"Argue about this item of the case file, and name it: {clip(picked, 200)}.")
    if request.free_text.strip():
        task.append(
            "The player says these words themselves right after yours; lead into them, do not repeat "
            f"or reword them: {clip(request.free_text, 400)}"
        )
    task.append(f"Your <Position> is {verdict}; answer in the format above.")
    closing = "\n\n".join(
        part
        for part in (format_tally(request.tally), format_passages(request.passages, request.case), "\n".join(task))
        if part
    )
    return [
        system_message(request.case, persona),
        *perspective_messages(
            seat=player.seat,
            turns=window,
            jury=request.jury,
            opening=format_opening(request.round_number, "", has_turns=bool(window)),
            closing=closing,
        ),
    ]
