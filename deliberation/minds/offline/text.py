"""The offline engine's handling of the case file's own words.

Quoting a file well is most of what makes the offline jurors read as people: whole sentences,
never a fragment that stops on "Mr." or "where she", never a witness's job title passed off as
testimony, and labels that sit inside a sentence without a stray capital. Phrase choice avoids
what the room has just heard, so a juror does not repeat the last speaker's sentence.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache

from deliberation.engine.types import CaseFile

# A period after one of these does not end a sentence (compared without the period, lower case).
ABBREVIATIONS = frozenset(
    "mr mrs ms dr st no nos capt sgt lt col gen rev prof jr sr esq messrs det insp supt hon mt ft vs viz "
    "cf approx dept co corp inc ltd wm jas thos chas geo jno".split()
)
# A quote that ends on one of these has stopped mid-clause.
DANGLING = frozenset(
    "a an the of to in on at by for with from into upon about as than and or but nor that which who whom "
    "whose where when while because if though although whether unless until since after before i he she "
    "they we you was were is are be been being had has have would could should will shall did do does not "
    "very my his her their our your its this these those said says saying".split()
)
# Words that make a line a clause rather than a job title.
VERBS = frozenset(
    "is was were are am be been being has had have do did does saw seen see heard hear said says say told "
    "tell found find went go came come took take gave give knew know left leave got get ran run made make "
    "kept keep put thought think believe believed swore swear can could will would shall should may might "
    "must cannot identified identifies found stated states testified testifies confirmed confirms admits "
    "admitted denies denied describes described classifies classified recalls recalled noticed notices "
    "arrived arrives arrested arrests examined examines concluded concludes".split()
)
DETERMINERS = frozenset("a an the his her their its my our your this that these those some no".split())
SUBJECTS = frozenset("i he she they we you it".split())
QUOTE_WORDS = 28
MIN_QUOTE_WORDS = 5
OLD_STYLE_CAPITALS = 0.15  # share of distinct mid-sentence words capitalised, above which a text is old style
STALE_CHUNK = 4  # a template's fixed text this long, heard lately, makes the template stale

_SPLIT = re.compile(r"[.!?][\"'’”)\]]*\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def squash(text: str) -> str:
    return " ".join(text.split())


def _last_token(text: str) -> str:
    words = text.split()
    return words[-1].strip("\"'’”([“‘") if words else ""


def split_sentences(text: str) -> list[str]:
    """Sentences, breaking only where a sentence really ends: not after "Mr.", "No.", an initial
    such as "J." or an Old Bailey "l." / "s." (pounds, shillings), nor before a lower-case word."""
    text = squash(text)
    out: list[str] = []
    start = 0
    for match in _SPLIT.finditer(text):
        stop = match.start() + 1
        if text[match.start()] == ".":
            word = _last_token(text[start:stop]).rstrip(".").lower()
            if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        after = text[match.end() : match.end() + 1]
        if after and not (after.isupper() or after.isdigit() or after in "\"'‘“("):
            continue
        out.append(text[start : match.end()].strip())
        start = match.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def ends_dangling(fragment: str) -> bool:
    """True for a quote that stops mid-clause: on "Mr.", an initial, "where she", "and", or "..."."""
    text = fragment.strip()
    if not text or text.endswith(("...", "…", ",", ";", ":", "-")):
        return True
    last = _last_token(text).rstrip(".!?\"'’”)")
    low = last.lower()
    if text.endswith(".") and (low in ABBREVIATIONS or (len(low) == 1 and low.isalpha() and low not in "ai")):
        return True
    return low in DANGLING


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def has_verb(sentence: str) -> bool:
    words = _words(sentence)
    lowered = [w.lower() for w in words]
    if any(w in VERBS for w in lowered[1:]) or any(w in SUBJECTS for w in lowered):
        return True
    if any(len(w) > 4 and w.endswith("ed") for w in lowered[1:]):
        return True
    # A line led by a verb ("Classifies the spots...", "Heard a thud...") is testimony too; a line led by an
    # adjective ("Retired schoolteacher, 78") is not: the verb is followed by a determiner or a name.
    if len(words) > 1 and (lowered[0] in VERBS or lowered[0].endswith(("s", "ed"))):
        return lowered[1] in DETERMINERS or lowered[1] in SUBJECTS or words[1][:1].isupper()
    return False


def role_like(sentence: str, role: str = "") -> bool:
    """A job description, not testimony: no verb, very short, or just the witness's role."""
    words = _words(sentence)
    if len(words) < MIN_QUOTE_WORDS:
        return True
    if role and squash(sentence).rstrip(".").lower() == role.strip().lower():
        return True
    return not has_verb(sentence)


