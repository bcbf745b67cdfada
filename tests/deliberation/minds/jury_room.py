"""A cooperative model for the local OpenAI-protocol server: it answers every kind of prompt the
engine sends (a juror's speech, a participant's crafted argument, the batch reaction, the summary)
the way a well-behaved model would, so that any failure a test sees is one it injected."""

from __future__ import annotations

import json
import re
from typing import Any

from deliberation.engine.failures import CallKind
from deliberation.engine.room_prompts import MINUTES_SYSTEM, REACT_SYSTEM
from tests.deliberation.minds.openai_server import Reply

SPEECH = (
    "<SpeakingTo>everyone</SpeakingTo><ArgumentType>question</ArgumentType><Position>NOT GUILTY</Position>"
    "<Content>{name} asks who else could have worn that coat.</Content>"
)


def _last(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def call_kind(body: dict[str, Any]) -> CallKind:
    """Which of the engine's four calls a request is, from its prompt."""
    system = str(body["messages"][0]["content"])
    if system == REACT_SYSTEM:
        return "reaction"
    if system == MINUTES_SYSTEM:
        return "summary"
    if "and you argue for" in str(body["messages"][0]["content"]):
        return "argument"
    return "speech"


def jury_room(body: dict[str, Any]) -> Reply:
    """Answers each kind of prompt the way a cooperative model would."""
    last = _last(body)
    kind = call_kind(body)
    if kind == "reaction":
        seats = re.findall(r"^juror_(\d+):", last, re.MULTILINE)
        count = len(re.findall(r"^\d+\. ", last, re.MULTILINE))
        # Odd seats lean towards not guilty, even seats towards guilty: a room that keeps arguing.
        answer = {
            f"juror_{seat}": [{"speech": n + 1, "impact": -0.2 if int(seat) % 2 else 0.2} for n in range(count)]
            for seat in seats
        }
        return Reply(text=json.dumps(answer))
    if kind == "summary":
        return Reply(text=json.dumps({"summary": "• The room argued about the coat."}))
    if kind == "argument":
        found = re.search(r"You are (.+?), Juror", str(body["messages"][0]["content"]))
    else:
        found = re.search(r"YOUR TURN, (.+?)\.", last)
    return Reply(text=SPEECH.format(name=found.group(1) if found else "A juror"))
