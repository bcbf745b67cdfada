"""A deliberation written out in the three logging modes: Markdown, JSON and summary only.

Turn content is written exactly as stored: never wrapped, escaped or trimmed, whatever
Markdown or HTML it happens to contain. Each function takes a ``Transcript`` built from one
``deliberations_with_record()`` fetch and makes no further query. Participants (people, agents,
the command line's automated player) are given their votes, never a conviction: the engine
moves only AI jurors' convictions. Every format marks stand-in turns with their cause and counts
the failed model calls, round by round and in all (``review.failures``).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import Any

from deliberation.engine.failures import cause_label
from deliberation.game_settings import GameSettings
from deliberation.minds.factory import engine_label
from deliberation.models import BallotKind, Deliberation, Narration, PlayerSide, SeatKind, Turn, TurnKind
from deliberation.review.failures import (
    causes_in_words,
    kinds_in_words,
    public_failures,
    public_reason,
    stand_in_line,
)
from deliberation.review.selectors import RoundView, Transcript, TurnView, seat_label
from deliberation.rooms.state import is_room
from deliberation.selectors import run_record
from deliberation.trial.record import counsel_players, trial_summary

FORMATS = {
    "md": ("text/markdown; charset=utf-8", "md"),
    "json": ("application/json; charset=utf-8", "json"),
    "summary": ("text/plain; charset=utf-8", "txt"),
}
VOTE_WORDS = {"guilty": "guilty", "not_guilty": "not guilty", "": "no vote"}


def _vote(value: str) -> str:
    return VOTE_WORDS.get(value, value)


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _settings(transcript: Transcript) -> dict[str, Any]:
    """The settings the engine actually ran with, and the ones the deliberation was started with."""
    state = transcript.deliberation.engine_state or {}
    return {**(state.get("settings") or {}), **(transcript.deliberation.settings or {})}


def game_lines(transcript: Transcript) -> list[tuple[str, str]]:
    """The game settings in words (the engine is named on its own line)."""
    d = transcript.deliberation
    return [line for line in GameSettings.of(d).lines(room=is_room(d)) if line[0] != "Engine"]


def _player(transcript: Transcript) -> str:
    side = transcript.deliberation.player_side
    return PlayerSide(side).label if side in PlayerSide.values else "not chosen"


def _speaker(view: TurnView, seats_label: bool = True) -> str:
    """Who spoke: "Jaylen (seat 2)"; the AI juror who played a person's empty seat under its own
    name, "Sarah Chen · in the empty seat of Jaylen (seat 2)", never the person's."""
    turn = view.turn
    if turn.stood_in:
        seat = seat_label(view.speaker, turn.seat_number) if turn.seat_number else "a participant"
        return f"{turn.speaker_name} · in the empty seat of {seat}"
    if turn.seat_number and seats_label:
        return seat_label(view.speaker, turn.seat_number)
    return turn.speaker_name


def _heading(view: TurnView) -> str:
    turn = view.turn
    if (
        turn.kind == TurnKind.TRIAL
    ):  # "John Cole (trial: answer, struck)", "Counsel for the defence · Ben (seat 3) (trial: speech)"
        struck = ", struck" if (turn.trial or {}).get("struck") else ""
        counsel = f" · {seat_label(view.counsel, view.counsel_seat)}" if view.counsel_seat else ""
        return f"{turn.speaker_name}{counsel} (trial: {turn.strategy}{struck})"
    if turn.is_vote:  # "Jaylen (seat 2) · vote": her own, not the foreperson's
        return f"{_speaker(view)} · vote"
    if view.pass_words:  # "Jaylen (seat 2) · turn ran out", "... · passed"
        return f"{_speaker(view)} · {view.pass_words}"
    if turn.kind != TurnKind.SPEECH:
        return f"{turn.speaker_name} ({turn.get_kind_display().lower()})"
    parts = [_speaker(view)]
    if turn.target_seat:
        parts.append(f"to {seat_label(view.target, turn.target_seat)}")
    if turn.argument_type:
        parts.append(f"· {turn.argument_type}")
    if turn.is_fallback:
        parts.append(f"· stand-in ({cause_label(turn.fallback_cause)})" if turn.fallback_cause else "· stand-in")
    return " ".join(parts)


def _failed_words(totals: dict[str, Any]) -> str:
    """ "2 failed (1 timed out, 1 rate limited)" or "none failed" """
    if not totals.get("failed_calls"):
        return "none failed"
    return f"{totals['failed_calls']} failed ({causes_in_words(totals['failures_by_cause'])})"


def _flip_line(view: RoundView | TurnView) -> str:
    flips = view.flips if isinstance(view, TurnView) else view.unmarked_flips
    return "; ".join(f"{seat_label(f.seat, f.seat_number)} {_vote(f.before)} → {_vote(f.after)}" for f in flips)


