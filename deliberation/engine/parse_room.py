"""Tolerant reading of the room's bookkeeping answers: the jury's reactions and the minutes.

Pure Python, no Django. Like ``deliberation.engine.parsing`` (whose helpers it shares) it never
raises on a bad answer: ``None`` means nothing usable, and the mind falls back.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deliberation.engine.parsing import clean, load_json, looks_like_speech, resolve_seat, squash
from deliberation.engine.types import JurorProfile, Reaction


@dataclass(frozen=True)
class ParsedReactions:
    reactions: tuple[Reaction, ...]  # one per listener and speech; uncovered ones at 0 impact
    missing: tuple[int, ...] = ()  # listener seats the answer said nothing about


def number(value: Any) -> float:
    try:
        result = float(str(value).strip().rstrip("%"))
    except (TypeError, ValueError):
        return 0.0
    return 0.0 if math.isnan(result) else max(-1.0, min(1.0, result))


def flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in {"true", "yes", "y", "1"}


IMPACT_KEYS = ("impact", "baseimpact", "delta", "convictiondelta", "effect", "change", "score")
THOUGHT_KEYS = ("thought", "reaction", "comment", "reason", "note")
SEAT_KEYS = ("juror", "seat", "jurorid", "id", "name")


def pick(entry: dict[str, Any], keys: tuple[str, ...]) -> Any:
    squashed = {squash(str(key)): value for key, value in entry.items()}
    return next((squashed[key] for key in keys if key in squashed), None)


def speech_entries(value: Any, speech_count: int) -> list[tuple[int, dict[str, Any]]]:
    """(speech index, reaction fields) pairs from one juror's part of the answer."""
    last = max(speech_count - 1, 0)
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        return [(last, {"impact": value})]
    if isinstance(value, list):
        pairs = []
        for position, entry in enumerate(value):
            entry = entry if isinstance(entry, dict) else {"impact": entry}
            pairs.append((speech_index(pick(entry, ("speech", "speechindex", "index")), position, speech_count), entry))
        return pairs
    if not isinstance(value, dict):
        return []
    if pick(value, IMPACT_KEYS) is not None or pick(value, THOUGHT_KEYS) is not None:
        return [(speech_index(pick(value, ("speech", "speechindex", "index")), last, speech_count), value)]
    pairs = []
    for key, entry in value.items():
        digits = re.search(r"\d+", str(key))
        if digits:
            entry = entry if isinstance(entry, dict) else {"impact": entry}
            pairs.append((speech_index(int(digits.group()), last, speech_count), entry))
    return pairs


def speech_index(value: Any, default: int, speech_count: int) -> int:
    """Speeches are numbered from 1 in the prompt; a 0 is read as the first one."""
    if value is None:
        return default
    try:
        index = int(float(str(value).strip()))
    except ValueError:
        return default
    index = index - 1 if index >= 1 else 0
    return index if index < speech_count else -1


def parse_reactions(
    text: str | None, *, listeners: Sequence[JurorProfile], speech_count: int
) -> ParsedReactions | None:
    """Read the batch reaction JSON; ``None`` when it covers none of the listeners."""
    data = load_json(clean(text))
    if isinstance(data, dict):
        inner = pick(data, ("reactions", "jurors", "results"))
        data = inner if isinstance(inner, list | dict) else data
    found: dict[tuple[int, int], Reaction] = {}
    listener_seats = {juror.seat for juror in listeners}
    rows: list[tuple[Any, Any]] = []
    if isinstance(data, dict):
        rows = list(data.items())
    elif isinstance(data, list):
        rows = [(pick(item, SEAT_KEYS), item) for item in data if isinstance(item, dict)]
    for key, value in rows:
        seat = resolve_seat(key, listeners)
        if seat not in listener_seats:
            continue
        for index, entry in speech_entries(value, speech_count):
            if index < 0 or (seat, index) in found:
                continue
            found[(seat, index)] = Reaction(
                seat=seat,
                speech_index=index,
                base_impact=number(pick(entry, IMPACT_KEYS)),
                thought=str(pick(entry, THOUGHT_KEYS) or "").strip(),
                persuaded=flag(pick(entry, ("persuaded", "convinced", "moved"))),
            )
    if not found:
        return None
    reactions = []
    for juror in listeners:
        for index in range(speech_count):
            reactions.append(
                found.get((juror.seat, index), Reaction(seat=juror.seat, speech_index=index, base_impact=0.0))
            )
    missing = tuple(juror.seat for juror in listeners if not any(seat == juror.seat for seat, _ in found))
    return ParsedReactions(reactions=tuple(reactions), missing=missing)


def parse_summary(text: str | None, *, jurors: Sequence[JurorProfile]) -> tuple[str, dict[int, str]] | None:
    """The shared rolling summary and each juror's own line; plain bullet text is accepted too."""
    body = clean(text)
    data = load_json(body) if "{" in body else None
    if isinstance(data, dict):
        shared = pick(data, ("summary", "shared", "minutes", "bullets"))
        if isinstance(shared, list):
            shared = "\n".join(f"• {str(line).lstrip('•-* ').strip()}" for line in shared)
        personal: dict[int, str] = {}
        per_juror = pick(data, ("jurors", "perjuror", "juror"))
        if isinstance(per_juror, dict):
            for key, line in per_juror.items():
                seat = resolve_seat(key, jurors)
                if seat is not None and line:
                    personal[seat] = str(line).strip()
        shared = str(shared or "").strip()
        return (shared, personal) if shared and looks_like_speech(shared) else None
    if data is not None or not body or not looks_like_speech(body):
        return None
    if body[0] in "{[":  # meant as JSON and broken: an unusable answer, never minutes to read out
        return None
    return body, {}