def clean_line(sentence: str) -> str:
    """An Old Bailey answer loses its "A." and a question by counsel is not testimony."""
    sentence = re.sub(r"^A\.\s+", "", sentence.strip())
    sentence = re.sub(r"\s+-+$", ".", sentence)
    return sentence


def clip(sentence: str, limit: int = QUOTE_WORDS) -> str:
    """A long sentence cut at the last clause boundary within ``limit`` words that leaves a
    complete clause; "" when there is none."""
    words = sentence.split()
    if len(words) <= limit:
        return sentence
    head = " ".join(words[:limit])
    for match in sorted(re.finditer(r"[;:,]\s|\s[-–—]\s", head), key=lambda m: -m.start()):
        piece = head[: match.start()].rstrip(" ,;:-–—")
        if len(piece.split()) >= MIN_QUOTE_WORDS + 1 and not ends_dangling(piece) and not left_open(piece):
            return piece + "."
    return ""


# Words that open a clause of their own, which needs its own verb before the sentence may stop.
SUBORDINATORS = frozenset(
    "that which who whom because when where if whether unless although though while since".split()
)
# "..., pointed at its own side door": a participle set off by a comma is an aside, not the verb.
_ASIDE = re.compile(r",\s+[a-z]+ed\b")
_PARENTHESIS = re.compile(r"\b(?:and|but|or)\s*,\s*[^,]*$")


def _verbal(words: Sequence[str]) -> bool:
    return any(w in VERBS or w in SUBJECTS or (len(w) > 4 and w.endswith("ed")) for w in words)


def left_open(piece: str) -> bool:
    """Whether a sentence cut at a comma leaves a clause without its verb: "NFPA 921 states that
    irregular floor patterns" (the verb of "that ..." was after the cut), "the owner's birth year
    and, according to the night manager" (cut inside an aside), "Camera on the laundromat next
    door, pointed at its own side door" (the only verb an aside's participle)."""
    low = [w.lower().strip("\"'’”“‘()") for w in piece.split()]
    last = max((i for i, w in enumerate(low) if w in SUBORDINATORS), default=-1)
    if last >= 0 and not _verbal(low[last + 1 :]):
        return True
    if _PARENTHESIS.search(piece):
        return True
    plain = _ASIDE.sub(",", piece)
    return plain != piece and not _verbal([w.lower() for w in _words(plain)])


def quotes(text: str, *, role: str = "", limit: int = QUOTE_WORDS, most: int = 4) -> tuple[str, ...]:
    """Up to ``most`` quotable lines of ``text``: whole substantive sentences first, then long
    ones clipped at a clause boundary. Never a job title, a question by counsel or a fragment."""
    whole: list[str] = []
    clipped: list[str] = []
    for raw in split_sentences(text):
        if raw.startswith("Q.") or raw.endswith("?"):
            continue
        sentence = clean_line(raw)
        if not sentence or role_like(sentence, role):
            continue
        if sentence[-1] not in ".!":
            sentence += "."
        if len(sentence.split()) <= limit:
            if not ends_dangling(sentence):
                whole.append(sentence)
        else:
            short = clip(sentence, limit)
            if short:
                clipped.append(short)
    found = [s[:1].upper() + s[1:] for s in whole + clipped]
    return tuple(found[:most])


def first_sentence(text: str, limit: int = QUOTE_WORDS) -> str:
    """The first quotable line of ``text`` (a summary, a defence argument), whole or clipped at a clause."""
    found = quotes(text, limit=limit, most=1)
    if found:
        return found[0]
    sentence = split_sentences(text)[0] if text.strip() else ""
    return (clip(sentence, limit) or sentence).strip()


