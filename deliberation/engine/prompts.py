"""Chat messages for a model, built from the mind port's requests. Pure Python, no Django.

Every speaking prompt follows the per-speaker perspective: one system message (the shared
layer, the room's rules and the case file, then the individual layer, the persona), then the
remembered turns, where the speaker's own statements are ``assistant`` and everyone else's are
``user``, merged so that roles alternate and the conversation starts and ends with ``user``.
The juror's private state (conviction in words, reasoning, doubts, opinions, looked-up passages,
the tally) rides in the last ``user`` message beside the task.

Prompt size stays flat as a deliberation grows: only the memory window, the rolling summary and
bounded slices of the reasoning state go in, each cut to a fixed length. The case file carries no
historical verdict or punishment, and nothing here reads any field that is not named explicitly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deliberation.engine.ports import (
    CraftRequest,
    HeardTurn,
    JurorOutlook,
    Listener,
    Message,
    ReactRequest,
    SpeakRequest,
    SummarizeRequest,
)
from deliberation.engine.strategies import item_label
from deliberation.engine.types import ARGUMENT_TYPES, CaseFile, JurorProfile, Passage, Speech

# Fixed caps keep every prompt's size independent of the deliberation's length.
MAX_CHAIN = 3
MAX_DOUBTS = 3
MAX_PASSAGES = 4
MAX_ITEM_CHARS = 400
MAX_SUMMARY_CHARS = 1000
MAX_CASE_SUMMARY_CHARS = 2000
MAX_TURN_CHARS = 700
GIST_CHARS = 200  # an older turn that no longer fits whole is kept as its opening words
HISTORY_CHARS = 2800  # the remembered turns together, newest first: a ceiling however verbose the room
MAX_FOLD_TURNS = 40
MAX_MEMORY_ITEMS = 3  # of the juror's own impressions and points made shown to a model
MAX_MOMENTS_SHOWN = 2  # ... and of its key moments
MAX_LABEL_CHARS = 40

STRATEGY_HINTS: dict[str, str] = {
    "challenge_evidence": "Point out the weaknesses of one specific piece of evidence.",
    "question_witness": "Raise doubts about one witness's reliability.",
    "reasonable_doubt": "Remind the room that guilt must be proved beyond reasonable doubt, and show where it is not.",
    "alternative_theory": "Suggest, from the case file, what else might really have happened.",
    "address_juror": "Answer and try to persuade one juror in particular, by name.",
    "free_argument": "Make the player's own argument, in their words.",
}

OUTPUT_FORMAT = """Answer in exactly this format, with nothing before or after it:
<SpeakingTo>the juror you address, by name, or everyone</SpeakingTo>
<ArgumentType>one of: {types}</ArgumentType>
<Position>GUILTY or NOT GUILTY</Position>
<Reasoning>one sentence, private: why you hold this position now</Reasoning>
<Cites>ids of the evidence or witnesses you rely on, comma separated, or none</Cites>
<Content>what you say aloud to the room</Content>""".format(types=", ".join(ARGUMENT_TYPES))

ROOM_RULES = """You are a juror in a criminal trial, in the jury room. Twelve jurors deliberate until they agree.
Rules of the room:
- Speak in your own voice, in the first person, as people speak in a jury room.
- Ground what you say in the case file below: name the evidence or the witness you rely on.
- Judge only from the case file and from what is said in this room.
- Answer the juror you are replying to by name, or speak to the whole room.
- Guilty means proved beyond reasonable doubt; the burden of proof is on the prosecution.
- Never speak for another juror and never narrate; say only your own words."""


def clip(text: str, limit: int) -> str:
    """Tidy spacing (keeping line breaks) and cut to ``limit`` characters at a word boundary."""
    text = "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " …"


def conviction_to_text(conviction: float) -> str:
    """The juror's conviction in words: numbers invite false precision in a model's answer."""
    bands = (
        (0.15, "certain that the defendant is not guilty"),
        (0.30, "fairly sure that the defendant is not guilty"),
        (0.40, "leaning towards not guilty"),
        (0.60, "torn, on the fence"),
        (0.70, "leaning towards guilty"),
        (0.85, "fairly sure that the defendant is guilty"),
    )
    for upper, words in bands:
        if conviction < upper:
            return words
    return "certain that the defendant is guilty"


def trust_to_text(trust: float) -> str:
    if trust > 0.5:
        return "you trust them a great deal"
    if trust > 0.15:
        return "you tend to trust them"
    if trust >= -0.15:
        return "no strong feeling"
    if trust >= -0.5:
        return "you are wary of them"
    return "you distrust them"


def vote_to_text(vote: str | None) -> str:
    return {"guilty": "GUILTY", "not_guilty": "NOT GUILTY"}.get(vote or "", "undecided")


def seat_label(seat: int, jury: Sequence[JurorProfile]) -> str:
    for juror in jury:
        if juror.seat == seat:
            return f"{juror.name} (Juror {seat})"
    return f"Juror {seat}"


def format_case(case: CaseFile) -> str:
    """The case file as the jury may know it: named fields only, never a verdict or sentence."""
    lines = [f"# THE CASE: {case.title}"]
    place = ", ".join(part for part in (case.jurisdiction, str(case.year) if case.year else "") if part)
    if place:
        lines.append(f"Tried in {place}.")
    if case.charges:
        lines.append("Charges: " + "; ".join(case.charges))
    for defendant in case.defendants:
        details = ", ".join(
            part for part in (defendant.gender, f"age {defendant.age}" if defendant.age else "") if part
        )
        described = f": {clip(defendant.description, MAX_ITEM_CHARS)}" if defendant.description else ""
        lines.append(f"Defendant: {defendant.name} ({details}){described}")
    lines.append("")
    lines.append(clip(case.summary, MAX_CASE_SUMMARY_CHARS))
    if case.evidence:
        lines.append("\n# EVIDENCE")
        for item in case.evidence:
            line = f"[{item.id}] {item.label} ({item.type}): {clip(item.description, MAX_ITEM_CHARS)}"
            if item.contestable and item.contest_reason:
                line += f" Contested: {clip(item.contest_reason, MAX_ITEM_CHARS)}"
            lines.append(line)
    if case.witnesses:
        lines.append("\n# WITNESSES")
        for witness in case.witnesses:
            said = clip(witness.testimony, MAX_ITEM_CHARS)
            line = f"[{witness.id}] {witness.name}, {witness.role} ({witness.side}): {said}"
            if witness.credibility_issues:
                line += " Credibility issues: " + "; ".join(witness.credibility_issues)
            lines.append(line)
    if case.prosecution_arguments:
        lines.append("\n# THE PROSECUTION ARGUED")
        lines.extend(f"- {clip(argument, MAX_ITEM_CHARS)}" for argument in case.prosecution_arguments)
    if case.defense_arguments:
        lines.append("\n# THE DEFENCE ARGUED")
        lines.extend(f"- {clip(argument, MAX_ITEM_CHARS)}" for argument in case.defense_arguments)
    return "\n".join(lines)


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
            f"You are moved most by {ranked[0][0]} arguments and least by {ranked[-1][0]} ones; you argue the same way."
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
    return {"role": "system", "content": f"{ROOM_RULES}\n\n{OUTPUT_FORMAT}\n\n{format_case(case)}\n\n{persona}"}


def format_own_turn(turn: HeardTurn, jury: Sequence[JurorProfile], limit: int = MAX_TURN_CHARS) -> str:
    """The speaker's own past statement, in the answer format it would have used."""
    target = seat_label(turn.target_seat, jury) if turn.target_seat is not None else "everyone"
    kind = f"<ArgumentType>{turn.argument_type}</ArgumentType>\n" if turn.argument_type else ""
    return f"<SpeakingTo>{target}</SpeakingTo>\n{kind}<Content>{clip(turn.content, limit)}</Content>"


