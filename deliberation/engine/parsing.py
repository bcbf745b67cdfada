"""Tolerant reading of a model's answers. Pure Python, no Django.

Models drift from the requested format: they wrap answers in code fences, add prose around the
tags, forget a closing tag, answer in JSON, invent argument types, or name a juror instead of a
seat. Everything here reads what it can and never raises on a bad answer: an answer that yields
no usable statement returns ``None`` so that the mind records a fallback turn instead.

This module reads a speech (and holds the helpers every reader shares); the jury's reactions and
the room's minutes are read in ``deliberation.engine.parse_room``.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from deliberation.engine.types import ARGUMENT_TYPES, JurorProfile, VoteValue

DEFAULT_ARGUMENT_TYPE = "logical"

# Tag name -> field; the pattern lets a model write SpeakingTo, Speaking_To or "speaking to".
TAG_FIELDS: dict[str, str] = {
    r"speaking[\s_-]?to": "speaking_to",
    r"argument[\s_-]?type": "argument_type",
    r"position": "position",
    r"verdict": "position",
    r"verdict[\s_-]?reasoning": "reasoning",
    r"reasoning": "reasoning",
    r"cites": "cited",
    r"content": "content",
    r"withdrawn": "withdrawn",
}
KNOWN_TAG = (
    r"(?:speaking[\s_-]?to|argument[\s_-]?type|position|verdict[\s_-]?reasoning|verdict|reasoning|cites|content"
    r"|message|speaker|artifacts|withdrawn)"
)
KNOWN_TAG_NAMES: tuple[str, ...] = (
    "speakingto",
    "argumenttype",
    "position",
    "verdictreasoning",
    "verdict",
    "reasoning",
    "cites",
)
KNOWN_TAG_NAMES += ("content", "message", "speaker", "artifacts", "withdrawn")
TAG_START = re.compile(r"<\s*/?\s*" + KNOWN_TAG + r"\b[^>]*>", re.IGNORECASE)
CONTENT_OPEN = re.compile(r"<\s*content\s*>", re.IGNORECASE)
FENCE = re.compile(r"```[\w-]*")
THINKING = re.compile(r"<\s*(think|thinking)\s*>.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
SPEAKER_BLOCK = re.compile(r"<\s*speaker\s*>.*?<\s*/\s*speaker\s*>", re.IGNORECASE | re.DOTALL)
REFUSAL = re.compile(r"^\W*(i'?m sorry|i am sorry|as an ai|i cannot|i can't)\b", re.IGNORECASE)
SEAT_NUMBER = re.compile(r"(?:juror|seat|#|no\.)[\s_#-]*(\d{1,2})\b|^\s*(\d{1,2})\s*$", re.IGNORECASE)
NOBODY = {"", "everyone", "everybody", "all", "the room", "room", "the jury", "jury", "none", "nobody", "n/a", "na"}
NOBODY |= {"the group", "group", "all jurors", "the whole room", "whole room", "-"}

ARGUMENT_SYNONYMS: dict[str, str] = {
    "evidential": "evidence", "factual": "evidence", "fact": "evidence", "facts": "evidence",
    "forensic": "evidence", "physical": "evidence", "data": "evidence", "emotion": "emotional",
    "emotive": "emotional", "empathy": "emotional", "pathos": "emotional", "feeling": "emotional",
    "logic": "logical", "rational": "logical", "deductive": "logical", "analytical": "logical",
    "reason": "logical", "questioning": "question", "questions": "question", "inquiry": "question",
    "socratic": "question", "doubt": "question", "ethical": "moral", "ethics": "moral",
    "morality": "moral", "principle": "moral", "principled": "moral", "story": "narrative",
    "storytelling": "narrative", "theory": "narrative", "alternativetheory": "narrative",
    "timeline": "narrative",
}  # fmt: skip


@dataclass(frozen=True)
class ParsedSpeech:
    content: str
    speaking_to: int | None = None
    argument_type: str = DEFAULT_ARGUMENT_TYPE
    position: VoteValue | None = None
    reasoning: str = ""
    cited: tuple[str, ...] = ()
    structured: bool = False  # the answer used the tags or JSON (not bare prose)
    withdrawn: bool = False  # <Withdrawn>true</Withdrawn>: nothing new to add (seed 001)


def read_withdrawn(value: Any) -> bool:
    """A withdrawal flag as models write it: true, yes, 1 (anything else, or nothing, stays in)."""
    if isinstance(value, bool):
        return value
    return squash(str(value or "")) in {"true", "yes", "1", "withdrawn", "y"}


def clean(text: str | None) -> str:
    """Strip code fences and thinking blocks, which no format wants to keep."""
    text = THINKING.sub("", text or "")
    return FENCE.sub("", text).strip()


def squash(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def load_json(text: str) -> Any | None:
    """The first JSON value in ``text``, forgiving trailing commas, single quotes and Python literals."""
    starts = [index for index in (text.find("{"), text.find("[")) if index >= 0]
    if not starts:
        return None
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    if end <= start:
        return None
    body = text[start : end + 1]
    repaired = re.sub(r",\s*([}\]])", r"\1", body)
    for candidate in (body, repaired):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    python = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", repaired)))
    try:
        return ast.literal_eval(python)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def looks_like_speech(content: str) -> bool:
    """Reject noise: a statement has words, and is mostly letters, spaces and punctuation."""
    if not re.search(r"[^\W\d_]{2,}", content) or REFUSAL.match(content):
        return False
    wordy = sum(1 for char in content if char.isalpha() or char.isspace() or char in ".,;:'\"!?-()’“”…")
    return wordy >= 0.7 * len(content)


def resolve_seat(value: Any, jury: Sequence[JurorProfile]) -> int | None:
    """A seat from "Juror 5", "juror_5", "#5", 5, a name, a first name or an archetype; else None."""
    seats = {juror.seat for juror in jury}
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return int(value) if int(value) in seats else None
    text = str(value).strip().strip("\"'.").strip()
    if text.lower() in NOBODY:
        return None
    number = SEAT_NUMBER.search(text)
    if number:
        seat = int(number.group(1) or number.group(2))
        return seat if seat in seats else None
    lowered = text.lower()
    for juror in jury:
        if juror.name.lower() == lowered or juror.archetype.lower() in {lowered, lowered.removeprefix("the ")}:
            return juror.seat
    words = {word for word in re.findall(r"[^\W\d_]{3,}", lowered)}
    hits = {juror.seat for juror in jury if words & set(re.findall(r"[^\W\d_]{3,}", juror.name.lower()))}
    if len(hits) == 1:
        return hits.pop()
    names = {juror.name.lower(): juror.seat for juror in jury}
    close = difflib.get_close_matches(lowered, list(names), n=1, cutoff=0.75)
    return names[close[0]] if close else None


def normalize_argument_type(value: Any, default: str = DEFAULT_ARGUMENT_TYPE) -> str:
    """One of ARGUMENT_TYPES: exact, a synonym, a prefix, the nearest spelling, or ``default``."""
    key = squash(str(value or "")).removesuffix("argument").removesuffix("based")
    if not key:
        return default
    if key in ARGUMENT_TYPES:
        return key
    if key in ARGUMENT_SYNONYMS:
        return ARGUMENT_SYNONYMS[key]
    for kind in ARGUMENT_TYPES:
        if len(key) >= 4 and (kind.startswith(key) or key.startswith(kind)):
            return kind
    close = difflib.get_close_matches(key, [*ARGUMENT_TYPES, *ARGUMENT_SYNONYMS], n=1, cutoff=0.7)
    if close:
        return close[0] if close[0] in ARGUMENT_TYPES else ARGUMENT_SYNONYMS[close[0]]
    return default


def normalize_position(value: Any) -> VoteValue | None:
    text = re.sub(r"[_\-]+", " ", str(value or "").lower())
    if re.search(r"\bnot\s*guilty\b|innocent|acquit", text):
        return "not_guilty"
    if re.search(r"\bguilty\b|convict", text):
        return "guilty"
    return None


def normalize_cited(value: Any, known_ids: Iterable[str], content: str = "") -> tuple[str, ...]:
    """Evidence / witness ids named in <Cites> (or, failing that, in the statement itself)."""
    known = {item.lower(): item for item in known_ids}
    tokens = value if isinstance(value, list | tuple) else re.split(r"[\s,;]+", str(value or ""))
    found: list[str] = []
    for token in [*(str(t).strip("[]().").lower() for t in tokens), *re.findall(r"\b[a-z]+\d+\b", content.lower())]:
        item = known.get(token) if known else (token.upper() if re.fullmatch(r"[a-z]+\d+", token) else None)
        if item and item not in found:
            found.append(item)
    return tuple(found)


def content_span(text: str) -> str | None:
    """The text after <Content>, up to its closing tag, the next known tag, or the end."""
    opened = CONTENT_OPEN.search(text)
    if not opened:
        return None
    rest = text[opened.end() :]
    stop = TAG_START.search(rest)
    return rest[: stop.start()] if stop else rest


def extract_tags(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for pattern, name in TAG_FIELDS.items():
        if name in fields:
            continue
        match = re.search(r"<\s*" + pattern + r"\s*>(.*?)(?=<\s*/?\s*" + KNOWN_TAG + r"\b|\Z)", text, re.I | re.S)
        if match:
            fields[name] = match.group(1).strip()
    if "content" in fields:
        fields["content"] = (content_span(text) or "").strip()
    return fields


def fields_from_json(data: Any) -> dict[str, Any]:
    aliases = {
        "speakingto": "speaking_to", "target": "speaking_to", "to": "speaking_to", "addressee": "speaking_to",
        "argumenttype": "argument_type", "type": "argument_type", "position": "position", "verdict": "position",
        "vote": "position", "reasoning": "reasoning", "verdictreasoning": "reasoning", "cites": "cited",
        "cited": "cited", "evidence": "cited", "content": "content", "text": "content", "message": "content",
        "statement": "content", "speech": "content", "withdrawn": "withdrawn", "withdraw": "withdrawn",
    }  # fmt: skip
    if not isinstance(data, dict):
        return {}
    fields: dict[str, Any] = {}
    for key, value in data.items():
        name = aliases.get(squash(str(key)))
        if name and name not in fields:
            fields[name] = value if name == "cited" else ("" if value is None else str(value))
    return fields


def parse_speech(
    text: str | None,
    *,
    jury: Sequence[JurorProfile],
    known_ids: Iterable[str] = (),
    default_type: str = DEFAULT_ARGUMENT_TYPE,
) -> ParsedSpeech | None:
    """Read a structured statement; ``None`` when no usable statement is there."""
    body = clean(text)
    if not body:
        return None
    fields: dict[str, Any] = extract_tags(body)
    structured = from_json = False
    if fields:
        structured = True
    elif "{" in body:
        fields = fields_from_json(load_json(body))
        if not fields.get("content"):
            loose = re.search(r'"content"\s*:\s*"((?:[^"\\]|\\.)*)', body, re.IGNORECASE)
            fields = {**fields, "content": loose.group(1).replace('\\"', '"')} if loose else fields
        if fields or body.startswith(("{", "[")):
            structured = from_json = True
    content = str(fields.get("content") or "").strip()
    if not content and not from_json:
        # Tags without a <Content>, or bare prose: whatever is left outside the tags is the statement.
        leftover = SPEAKER_BLOCK.sub("", body)
        for pattern in TAG_FIELDS:
            leftover = re.sub(
                r"<\s*" + pattern + r"\s*>.*?<\s*/\s*" + pattern + r"\s*>", "", leftover, flags=re.I | re.S
            )
        content = TAG_START.sub("", leftover)
    content = content.strip().strip('"“”').strip()
    if not content or not looks_like_speech(content):
        return None
    known = list(known_ids)
    return ParsedSpeech(
        content=content,
        speaking_to=resolve_seat(fields.get("speaking_to"), jury),
        argument_type=normalize_argument_type(fields.get("argument_type"), default_type),
        position=normalize_position(fields.get("position")),
        reasoning=str(fields.get("reasoning") or "").strip(),
        cited=normalize_cited(fields.get("cited"), known, content),
        structured=structured,
        withdrawn=read_withdrawn(fields.get("withdrawn")),
    )


class ContentStream:
    """Turns streamed answer chunks into the <Content> text only, as it arrives.

    The emitted pieces always join to a prefix of what ``parse_speech`` will read as the
    content: leading and trailing whitespace and a half-received closing tag are held back.
    """

    def __init__(self) -> None:
        self.raw = ""
        self.sent = ""

    def feed(self, chunk: str) -> str:
        self.raw += chunk
        visible = content_span(self.raw)
        if visible is None:
            return ""
        tail = visible.rfind("<")
        if tail >= 0 and self._may_become_tag(visible[tail:]):
            visible = visible[:tail]
        visible = visible.strip()
        if not visible.startswith(self.sent) or len(visible) <= len(self.sent):
            return ""
        piece, self.sent = visible[len(self.sent) :], visible
        return piece

    @staticmethod
    def _may_become_tag(tail: str) -> bool:
        if ">" in tail:
            return False
        letters = squash(tail)
        return any(name.startswith(letters) for name in KNOWN_TAG_NAMES)