@lru_cache(maxsize=256)
def proper_words(case: CaseFile) -> frozenset[str]:
    """Words the file treats as names: parts of people's names, and words written with a capital
    mid-sentence but never in lower case."""
    names = {part for w in case.witnesses for part in _words(w.name)}
    names |= {part for d in case.defendants for part in _words(d.name)}
    texts = [case.summary, *(e.description for e in case.evidence), *(w.testimony for w in case.witnesses)]
    capital: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        sentences = [_words(sentence)[1:] for sentence in split_sentences(text)]
        words = [w for sentence in sentences for w in sentence]
        upper = {w.lower() for w in words if w[:1].isupper()}
        lower |= {w.lower() for w in words if not w[:1].isupper()}
        # Old Bailey clerks capitalised common nouns ("the Coach", "the Pistol"): such a text says nothing
        # about which words are names, but for a run of them ("Detective Ray Boyer"), a name whatever the text.
        if len(upper) <= OLD_STYLE_CAPITALS * max(1, len(set(w.lower() for w in words))):
            capital |= upper
        for sentence in sentences:
            capital |= {
                w.lower()
                for i, w in enumerate(sentence)
                if w[:1].isupper()
                and any(
                    0 <= j < len(sentence) and sentence[j][:1].isupper() and sentence[j] != "I" for j in (i - 1, i + 1)
                )
            }
    return frozenset({n.lower() for n in names} | (capital - lower))


ABBREVIATION_STOP = re.compile(r"(?:\b[ap]\.m|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|No|etc|Co|Inc|Ltd|[A-Z]))\.$")


def unstopped(text: str) -> str:
    """A sentence without its full stop, to sit mid-sentence: "... at 10:04 p.m." keeps the stop of
    its abbreviation, and a quotation keeps its own stop only where the sentence ends ("'I was just
    driving around.'" -> "'I was just driving around'")."""
    text = text.rstrip()
    while text.endswith(".") and not ABBREVIATION_STOP.search(text):
        text = text[:-1].rstrip()
    return re.sub(r"(?<![.])\.(['’”\"])$", r"\1", text)


def fit(text: str, case: CaseFile | None = None) -> str:
    """A label or reason fitted mid-sentence: its first letter lowered unless it starts with a
    name, an acronym or a word the file always capitalises."""
    text = unstopped(squash(text))
    first = text.split(" ", 1)[0] if text else ""
    bare = re.sub(r"['’]s$", "", first.strip("'\"‘“(").rstrip(",:;"))
    if (
        not bare
        or (len(bare) > 1 and bare.isupper())
        or any(ch.isdigit() for ch in bare)
        or bare == "I"
        or bare.startswith("I'")
    ):
        return text
    if any(ch.isupper() for ch in bare[1:]):
        return text
    if case is not None and bare.lower() in proper_words(case):
        return text
    return text[:1].lower() + text[1:]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# The importer's credibility tags, as a clause about the witness ({who}).
ISSUE_CLAUSES: dict[str, tuple[str, ...]] = {
    "admits having been drinking": ("{who} admits having been drinking", "{who} had been drinking"),
    "did not see clearly": ("{who} did not see clearly", "{who} couldn't see properly", "{who} never saw it clearly"),
    "uncertain or will not swear": ("{who} would not swear to it", "{who} wasn't certain", "{who} wouldn't be sure"),
    "related to or close to the accused": ("{who} is close to the accused", "{who} is no stranger to the accused"),
    "earlier statement differs": ("{who} told it differently before", "{who}'s earlier statement differs"),
    "gaps in memory": (
        "{who} cannot remember parts of it",
        "{who}'s memory has gaps",
        "{who} forgot things that matter",
    ),
    "interest in the outcome": ("{who} has an interest in the outcome", "{who} stands to gain from a conviction"),
}
_LEADING_VERBS = ("did ", "was ", "is ", "has ", "had ", "admits", "never ", "could", "cannot", "would", "will ")


REPORTING_VERBS = frozenset(
    "cites shows says records notes lists finds concludes states reports describes concedes acknowledges agrees "
    "accepts admits denies".split()
)


# Past tenses that end on neither "ed" nor "s" ("Wrote his conclusion before the lab results came back").
IRREGULAR_PAST = frozenset(
    "chose wrote drove spoke bought sold brought caught taught fought sought held felt slept lost paid met led fled "
    "hid rode rose stole struck threw wore won ate fell forgot began sent spent lent built meant".split()
)


def verb_led(clause: str) -> bool:
    """A clause that starts on its verb, its subject left out ("Concludes the fire was incendiary",
    "Collected the alarm log"); "Gas chromatography found gasoline" is not one."""
    found = clause.split()
    if len(found) < 2 or not found[0][:1].isupper() or not found[0][1:].islower():
        return False
    first, second = found[0].lower(), found[1].lower().strip(",'\"‘“")
    if first in REPORTING_VERBS:
        return True
    if first in VERBS or first in IRREGULAR_PAST or first.endswith(("ied", "ed")):
        return second not in VERBS
    return first.endswith("s") and not first.endswith("ss") and (second in DETERMINERS or second in SUBJECTS)