def format_heard_turn(turn: HeardTurn, jury: Sequence[JurorProfile], limit: int = MAX_TURN_CHARS) -> str:
    """Someone else's statement as the speaker heard it."""
    if turn.kind == "process":
        who = turn.speaker_name or "The foreperson"
    elif turn.kind == "judge":
        who = turn.speaker_name or "The judge"
    else:
        who = seat_label(turn.seat, jury) if turn.seat else turn.speaker_name
        if turn.target_seat is not None:
            who += f", to {seat_label(turn.target_seat, jury)}"
    return f"[round {turn.round_number}] {who}: {clip(turn.content, limit)}"


def merge_alternating(messages: Iterable[Message]) -> list[Message]:
    """Join consecutive messages of one role so roles alternate, as some providers require."""
    merged: list[Message] = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"]:
            merged[-1] = {"role": message["role"], "content": merged[-1]["content"] + "\n\n" + message["content"]}
        else:
            merged.append(dict(message))
    return merged


def fit_history(turns: Sequence[HeardTurn], budget: int = HISTORY_CHARS) -> list[tuple[HeardTurn, int]]:
    """The turns that fit the history budget, each with its length limit, oldest first.

    The newest turns go in whole; once the budget runs short, older ones shrink to their opening
    words and then drop out (the rolling summary covers what came before). This bounds the
    prompt even when a model's jurors are far more verbose than the offline engine's.
    """
    kept: list[tuple[HeardTurn, int]] = []
    for turn in reversed(turns):
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
    *, seat: int, turns: Sequence[HeardTurn], jury: Sequence[JurorProfile], opening: str, closing: str
) -> list[Message]:
    """The conversation from one seat's point of view: own turns ``assistant``, the rest ``user``.

    ``opening`` starts the conversation as ``user`` (so a speaker who spoke first still gets a
    user turn before their own); ``closing`` is the last ``user`` message, the task.
    """
    raw: list[Message] = [{"role": "user", "content": opening}]
    for turn, limit in fit_history(turns):
        if turn.seat == seat and turn.kind == "speech":
            raw.append({"role": "assistant", "content": format_own_turn(turn, jury, limit)})
        else:
            raw.append({"role": "user", "content": format_heard_turn(turn, jury, limit)})
    raw.append({"role": "user", "content": closing})
    return merge_alternating(raw)


