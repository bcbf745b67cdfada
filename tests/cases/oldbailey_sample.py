"""Helpers over the shared Old Bailey sample that read the XML independently of the importer."""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from pathlib import Path


def shared_data(start: Path) -> Path:
    """The shared Old Bailey data: ``../shared`` beside the checkout, or beside a folder above it (a
    git worktree kept under ``/work/wt/<name>`` finds ``/work/shared``)."""
    for folder in start.resolve().parents:
        if (folder / "shared" / "data" / "oldbailey").is_dir():
            return folder / "shared" / "data" / "oldbailey"
    return start.resolve().parents[3] / "shared" / "data" / "oldbailey"


DATA = shared_data(Path(__file__))
TRIALS = sorted((DATA / "trials").glob("*.xml"))
SESSIONS = sorted((DATA / "sessions").glob("*.xml"))
INDEX = {row["trial_id"]: row for row in csv.DictReader((DATA / "trials_index.csv").open(encoding="utf-8"))}
ANSWER = {"verdictDescription", "punishmentDescription"}

# Verdicts in a verdict-like position, searched case-insensitively in what the jury may read. Written
# independently of the importer's own patterns (tests/cases/test_oldbailey_leaks.py tests these).
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
# Up to four capitalised words (names, "*" marks) and then only the verdict, perhaps valued or qualified.
VERDICT_ONLY = re.compile(
    r"^(?:(?-i:[A-Z][\w'’-]*)\s+|\*\s*){0,4}(?:not\s+guilty|guilty|acquitted|acquit)"
    r"(?:\s+\d+\s*[sd]\b\.?|\s+of\b.*|\s+death\b.*|\s+transportation\b.*|\s*\*)*[\s.,;:*]*$",
    re.IGNORECASE,
)
PUNISHMENT_ONLY = re.compile(
    r"^(?:death|transportation(?: for \w+(?: \w+)? years)?|transported|branded|whipped|to be whipped|"
    r"imprisoned|fined)\b[^.]{0,60}[.\s]*$",
    re.IGNORECASE,
)
# In a last sentence: a verdict opening it or following a name ("... owned it. Guilty", "Creed guilty"), or a
# sentence of transportation ("which makes it Transportation for fourteen years").
VERDICT_IN_LAST = re.compile(
    r"(?:^|(?-i:[A-Z][\w'’]*)\s+\*?\s*)(?:not\s+guilty|guilty|acquitted)\b"
    r"|\btransport(?:ation|ed) for (?:\w+ )?(?:\w+ )?(?:years|life)\b",
    re.IGNORECASE,
)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text.strip()) if s.strip()]


def leaks_in(text: str) -> list[str]:
    """The verdict-like sentences of one text (empty when it is clean)."""
    parts = sentences(text)
    found = [s for s in parts if VERDICT_ONLY.match(s) or PUNISHMENT_ONLY.match(s)]
    if parts and VERDICT_IN_LAST.search(parts[-1]) and parts[-1] not in found:
        found.append(parts[-1])
    return found


def load(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())  # the sample is trusted; the importer's own parser is tested elsewhere


def trials_in(root: ET.Element) -> list[ET.Element]:
    if root.tag == "div1":
        return [root]
    return [d for d in root.iter("div1") if d.get("type") == "trialAccount"]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def answer_texts(trial: ET.Element) -> list[str]:
    return [squash("".join(el.itertext())) for el in trial.iter() if el.get("type") in ANSWER]


def first_verdict(trial: ET.Element) -> str:
    for el in trial.iter("interp"):
        if el.get("type") == "verdictCategory":
            return el.get("value", "")
    return ""


def before_verdict(trial: ET.Element) -> list[ET.Element]:
    """Paragraphs up to and including the first that holds a verdict or punishment."""
    out = []
    for p in trial.iter("p"):
        out.append(p)
        if any(el.get("type") in ANSWER for el in p.iter()):
            break
    return out
