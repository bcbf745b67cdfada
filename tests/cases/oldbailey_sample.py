"""Helpers over the shared Old Bailey sample that read the XML independently of the importer."""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "oldbailey"
TRIALS = sorted((DATA / "trials").glob("*.xml"))
SESSIONS = sorted((DATA / "sessions").glob("*.xml"))
INDEX = {row["trial_id"]: row for row in csv.DictReader((DATA / "trials_index.csv").open(encoding="utf-8"))}
ANSWER = {"verdictDescription", "punishmentDescription"}


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