def format_opening(round_number: int, summary: str, *, has_turns: bool) -> str:
    opening = f"Deliberation, round {round_number}."
    if summary:
        opening += f" What was said earlier, in brief:\n{clip(summary, MAX_SUMMARY_CHARS)}"
    if not has_turns:
        return opening + "\nNobody has spoken yet in this part of the deliberation."
    return opening + ("\nThen:" if summary else " The jury room so far:")


def format_passages(passages: Sequence[Passage]) -> str:
    if not passages:
        return ""
    lines = ["# FROM THE CASE FILE (looked up for you)"]
    lines.extend(f"[{p.item_id}] {p.label}: {clip(p.text, MAX_ITEM_CHARS)}" for p in passages[:MAX_PASSAGES])
    return "\n".join(lines)


def format_tally(tally: dict[str, int]) -> str:
    return f"Current vote tally: guilty {tally.get('guilty', 0)}, not guilty {tally.get('not_guilty', 0)}."


def format_outlook(outlook: JurorOutlook, jury: Sequence[JurorProfile], seat: int) -> str:
    """The juror's reasoning state (memory layer 3), in words and in bounded slices."""
    chain = [clip(step, MAX_ITEM_CHARS) for step in outlook.reasoning_chain[-MAX_CHAIN:]]
    doubts = [clip(doubt, MAX_ITEM_CHARS) for doubt in outlook.doubts[:MAX_DOUBTS]]
    lines = [
        "# YOUR CURRENT POSITION (private)",
        f"You vote {vote_to_text(outlook.vote)}; you are {conviction_to_text(outlook.conviction)}.",
        "Your reasoning so far: " + (" ".join(chain) if chain else "not yet settled."),
        "Your doubts: " + ("; ".join(doubts) if doubts else "none at the moment."),
    ]
    opinions = [
        f"- {seat_label(other, jury)}: {trust_to_text(trust)}"
        for other, trust in sorted(outlook.opinions.items())
        if other != seat
    ]
    if opinions:
        lines.append("What you think of the others:")
        lines.extend(opinions)
    lines.extend(format_memory(outlook))
    return "\n".join(lines)


