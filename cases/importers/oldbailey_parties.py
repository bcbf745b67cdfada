"""The parties and the outcome of an Old Bailey trial as its XML marks them: the defendants (names,
gender, age beside the name), the offences, the verdict, the punishment (from the trial or the
session's summary), the trial's number within its session and its year."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from cases.importers import oldbailey_rules as rules
from cases.importers.oldbailey_xml import interp, person_name, punishment_summaries, text_of


@dataclass(frozen=True)
class DefendantRecord:
    name: str
    gender: str = "unknown"
    age: int | None = None


def defendants_of(trial: ET.Element) -> list[DefendantRecord]:
    found: dict[str, DefendantRecord] = {}
    for person in trial.iter("persName"):
        if person.get("type") != "defendantName":
            continue
        name = person_name(person)
        gender = interp(person, "gender", person.get("id"))
        age_text = interp(person, "age", person.get("id"))
        age = int(age_text) if age_text.isdigit() and 0 < int(age_text) <= 120 else None
        if age is not None and not _age_beside_name(person, age):
            age = None  # printed only after the verdict ("GUILTY, aged 45."): the answer's, not the jury's
        key = name.lower()
        if key and key not in found:
            found[key] = DefendantRecord(
                name=name, gender=gender if gender in {"male", "female"} else "unknown", age=age
            )
    return list(found.values())


def _age_beside_name(person: ET.Element, age: int) -> bool:
    """The heading prints ``age`` in brackets in or just after the name: "NAGLE (20)", "MITCHELL (44.)"."""
    near = "".join(person.itertext()) + (person.tail or "")[:AGE_REACH]
    return re.search(rf"\(\s*\.?{age}\b", near) is not None


AGE_REACH = 30  # characters after the name: "WILLIAM ENNIS **† (28)," prints marks between them


def offences_of(trial: ET.Element) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for rs in trial.iter("rs"):
        if rs.get("type") == "offenceDescription":
            pair = (interp(rs, "offenceCategory"), interp(rs, "offenceSubcategory"))
            if pair[0] and pair not in seen:
                seen.append(pair)
    return seen


def verdict_of(trial: ET.Element) -> tuple[str, str]:
    verdicts = {rs.get("id"): rs for rs in trial.iter("rs") if rs.get("type") == "verdictDescription"}
    chosen: ET.Element | None = None
    for join in trial.iter("join"):
        if join.get("result") == "criminalCharge":
            for target in (join.get("targets") or "").split():
                if target in verdicts:
                    chosen = verdicts[target]
                    break
            if chosen is not None:
                break
    if chosen is None and verdicts:
        chosen = next(iter(verdicts.values()))
    if chosen is None:
        return "", ""
    return interp(chosen, "verdictCategory"), interp(chosen, "verdictSubcategory")


def punishment_of(trial: ET.Element, defendants: list[DefendantRecord], session: dict[str, str]) -> str:
    for rs in trial.iter("rs"):
        if rs.get("type") == "punishmentDescription":
            words = rules.punishment_words(interp(rs, "punishmentCategory"), interp(rs, "punishmentSubcategory"))
            described = text_of(rs).strip(" .,—-")
            if SEE_SUMMARY.match(described):  # "[Transportation. See summary.]": the summary says more
                number = trial_number(trial)
                described = ""
                if number in session:
                    return session[number]
            if words and described and described.lower() != words.lower():
                return f"{words}: {described}"
            return words or described
    number = trial_number(trial)
    if number and number in session:
        return session[number]
    for defendant in defendants:
        if defendant.name.lower() in session:
            return session[defendant.name.lower()]
    return ""


SEE_SUMMARY = re.compile(r"^\[[^\]]*see summary[^\]]*\]?$", re.I)


def trial_number(trial: ET.Element) -> str:
    first = next(trial.iter("p"), None)
    match = re.match(r"[\s+]*(\d+)\s*\.", (first.text or "") if first is not None else "")
    return match.group(1) if match else ""


PUNISHMENT_HEADING = re.compile(
    r"death|transport|whip|branded|burnt in the hand|imprison|pillory|fined|confined|hard labour|navy|army|"
    r"pardon|respited|judgment|sentence",
    re.I,
)


def summary_sentences(root: ET.Element) -> dict[str, str]:
    """From a session's punishmentSummary: trial number and defendant name -> sentence heading."""
    listed: dict[str, str] = {}
    for summary in punishment_summaries(root):
        heading = ""
        for p in summary.iter("p"):
            text = text_of(p)
            persons = [person_name(pn) for pn in p.iter("persName")]
            bare = re.sub(r"[\s,.]*\d+\.?$", "", text).strip()
            if not persons and PUNISHMENT_HEADING.search(bare) and not bare.lower().startswith("the trials"):
                heading = bare
                continue
            if not heading:
                continue
            numbers = re.findall(r"\b(\d+)\b", text)
            for number in numbers[-1:]:
                listed.setdefault(number, heading)
            for person in persons or ([bare] if bare else []):
                listed.setdefault(person.lower(), heading)
    return listed


def year_of(trial: ET.Element, trial_id: str) -> int | None:
    value = interp(trial, "year") or interp(trial, "date")[:4] or trial_id[1:5]
    return int(value[:4]) if value[:4].isdigit() else None
