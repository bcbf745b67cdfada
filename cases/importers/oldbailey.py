"""Old Bailey Proceedings (OBO XML 7.2 and the Old Bailey Corpus 2.0) to plain trial records.

``parse_file(data, name=..., max_bytes=...)`` takes the bytes of a whole session file, a
single-trial fragment (a bare ``div1`` root, no XML declaration) or an OBC2 file and returns
one ``TrialRecord`` per ``trialAccount``. No Django models are touched here; the service
``cases.services.oldbailey_import_file`` writes the records.

The answer never leaks: every ``verdictDescription`` and ``punishmentDescription`` is read
for the record fields and then removed from the tree, with the paragraph that held it and
everything after it, before any text is taken; the session's ``punishmentSummary`` is read
only into ``historical_punishment``.

Rules (see also ``oldbailey_text`` and ``oldbailey_rules`` for witnesses and evidence):

- Defendants: every ``persName type=defendantName`` is kept, in document order, with its
  gender interp, and its age interp only when the heading prints that age beside the name
  ("MARGARET NAGLE (20)", "WILSON, George (40, postman)", as from the 1850s). Before then the
  Proceedings print a prisoner's age only in the line after a guilty verdict ("Bridget Joyce,
  GUILTY, aged 45."), so an age there would tell the jury the verdict. The title names the
  first ("The Crown v. Mary Smith"), adding "and others" when there are several.
- Charges: one readable line per distinct offence category/subcategory over all counts.
  ``offence_category`` is the first offence's category.
- Verdict: the ``verdictCategory`` of the first ``criminalCharge`` join (the first defendant's
  first count), else the first verdict in the trial. guilty -> guilty, notGuilty ->
  not_guilty; specialVerdict, miscVerdict and anything else -> unknown (the record cannot
  say which way such a finding would have gone for a jury choosing guilty or not guilty).
- Punishment: the first defendant's ``punishmentCategory``/``Subcategory`` in words plus the
  description's own text; when the trial has none and a whole session was imported, the
  heading of the session's ``punishmentSummary`` under which the trial's number or the
  defendant's name is listed.
- Trials without verdict tags: the verdict printed as plain words at the end of the text is
  cut out and read by the rule in ``oldbailey_verdict``; if it cannot be read the trial is
  kept but not playable.
- Every trial, tagged or not: post-verdict words printed without tags ("GUILTY. Aged 18.",
  "Recommended to mercy", "Verdict, both prisoners Guilty", the proof of a former conviction
  from 1837) are cut by the rules in ``oldbailey_answer``; when the tags give no guilty or
  not-guilty verdict, the verdict those words state is the historical verdict.
- Playable: false for a trial naming no defendant, a guilty plea (``verdictSubcategory``
  pleadedGuilty or pleadedPartGuilty, or a plea made during the trial), a trial with no
  testimony, or a verdict that cannot be read; ``unplayable_reason`` says which, in the words of
  ``oldbailey_reasons`` (stored on the case for the curator).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace

from cases.importers import oldbailey_rules as rules
from cases.importers.oldbailey_answer import AnswerCut, cut_untagged_answer
from cases.importers.oldbailey_parties import (
    DefendantRecord,
    defendants_of,
    offences_of,
    punishment_of,
    summary_sentences,
    verdict_of,
    year_of,
)
from cases.importers.oldbailey_points import Heard, trial_points
from cases.importers.oldbailey_reasons import (
    REASON_DEFECT,
    REASON_GUILTY_PLEA,
    REASON_NO_DEFENDANT,
    REASON_NO_EVIDENCE_OFFERED,
    REASON_NO_TESTIMONY,
    REASON_SPECIAL_VERDICT,
    UNPLAYABLE_REASONS,
)
from cases.importers.oldbailey_record import original_text
from cases.importers.oldbailey_text import (
    TrialText,
    is_defence_witness,
    mark_answer_paragraphs,
    split_trial,
    testimony_paragraphs,
)
from cases.importers.oldbailey_verdict import PrintedVerdict, cut_printed_verdict
from cases.importers.oldbailey_xml import (
    ERROR_TOO_COMPLEX,
    ImportFileError,
    clean,
    interp,
    interps,
    parse_bytes,
    person_name,
    strip_answers,
    text_of,
    trial_elements,
)

JURISDICTION = "London, England (Old Bailey)"
NO_TESTIMONY_REASONS = {
    "noEvidence": REASON_NO_EVIDENCE_OFFERED,
    "fault": REASON_DEFECT,
    "insanity": REASON_SPECIAL_VERDICT,
}
ROLE_ACCUSED = "the accused"
GUILTY_PLEAS = frozenset({"pleadedGuilty", "pleadedPartGuilty"})
VERDICTS = {"guilty": "guilty", "notGuilty": "not_guilty"}
MONTHS = ("January February March April May June July August September October November December").split()


@dataclass(frozen=True)
class WitnessRecord:
    name: str
    role: str
    side: str
    testimony: str
    credibility_issues: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvidenceRecord:
    label: str
    type: str
    description: str
    strength_prosecution: float
    strength_defense: float
    contestable: bool = False
    contest_reason: str = ""


@dataclass(frozen=True)
class TrialRecord:
    trial_id: str
    slug: str
    title: str
    summary: str
    charges: tuple[str, ...]
    offence_category: str
    year: int | None
    historical_verdict: str
    verdict_subcategory: str
    historical_punishment: str
    defendants: tuple[DefendantRecord, ...]
    witnesses: tuple[WitnessRecord, ...]
    evidence: tuple[EvidenceRecord, ...]
    difficulty: str
    playable: bool
    unplayable_reason: str
    content_notes: tuple[str, ...]
    defense_arguments: tuple[str, ...] = ()
    jurisdiction: str = JURISDICTION
    original_text: str = ""  # the whole record, answer included: for the record only (oldbailey_record)


@dataclass
class ParsedFile:
    name: str
    trials: list[TrialRecord] = field(default_factory=list)


def slug_for(trial_id: str) -> str:
    return "ob-" + re.sub(r"[^a-z0-9-]+", "-", trial_id.lower()).strip("-")


def parse_file(data: bytes, *, name: str, max_bytes: int) -> ParsedFile:
    """Parse one file into trial records. Raises ``ImportFileError`` naming the file.

    Whatever the input, the only exception is ``ImportFileError``: a pathological tree that
    still exhausts the recursion of the text walkers is reported for this file alone.
    """
    try:
        return _parse_file(data, name=name, max_bytes=max_bytes)
    except RecursionError as exc:
        raise ImportFileError(ERROR_TOO_COMPLEX.format(name=name, reason="recursion limit"), name=name) from exc


def _parse_file(data: bytes, *, name: str, max_bytes: int) -> ParsedFile:
    root = parse_bytes(data, name=name, max_bytes=max_bytes)
    trials = trial_elements(root)
    if not trials:
        raise ImportFileError(f"{name}: no trialAccount found; expected an Old Bailey session or trial.", name=name)
    sentences = summary_sentences(root)
    parsed = ParsedFile(name=name)
    for trial in trials:
        try:
            original = original_text(trial)  # before parse_trial cuts the answer out of the tree
            record = parse_trial(trial, session_sentences=sentences)
            parsed.trials.append(replace(record, original_text=original))
        except (ValueError, KeyError) as exc:
            raise ImportFileError(f"{name}: trial {trial.get('id')!r} could not be read: {exc}", name=name) from exc
    return parsed


def parse_trial(trial: ET.Element, *, session_sentences: dict[str, str] | None = None) -> TrialRecord:
    trial_id = trial.get("id") or ""
    if not trial_id:
        raise ValueError("a trialAccount without an id")
    defendants = defendants_of(trial)
    offences = offences_of(trial)
    verdict_category, verdict_sub = verdict_of(trial)
    tagged_verdict = any(rs.get("type") == "verdictDescription" for rs in trial.iter("rs"))
    punishment = punishment_of(trial, defendants, session_sentences or {})
    victim_names = list(dict.fromkeys(person_name(p) for p in trial.iter("persName") if p.get("type") == "victimName"))
    victims = {v.lower() for v in victim_names}
    crime_dates = [text_of(rs) for rs in trial.iter("rs") if rs.get("type") == "crimeDate"]
    places = [text_of(pl) for pl in trial.iter("placeName") if interp(trial, "type", pl.get("id")) == "crimeLocation"]
    year = year_of(trial, trial_id)

    # From here on the tree no longer holds the answer.
    mark_answer_paragraphs(trial)
    strip_answers(trial)
    names = [d.name for d in defendants]
    printed: PrintedVerdict | None = None
    if not tagged_verdict:  # the verdict may still be printed as plain words at the end
        printed = cut_printed_verdict(testimony_paragraphs(trial), defendants=names)
        punishment = punishment or printed.punishment
    late = cut_untagged_answer(testimony_paragraphs(trial), year=year, defendants=names)
    text = split_trial(trial, victims=victims, defendants=tuple(names))

    witnesses, evidence, issues_p, n_defence = _witnesses_and_evidence(text, [d.name for d in defendants])
    playable, reason = True, ""
    if not defendants:  # a game opens with the accused: nobody to try, nothing to play
        playable, reason = False, REASON_NO_DEFENDANT
    elif verdict_sub in GUILTY_PLEAS:
        playable, reason = False, REASON_GUILTY_PLEA
    elif late.reason:  # a plea during the trial, even when it left no testimony to read
        playable, reason = False, late.reason
    elif not witnesses:
        playable, reason = False, _no_testimony_reason(verdict_sub, late)
    elif printed is not None and printed.reason and late.verdict == "unknown":
        playable, reason = False, printed.reason
    first = defendants[0].name if defendants else "an unnamed defendant"
    title = f"The Crown v. {first}" + (" and others" if len(defendants) > 1 else "")
    charges = tuple(dict.fromkeys(rules.charge_words(c, s) for c, s in offences)) or ("Unspecified offence",)
    return TrialRecord(
        trial_id=trial_id,
        slug=slug_for(trial_id),
        title=title[:300],
        summary=_summary(
            text,
            defendants,
            charges,
            victims=victim_names,
            dates=crime_dates,
            places=places,
            trial_id=trial_id,
            year=year,
        ),
        charges=charges,
        offence_category=offences[0][0] if offences else "",
        year=year,
        historical_verdict=_historical_verdict(verdict_category, printed, late),
        verdict_subcategory=verdict_sub,
        historical_punishment=punishment[:300],
        defendants=tuple(defendants),
        witnesses=tuple(witnesses),
        evidence=tuple(evidence),
        difficulty=rules.difficulty(evidence=list(evidence), defence_witnesses=n_defence, prosecution_issues=issues_p),
        playable=playable,
        unplayable_reason=reason,
        content_notes=tuple(rules.content_notes(offences)),
        defense_arguments=tuple(d[:2000] for d in text.defence),
    )


def _no_testimony_reason(verdict_sub: str, late: AnswerCut) -> str:
    """Why a trial without testimony cannot be played, as precisely as the record says."""
    if verdict_sub in NO_TESTIMONY_REASONS:
        return NO_TESTIMONY_REASONS[verdict_sub]
    if re.search(r"offered\s+no\s+evidence|no\s+evidence\s+(?:was\s+)?offered", late.text, re.IGNORECASE):
        return REASON_NO_EVIDENCE_OFFERED
    if re.search(r"insane|not\s+fit\s+to\s+(?:plead|take)|unfit\s+to\s+plead", late.text, re.IGNORECASE):
        return REASON_SPECIAL_VERDICT
    return REASON_NO_TESTIMONY


def _historical_verdict(category: str, printed: PrintedVerdict | None, late: AnswerCut) -> str:
    """The tagged verdict; else the verdict printed as words, wherever the record states it."""
    if category in VERDICTS:
        return VERDICTS[category]
    if printed is not None and printed.verdict != "unknown":
        return printed.verdict
    if category and category not in VERDICTS:
        return "unknown"  # a special or miscellaneous verdict stays unknown, whatever words surround it
    return late.verdict


WORDS_BEYOND_ROLE = re.compile(r"\([^)]*\)")


def _witnesses_and_evidence(
    text: TrialText, defendants: list[str]
) -> tuple[list[WitnessRecord], list[EvidenceRecord], int, int]:
    """Witness and evidence records; a defendant giving evidence (allowed from 1898) speaks for the defence."""
    accused = {name.lower() for name in defendants}
    witnesses: list[WitnessRecord] = []
    evidence: list[EvidenceRecord] = []
    prosecution_issues = defence_count = 0
    for draft in text.witnesses:
        testimony = clean(" ".join(draft.parts))
        if not WORDS_BEYOND_ROLE.sub("", testimony).strip(" .,;:-—"):
            continue  # nothing said beyond "(police-constable K 363.)": the rest was cut as the answer
        own_words = draft.accused or draft.name.lower() in accused
        defence = own_words or is_defence_witness(draft, testimony)
        issues = rules.credibility_issues(testimony)
        role = rules.witness_role(testimony=testimony, is_victim=draft.is_victim, defence=defence)
        witnesses.append(
            WitnessRecord(
                name=draft.name[:200],
                role=ROLE_ACCUSED if own_words else role,
                side="defense" if defence else "prosecution",
                testimony=testimony,
                credibility_issues=tuple(issues),
            )
        )
        if defence:
            defence_count += 1
        else:
            prosecution_issues += len(issues)
        drafts = rules.evidence_from(
            witness=draft.name,
            testimony=testimony,
            defence=defence,
            issues=issues,
            accused=defendants[0] if len(defendants) == 1 else "",
            own_words=own_words,
        )
        for item in drafts:
            evidence.append(EvidenceRecord(**item.__dict__))
    heard = [Heard(name=w.name, side=w.side, testimony=w.testimony, accused=w.role == ROLE_ACCUSED) for w in witnesses]
    drafts = trial_points(heard, tuple(text.defence), defended=text.defended)
    points = [EvidenceRecord(**item.__dict__) for item in drafts]
    return witnesses, points + evidence, prosecution_issues, defence_count


def _summary(
    text: TrialText,
    defendants: list[DefendantRecord],
    charges: tuple[str, ...],
    *,
    victims: list[str],
    dates: list[str],
    places: list[str],
    trial_id: str,
    year: int | None,
) -> str:
    who = ", ".join(_describe(d) for d in defendants) or "An unnamed defendant"
    verb = "are" if len(defendants) > 1 else "is"
    parts = [f"{who} {verb} accused of {'; '.join(c.lower() for c in charges)}."]
    if dates:
        parts.append(
            f"The offence is said to have taken place on {dates[0]}" + (f" at {places[0]}." if places else ".")
        )
    elif places:
        parts.append(f"The place named is {places[0]}.")
    if victims:
        parts.append(f"Named as victim: {', '.join(victims)}.")
    session = _session_words(trial_id, year)
    if session:
        parts.append(f"Tried at the Old Bailey, {session}.")
    opening = re.sub(r"^\s*\d+\.\s*\+?\s*", "", " ".join(text.opening)).strip()
    if opening:
        parts.append(f"The indictment reads: {opening[:1200]}")
    return " ".join(parts)


def _describe(defendant: DefendantRecord) -> str:
    extra = [
        w
        for w in (
            defendant.gender if defendant.gender != "unknown" else "",
            f"aged {defendant.age}" if defendant.age else "",
        )
        if w
    ]
    return f"{defendant.name} ({', '.join(extra)})" if extra else defendant.name


def _session_words(trial_id: str, year: int | None) -> str:
    match = re.match(r"t(\d{4})(\d{2})(\d{2})", trial_id)
    if not match:
        return str(year or "")
    month = int(match.group(2))
    return f"{MONTHS[month - 1]} {match.group(1)}" if 1 <= month <= 12 else match.group(1)


__all__ = [
    "UNPLAYABLE_REASONS",
    "ImportFileError",
    "ParsedFile",
    "TrialRecord",
    "interps",
    "parse_file",
    "parse_trial",
    "slug_for",
]