def _started_line(d: Deliberation) -> str:
    """When it started; a room not yet started (it starts when its host starts it) says when it
    was made, and that it has not started."""
    if d.started_at:
        return f"- Started: {_when(d.started_at)}"
    waiting = " (not started)" if not d.verdict and not d.round_number else ""
    return f"- Created: {_when(d.created_at)}{waiting}"


def to_markdown(transcript: Transcript) -> str:
    d = transcript.deliberation
    case = d.case
    out: list[str] = [f"# Deliberation {d.pk}: {case.title}", ""]
    out += [
        f"- Case: {case.title} (`{case.slug}`)" + (f", {case.year}" if case.year else ""),
        f"- Charges: {', '.join(case.charges) or 'none recorded'}",
        f"- Defendants: {', '.join(x.name for x in case.defendants.all()) or 'none recorded'}",
        f"- Engine: {engine_label(d.engine)}",
        f"- Seed: {d.seed}",
        f"- Jury rules: {d.jury_rules.label}: {d.jury_rules.summary}",
        *(f"- {name}: {value}" for name, value in game_lines(transcript)),
        f"- Player: {_player(transcript)}",
        _started_line(d),
        f"- Rounds run: {d.round_number}",
        "",
        "## The jurors",
        "",
    ]
    for seat in transcript.seats.values():
        who = transcript.role(seat)
        person = seat.kind == SeatKind.HUMAN  # a person in a juror's seat is a person, not that juror's persona
        archetype = f", {seat.archetype_name}" if seat.archetype_name and not person else ""
        out.append(f"- Seat {seat.number}: {seat.face} {seat.display_name}{archetype} ({who})")
    for view in transcript.rounds:
        out += ["", "## First ballot" if view.number == 0 else f"## Round {view.number}", ""]
        for narration in view.openings:
            out += [f"*The judge ({narration.get_kind_display().lower()}):*", "", narration.text, ""]
        for turn_view in view.turns:
            out += [f"### {_heading(turn_view)}", "", *_spoken_lines(turn_view.turn), ""]
            if turn_view.turn.is_fallback:
                out += [stand_in_line(turn_view.turn), ""]
            if turn_view.flips:
                out += [f"Vote changes: {_flip_line(turn_view)}", ""]
        if view.unmarked_flips:
            out += [f"Vote changes: {_flip_line(view)}", ""]
        for cast in view.casts:
            seat = transcript.seats.get(cast.seat_number)
            out += [f"{seat_label(seat, cast.seat_number)} cast a vote: {_vote(cast.value)}", ""]
        for narration in view.closings:
            out += [f"*The judge ({narration.get_kind_display().lower()}):*", "", narration.text, ""]
        if view.guilty or view.not_guilty:
            out.append(f"Tally: {view.guilty} guilty, {view.not_guilty} not guilty.")
        if view.stats:
            s = view.stats
            out.append(
                f"Figures: {s.llm_calls} model calls ({s.failed_calls} failed), {s.prompt_tokens} prompt tokens, "
                f"{s.completion_tokens} completion tokens, {s.latency_ms} ms ({engine_label(s.engine)})."
            )
        if view.failures:
            out.append("Failed calls: " + "; ".join(f.line for f in view.failures) + ".")
    out += ["", "## Verdict", ""]
    if d.verdict:
        joined = ":" if d.verdict == "hung" else ","
        out.append(
            f"**{d.get_verdict_display()}**{joined} {d.verdict_detail}"
            + (f" ({d.end_reason_words})" if d.end_reason_words else "")
            + f" after {d.round_number} rounds."
        )
        final = [v.value for v in transcript.final_votes]
        out.append(f"Final ballot: {final.count('guilty')} guilty, {final.count('not_guilty')} not guilty.")
    else:
        out.append(f"No verdict yet ({d.get_phase_display()}).")
    if d.verdict and case.history_words:  # history stays sealed until the deliberation's own verdict
        out.append(f"{case.history_words}.")
    for narration in transcript.verdict_narrations:
        out += ["", "*The judge:*", "", narration.text]
    totals = transcript.totals
    out += [
        "",
        f"Totals: {totals['llm_calls']} model calls ({_failed_words(totals)}), "
        f"{totals['prompt_tokens']} prompt tokens{_cached_words(totals)}, "
        f"{totals['completion_tokens']} completion tokens, {totals['latency_ms']} ms, "
        f"{totals['vote_changes']} vote changes.",
    ]
    return "\n".join(out) + "\n"