_SUBJECTLESS = re.compile(r";\s+(?=([a-z]+)\b)")


def mend(piece: str) -> str:
    """A second clause that leaves its subject out after a semicolon ("never visited the scene;
    worked from photographs") joined to the first with "and", which lends it the first's subject."""

    def join(match: re.Match[str]) -> str:
        word = match.group(1)
        return " and " if word in VERBS or (word.endswith("ed") and len(word) > 4) else match.group(0)

    return _SUBJECTLESS.sub(join, piece)


def with_subject(clause: str, who: str) -> str:
    """A clause of a witness's issues that leaves the witness out, with the witness put in ("Says 'I
    think' and concedes ..." -> "Tom Ibsen says 'I think' and concedes ...", "Unsure whether ..." ->
    "Ruth Adeyemi was unsure whether ..."); any other clause as it is."""
    if verb_led(clause):
        return f"{who} {clause[:1].lower()}{clause[1:]}"
    found = clause.split()
    first = found[0].lower() if found else ""
    if len(found) > 2 and found[1].lower() in SUBORDINATORS and first not in DETERMINERS | SUBJECTS:
        if found[0][1:].islower() and not first.endswith(("ed", "s")):
            return f"{who} was {clause[:1].lower()}{clause[1:]}"
    return clause


def issue_clause(issue: str, who: str, case: CaseFile | None = None, rng: random.Random | None = None) -> str:
    """One credibility issue as a clause: a tag becomes "Mary Dunn did not see clearly", a
    sentence from the file stays as written."""
    text = mend(squash(issue).rstrip("."))
    low = text.lower()
    if low in ISSUE_CLAUSES:
        return (rng or random.Random(0)).choice(ISSUE_CLAUSES[low]).format(who=who)
    if low.startswith(_LEADING_VERBS):
        return f"{who} {low[:1]}{text[1:]}"
    subject = with_subject(text, who)
    if subject != text:
        return subject
    if has_verb(text) and len(text.split()) >= 4:
        return fit(text, case)
    return f"the file notes {fit(text, case)}"


def join_clauses(clauses: Sequence[str]) -> str:
    clauses = [c for c in clauses if c]
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def issues_text(issues: Sequence[str], who: str, case: CaseFile | None, rng: random.Random) -> str:
    """One or two of a witness's issues, phrased and joined as a person would say them."""
    pool = [i for i in issues if i.strip()]
    if not pool:
        return ""
    chosen = rng.sample(pool, k=min(len(pool), 2 if len(pool) > 1 and rng.random() < 0.4 else 1))
    clauses = [issue_clause(i, who, case, rng) for i in chosen]
    if len(clauses) == 2 and clauses[0].startswith(who + " ") and clauses[1].startswith(who + " "):
        return f"{clauses[0]} and {clauses[1][len(who) + 1 :]}"  # "X did not see clearly and would not swear"
    return join_clauses(clauses)


def reason_text(reason: str, case: CaseFile | None, rng: random.Random) -> str:
    """A contest reason: a tag list from the importer ("Did not see clearly; Gaps in memory")
    becomes a clause about the witness, a sentence from the file is fitted mid-sentence."""
    parts = [p.strip() for p in reason.split(";") if p.strip()]
    if parts and all(p.lower() in ISSUE_CLAUSES for p in parts):
        return issues_text(parts, "the witness", case, rng)
    return fit(reason, case)


def literal_chunks(template: str) -> list[str]:
    """A template's fixed words, in pieces long enough to recognise ("Amen," counts, ". " does not)."""
    chunks = (c.strip(" .,;:?!").lower() for c in re.split(r"\{[^}]*\}", template))
    return [c for c in chunks if len(c) >= STALE_CHUNK]


def _said(chunk: str, low: str) -> bool:
    """Whether ``chunk`` was said as words (so "amen" is not found inside "amend")."""
    before = r"(?<!\w)" if chunk[0].isalnum() else ""
    after = r"(?!\w)" if chunk[-1].isalnum() else ""
    return re.search(before + re.escape(chunk) + after, low) is not None


def fresh(options: Sequence[str], rng: random.Random, heard: str) -> str:
    """One of ``options``, avoiding those whose fixed words the room has just heard."""
    low = " ".join(heard.lower().split())
    unheard = [o for o in options if not any(_said(chunk, low) for chunk in literal_chunks(o))]
    return rng.choice(unheard or list(options))