def format_memory(outlook: JurorOutlook) -> list[str]:
    """Memory layers 2 and 3 for this juror alone: how the arguments struck them, what they mean to
    answer, the moments they flagged and what they have argued already (the newest few of each)."""
    lines: list[str] = []
    side = {"guilty": "guilty", "not_guilty": "not guilty"}
    if outlook.impressions:
        lines.append("How the arguments you heard struck you:")
        for i in outlook.impressions[-MAX_MEMORY_ITEMS:]:
            moved = f"moved you towards {'guilty' if i.delta > 0 else 'not guilty'}"
            if i.persuaded or abs(i.delta) < 0.03:
                moved = "persuaded you" if i.persuaded else "moved you little"
            about = f", {clip(i.label, MAX_LABEL_CHARS)}" if i.label else ""
            lines.append(f"- {i.speaker_name} ({side.get(i.position, i.position)}{about}): {moved}")
    if outlook.counterpoints:
        lines.append("Yet to answer (answer one, by name):")
        lines.extend(
            f"- {c.speaker_name}{f', {clip(c.label, MAX_LABEL_CHARS)}' if c.label else ''}: {clip(c.thought, 80)}"
            for c in outlook.counterpoints[-2:]
        )
    if outlook.key_moments:
        moments = outlook.key_moments[-MAX_MOMENTS_SHOWN:]
        lines.append("Moments you remember: " + "; ".join(f"round {m.round_number}, {m.text}" for m in moments) + ".")
    if outlook.points_made:
        made = [clip(label, MAX_LABEL_CHARS) for label in outlook.points_made[-MAX_MEMORY_ITEMS:]]
        lines.append("Points you made already (do not repeat): " + "; ".join(made) + ".")
    return lines


def last_speaker_hint(turns: Sequence[HeardTurn], seat: int, jury: Sequence[JurorProfile]) -> str:
    for turn in reversed(turns):
        if turn.kind == "speech" and turn.seat != seat:
            who = seat_label(turn.seat, jury)
            return f" The last juror to speak was {who}; answer them if you have something to say to them."
    return ""


def build_speak_messages(request: SpeakRequest) -> list[Message]:
    """The speaker's prompt: their persona, the case, the room from their seat, and the task."""
    juror = request.juror
    window = request.recent[-juror.memory_window :] if juror.memory_window > 0 else ()
    closing = "\n\n".join(
        part
        for part in (
            format_tally(request.tally),
            format_outlook(request.outlook, request.jury, juror.seat),
            format_passages(request.passages),
            "# YOUR TASK\nIt is your turn to speak, "
            + f"{juror.name}."
            + last_speaker_hint(window, juror.seat, request.jury)
            + " Say something new: do not repeat what you said before.\n"
            + OUTPUT_FORMAT,
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
        ),
    ]