def _spoken_lines(turn: Turn) -> list[str]:
    """A turn's words; a person's turn with a crafted part shows that part and their own words apart."""
    if not turn.crafted:
        return [turn.content]
    lines = [f"*Crafted by the strategy:* {turn.crafted}"]
    if turn.own_words:
        lines += ["", f"*In their own words:* {turn.own_words}"]
    return lines


def _cached_words(totals: dict[str, Any]) -> str:
    """ " (N served from the provider's cache)" where a provider reported cached prompt tokens."""
    cached = totals.get("cached_prompt_tokens", 0)
    return f" ({cached} served from the provider's cache)" if cached else ""


def _turn_json(view: TurnView, people: set[int]) -> dict[str, Any]:
    """A turn in full; its reactions are the AI jurors' (``Turn.heard_by_jurors``). A move at the
    trial names the participant whose own move it was as counsel (``counsel_seat``; null for AI
    counsel's, the witnesses' and the judge's)."""
    turn = view.turn
    return {
        "sequence": turn.sequence,
        "kind": turn.kind,
        "seat": turn.seat_number,
        "speaker": turn.speaker_name,
        "target": turn.target_seat,
        "argument_type": turn.argument_type,
        "strategy": turn.strategy,
        "position": turn.position,
        "content": turn.content,
        "crafted": turn.crafted,  # a person's turn: the part their strategy crafted ("" when all theirs)
        "own_words": turn.own_words if turn.kind == TurnKind.SPEECH and turn.strategy else "",  # a person's
        "reasoning": turn.reasoning,
        "reactions": turn.heard_by_jurors(people),
        "flips": turn.flips,
        "stood_in": turn.stood_in,  # the AI juror playing a person's empty seat spoke, not she
        "is_fallback": turn.is_fallback,
        "fallback_cause": turn.fallback_cause,
        "fallback_reason": public_reason(turn.fallback_cause) if turn.is_fallback else "",
        "engine": turn.engine,
        **({"trial": turn.trial, "counsel_seat": view.counsel_seat} if turn.kind == TurnKind.TRIAL else {}),
    }


def _narration_json(narration: Narration) -> dict[str, Any]:
    return {
        "round": narration.round_number,
        "kind": narration.kind,
        "text": narration.text,
        "status": narration.status,
        "engine": narration.engine,
        "voice": narration.voice,
        "audio": narration.audio.url if narration.audio else None,
        "duration_seconds": narration.duration_seconds,
    }


def to_record(transcript: Transcript) -> dict[str, Any]:
    """Everything, machine-readable: the ``deliberate --json`` fields first, then the full log."""
    d = transcript.deliberation
    case = d.case
    sealed = case.historical_verdict if d.verdict else None  # history stays sealed until the verdict
    votes_by_round: dict[int, list[dict[str, Any]]] = {}
    for vote in sorted(d.votes.all(), key=lambda v: (v.round_number, v.id)):
        votes_by_round.setdefault(vote.round_number, []).append(
            {"seat": vote.seat_number, "value": vote.value, "previous": vote.previous, "ballot": vote.ballot}
        )
    participants = transcript.participants()
    rounds = []
    for view in transcript.rounds:
        stats = view.stats
        rounds.append(
            {
                "round": view.number,
                "figures": {
                    "engine": stats.engine,
                    "llm_calls": stats.llm_calls,
                    "prompt_tokens": stats.prompt_tokens,
                    "cached_prompt_tokens": stats.cached_prompt_tokens,
                    "completion_tokens": stats.completion_tokens,
                    "cost_usd": stats.cost_usd,
                    "latency_ms": stats.latency_ms,
                    "failed_calls": stats.failed_calls,
                    "failures": public_failures(stats.failures),
                }
                if stats
                else None,
                "tally": {"guilty": view.guilty, "not_guilty": view.not_guilty},
                "turns": [_turn_json(t, participants) for t in view.turns],
                "votes": votes_by_round.get(view.number, []),
                "snapshots": [
                    {
                        "seat": s.seat_number,
                        "conviction": None if s.seat_number in participants else s.conviction,
                        "vote": s.vote,
                    }
                    for s in sorted(transcript.snapshots.get(view.number, {}).values(), key=lambda s: s.seat_number)
                ],
                "narrations": [_narration_json(n) for n in view.narrations],
            }
        )
    totals = {k: v for k, v in transcript.totals.items()}
    return {
        **run_record(d),
        "vote_changes": transcript.totals["vote_changes"],  # the one count every page shows, not the engine's
        "verdict_words": d.verdict_words,
        "engine_label": engine_label(d.engine),
        "title": case.title,
        "case_detail": {
            "slug": case.slug,
            "title": case.title,
            "charges": list(case.charges),
            "defendants": [x.name for x in case.defendants.all()],
            "year": case.year,
            "jurisdiction": case.jurisdiction,
            "historical_verdict": sealed,
        },
        "historical_verdict": sealed,
        "phase": d.phase,
        "player_side": d.player_side,
        "player_seat": d.player_seat,
        "settings": _settings(transcript),
        "budget_exhausted": d.budget_exhausted,
        "created_at": _when(d.created_at),
        "started_at": _when(d.started_at),
        "finished_at": _when(d.finished_at),
        "jurors": [
            {
                "seat": s.number,
                "name": s.display_name,
                "emoji": s.face,
                "archetype": "" if s.kind == SeatKind.HUMAN else s.archetype_name,
                "kind": s.kind,
                "role": transcript.role(s),
                "vote": s.vote,
                "conviction": None if s.number in participants else s.conviction,
                "turns_taken": s.turns_taken,
            }
            for s in transcript.seats.values()
        ],
        "round_log": rounds,
        "final_votes": [{"seat": v.seat_number, "value": v.value} for v in transcript.final_votes],
        "verdict_narrations": [_narration_json(n) for n in transcript.verdict_narrations],
        "totals": totals,
    }


