"""Reads for pages, exports, the command line and the MCP server, in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from deliberation.models import Deliberation, RoundStats, Seat, Turn, TurnKind
from deliberation.trial.record import trial_record


def deliberations_with_record() -> QuerySet[Deliberation]:
    """Deliberations with everything a transcript shows, prefetched (constant query count)."""
    return Deliberation.objects.select_related("case").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("number")),
        Prefetch("turns", queryset=Turn.objects.order_by("sequence")),
        "votes",
        "snapshots",
        Prefetch("round_stats", queryset=RoundStats.objects.order_by("round_number")),
        "narrations",
        "case__defendants",
    )


def ballot_counts(votes: dict[Any, str]) -> dict[str, int]:
    values = list(votes.values())
    return {"guilty": values.count("guilty"), "not_guilty": values.count("not_guilty")}


def usage_totals(deliberation: Deliberation) -> dict[str, int]:
    """Model calls, tokens and failed calls over every round (uses prefetched ``round_stats`` when present)."""
    stats = list(deliberation.round_stats.all())
    return {
        "llm_calls": sum(r.llm_calls for r in stats),
        "prompt_tokens": sum(r.prompt_tokens for r in stats),
        "completion_tokens": sum(r.completion_tokens for r in stats),
        "failed_calls": sum(r.failed_calls for r in stats),
    }


def run_record(deliberation: Deliberation) -> dict[str, Any]:
    """The machine-readable record of one run (the ``deliberate --json`` line).

    Speeches in order (process lines excluded), each with the conviction deltas it caused in the AI
    jurors (a seat a person holds is no listener, ``Turn.heard_by_jurors``);
    no timing fields, so the same seed gives the same record on the offline engine.
    """
    state = deliberation.engine_state or {}
    history = state.get("vote_history") or [{}]
    people = {seat.number for seat in deliberation.seats.all() if seat.is_participant}
    turns = [
        {
            "round": t.round_number,
            "seat": t.seat_number,
            "speaker": t.speaker_name,
            "target": t.target_seat,
            "argument_type": t.argument_type,
            "content": t.content,
            "crafted": t.crafted,  # a person's turn: what their strategy crafted, then their own words
            "own_words": t.own_words if t.strategy else "",
            "deltas": {str(r["seat"]): r["delta"] for r in t.heard_by_jurors(people)},  # AI jurors' only
        }
        for t in deliberation.turns.all()
        if t.kind == TurnKind.SPEECH and t.hidden_at is None
    ]
    return {
        "deliberation_id": deliberation.pk,
        "public_id": deliberation.public_id,
        "case": deliberation.case.slug,
        "engine": deliberation.engine,
        "seed": deliberation.seed,
        "rounds": deliberation.round_number,
        "verdict": deliberation.verdict or None,
        "end_reason": deliberation.end_reason or None,
        "rules": (state.get("settings") or {}).get("rules", "unanimous"),
        "directions": [t.content for t in deliberation.turns.all() if t.kind == TurnKind.JUDGE],
        "first_ballot": ballot_counts(history[0]),
        "final_ballot": ballot_counts(state.get("votes", {})),
        "vote_changes": int(state.get("vote_changes", 0)),
        "turn_mode": (state.get("settings") or {}).get("turn_mode", "weighted"),
        "context_scope": (state.get("settings") or {}).get("context_scope", "window-and-summary"),
        "discharged": sorted(state.get("discharged", [])),
        **{k: v for k, v in usage_totals(deliberation).items() if k != "completion_tokens"},
        "turns": turns,
        **({"trial": trial} if (trial := trial_record(deliberation.turns.all())) else {}),
    }