def build_craft_messages(request: CraftRequest) -> list[Message]:
    """The player's argument, written in their seat from a strategy, a target and their own words."""
    player = request.player
    window = request.recent[-player.memory_window :] if player.memory_window > 0 else ()
    verdict = "NOT GUILTY" if request.side == "defend" else "GUILTY"
    persona = (
        f"# WHO YOU ARE\nYou are {player.name}, Juror {player.seat}, and you argue for {verdict}."
        " You speak plainly and persuasively: three to five sentences."
    )
    task = [
        "# YOUR TASK\nIt is your turn to speak. "
        + STRATEGY_HINTS.get(request.strategy, STRATEGY_HINTS["free_argument"])
    ]
    if request.target_seat is not None:
        task.append(f"Address {seat_label(request.target_seat, request.jury)} directly.")
    picked = item_label(request.case, request.item_id)
    if picked:
        task.append(f"Argue about this item of the case file, and name it: {clip(picked, MAX_ITEM_CHARS)}.")
    if request.free_text.strip():
        task.append(f"Build on the player's own words: {clip(request.free_text, MAX_ITEM_CHARS)}")
    task.append(f"Your <Position> is {verdict}.\n{OUTPUT_FORMAT}")
    closing = "\n\n".join(
        part for part in (format_tally(request.tally), format_passages(request.passages), "\n".join(task)) if part
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


REACT_FORMAT = """Answer with one JSON object and nothing else. One key per juror ("juror_<seat>"),
whose value is a list with one entry per speech, in order:
{"juror_3": [{"speech": 1, "impact": 0.2, "thought": "ten words at most", "persuaded": false}], ...}
impact runs from -1 (moves them strongly towards NOT GUILTY) through 0 (unmoved) to +1 (strongly towards GUILTY).
persuaded is true only when the speech really changed their mind."""


def format_listener(listener: Listener, speakers: Sequence[int]) -> str:
    juror, outlook = listener.juror, listener.outlook
    leaning = f"votes {vote_to_text(outlook.vote)}, {conviction_to_text(outlook.conviction)}"
    line = f"juror_{juror.seat}: {juror.name}, the {juror.archetype}; {leaning}."
    if not listener.active:
        return line + " Half listening."
    if juror.personality:
        line += f" {clip(juror.personality, 200)}"
    if outlook.doubts:
        line += " Doubts: " + "; ".join(clip(doubt, 120) for doubt in outlook.doubts[:2]) + "."
    trusts = [f"{seat}: {outlook.opinions[seat]:+.1f}" for seat in speakers if seat in outlook.opinions]
    if trusts:
        line += " Trust in the speakers (by seat): " + ", ".join(trusts) + "."
    return line


def format_speech(index: int, speech: Speech) -> str:
    to = f" to Juror {speech.target_seat}" if speech.target_seat is not None else ""
    said = clip(speech.content, MAX_TURN_CHARS)
    return f'Speech {index}: {speech.speaker_name} (Juror {speech.seat}){to}, {speech.argument_type}: "{said}"'


def build_react_messages(request: ReactRequest) -> list[Message]:
    """One prompt for the whole jury's reaction to everything said this round."""
    speakers = [speech.seat for speech in request.speeches]
    case = request.case
    system = (
        "You simulate how each juror in a jury room reacts to what was just said. Judge each juror by their"
        " personality and current position, and rate how each speech moves them. You do not decide the case."
    )
    brief = f"# THE CASE: {case.title}\nCharges: {'; '.join(case.charges)}\n{clip(case.summary, 600)}"
    speeches = "\n".join(format_speech(index, speech) for index, speech in enumerate(request.speeches, start=1))
    listeners = "\n".join(format_listener(listener, speakers) for listener in request.listeners)
    user = (
        f"{brief}\n\n# ROUND {request.round_number}: WHAT WAS SAID\n{speeches}\n\n"
        f"# THE JURORS LISTENING\n{listeners}\n\n{REACT_FORMAT}"
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


SUMMARY_FORMAT = """Answer with one JSON object and nothing else:
{"summary": "3 to 5 bullet points, one per line, each starting with •",
 "jurors": {"juror_3": "one sentence: what this juror takes from it", ...}}
Focus on the key arguments, who was persuasive and any change of position. Fold the previous summary in."""


def build_summarize_messages(request: SummarizeRequest) -> list[Message]:
    """One prompt folding older turns (and the previous summary) into the jury's rolling summary."""
    jury = request.jurors
    turns = "\n".join(format_heard_turn(turn, jury) for turn in request.turns[-MAX_FOLD_TURNS:])
    jurors = "\n".join(f"juror_{juror.seat}: {juror.name}, the {juror.archetype}" for juror in jury)
    previous = clip(request.previous_summary, MAX_SUMMARY_CHARS) if request.previous_summary else "(none yet)"
    user = (
        f"# THE CASE: {request.case.title}\n\n# PREVIOUS SUMMARY\n{previous}\n\n"
        f"# TURNS TO FOLD IN (up to round {request.round_number})\n{turns}\n\n"
        f"# THE JURORS\n{jurors}\n\n{SUMMARY_FORMAT}"
    )
    system = "You keep the minutes of a jury's deliberation: short, faithful, neutral."
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