def to_json(transcript: Transcript) -> str:
    return json.dumps(to_record(transcript), ensure_ascii=False, indent=2) + "\n"


def to_summary(transcript: Transcript) -> str:
    """Summary only: the outcome, the tally round by round, and each juror's last stand."""
    d = transcript.deliberation
    totals = transcript.totals
    first = next((r for r in transcript.rounds if r.number == 0), None)
    how = f" ({d.end_reason_words})" if d.end_reason_words else ""
    verdict = f"{d.verdict_words}{how}" if d.verdict else "no verdict yet"
    out = [
        f"Deliberation {d.pk}: {d.case.title}",
        f"Engine: {engine_label(d.engine)}; seed {d.seed}; {d.round_number} rounds",
        f"Verdict: {verdict}." + (f" {d.case.history_words}." if d.verdict and d.case.history_words else ""),
    ]
    if first:
        out.append(f"First ballot: {first.guilty} guilty, {first.not_guilty} not guilty.")
    final = [v.value for v in transcript.final_votes]
    if final:
        out.append(f"Final ballot: {final.count('guilty')} guilty, {final.count('not_guilty')} not guilty.")
    out.append(
        f"Vote changes: {totals['vote_changes']}. Model calls: {totals['llm_calls']} ({_failed_words(totals)}); "
        f"tokens: "
        f"{totals['prompt_tokens']} prompt, {totals['completion_tokens']} completion; "
        f"latency {totals['latency_ms']} ms."
    )
    out.append(
        "Tally by round (guilty-not guilty): "
        + ", ".join(f"{r.number}: {r.guilty}-{r.not_guilty}" for r in transcript.rounds if r.guilty or r.not_guilty)
    )
    stand_ins = [t.turn for r in transcript.rounds for t in r.turns if t.turn.is_fallback]
    if totals["failed_calls"]:
        out.append(f"Failed model calls by kind: {kinds_in_words(totals['failures_by_kind'])}.")
    if stand_ins:
        causes = Counter(t.fallback_cause for t in stand_ins)
        out.append(f"Stand-in turns (the offline engine spoke): {len(stand_ins)} ({causes_in_words(dict(causes))}).")
    out += trial_summary(
        [t.turn for r in transcript.rounds for t in r.turns],
        counsel_players(d.trial_state, transcript.names()),
        d.trial_state,
    )
    out += ["", "Jurors at the end:"]
    last_said: dict[int, Turn] = {}
    for view in transcript.rounds:
        for turn_view in view.turns:
            if turn_view.turn.kind == TurnKind.SPEECH and turn_view.turn.seat_number and not turn_view.turn.stood_in:
                last_said[turn_view.turn.seat_number] = turn_view.turn
    final_by_seat = {v.seat_number: v.value for v in transcript.final_votes if v.ballot == BallotKind.FINAL}
    for seat in transcript.seats.values():
        vote = final_by_seat.get(seat.number, seat.vote)
        if seat.is_participant:
            out.append(f"Seat {seat.number} {seat.display_name} ({transcript.role(seat)}): voted {_vote(vote)}")
        else:
            out.append(f"Seat {seat.number} {seat.display_name}: {_vote(vote)}, conviction {seat.conviction:.2f}")
        turn = last_said.get(seat.number)
        if turn:
            mark = f" [stand-in: {cause_label(turn.fallback_cause)}]" if turn.is_fallback else ""
            out.append(f"  Last said (round {turn.round_number}){mark}: {turn.content}")
    return "\n".join(out) + "\n"


def render(transcript: Transcript, fmt: str) -> str:
    return {"md": to_markdown, "json": to_json, "summary": to_summary}[fmt](transcript)
