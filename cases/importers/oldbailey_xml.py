"""Safe loading of Old Bailey XML and the small element helpers the importer needs.

Parsing goes through defusedxml with DTDs, entity declarations and external references all
forbidden: an import file is untrusted (it may come from an admin upload), so XXE, entity
expansion bombs and DTD fetches are refused before anything is read. Every refusal or
parse failure is an ``ImportFileError`` that names the file (and the line when known).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

ERROR_TOO_LARGE = (
    "{name}: the file is {size:,} bytes, over the import limit of {limit:,} bytes (ANGRY_IMPORT_MAX_BYTES)."
)
ERROR_MALFORMED = "{name}: malformed XML at line {line}, column {column}: {reason}."
ERROR_FORBIDDEN = (
    "{name}: refused unsafe XML ({reason}); DTDs, entity declarations and external references are not allowed."
)
ERROR_NO_TRIALS = "{name}: no trialAccount found; expected an Old Bailey session file or a single-trial fragment."
ERROR_EMPTY = "{name}: the file is empty."
ERROR_TOO_DEEP = (
    "{name}: elements are nested more than {limit:,} deep; an Old Bailey file nests about 10 deep, "
    "so this is not one (refused before reading it)."
)
ERROR_TOO_COMPLEX = "{name}: the XML is too deeply nested or pathological to read ({reason})."
# Real Proceedings nest about 10 elements deep; the text walkers recurse once per level.
MAX_DEPTH = 200

# Elements whose text is the answer; removed from every trial before any text is taken.
ANSWER_TYPES = frozenset({"verdictDescription", "punishmentDescription"})


class ImportFileError(Exception):
    """A file that cannot be imported; the message names the file (and the line if known)."""

    def __init__(self, message: str, *, name: str, line: int | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.line = line


def parse_bytes(data: bytes, *, name: str, max_bytes: int) -> ET.Element:
    """Parse ``data`` safely and return the root element.

    Raises ``ImportFileError`` for oversize, empty, malformed or hostile input.
    """
    if len(data) > max_bytes:
        raise ImportFileError(ERROR_TOO_LARGE.format(name=name, size=len(data), limit=max_bytes), name=name)
    if not data.strip():
        raise ImportFileError(ERROR_EMPTY.format(name=name), name=name)
    try:
        root = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ImportFileError(ERROR_FORBIDDEN.format(name=name, reason=type(exc).__name__), name=name) from exc
    except ET.ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(":")[0]
        message = ERROR_MALFORMED.format(name=name, line=line, column=column, reason=reason)
        raise ImportFileError(message, name=name, line=line) from exc
    if _deeper_than(root, MAX_DEPTH):
        raise ImportFileError(ERROR_TOO_DEEP.format(name=name, limit=MAX_DEPTH), name=name)
    return root


def _deeper_than(root: ET.Element, limit: int) -> bool:
    """Whether any element sits more than ``limit`` levels below the root (walked without recursion)."""
    stack: list[tuple[ET.Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in el)
    return False


def trial_elements(root: ET.Element) -> list[ET.Element]:
    """Every ``div1 type=trialAccount`` in a session file, or the root itself for a fragment."""
    if root.tag == "div1" and root.get("type") == "trialAccount":
        return [root]
    return [el for el in root.iter("div1") if el.get("type") == "trialAccount"]


def punishment_summaries(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter("div1") if el.get("type") == "punishmentSummary"]


def interp(el: ET.Element, kind: str, inst: str | None = None) -> str:
    """The value of the first ``interp type=kind`` under ``el`` (for ``inst`` if given)."""
    for child in el.iter("interp"):
        if child.get("type") == kind and (inst is None or child.get("inst") == inst):
            return child.get("value", "")
    return ""


def interps(el: ET.Element, kind: str, inst: str | None = None) -> list[str]:
    return [
        child.get("value", "")
        for child in el.iter("interp")
        if child.get("type") == kind and (inst is None or child.get("inst") == inst)
    ]


def strip_answers(trial: ET.Element) -> None:
    """Remove verdict and punishment descriptions (text and tail kept apart) in place.

    The tail of a removed element is kept so that the surrounding sentence stays intact.
    """
    for parent in list(trial.iter()):
        for child in list(parent):
            if child.get("type") in ANSWER_TYPES:
                _remove_keep_tail(parent, child)


def _remove_keep_tail(parent: ET.Element, child: ET.Element) -> None:
    tail = child.tail or ""
    index = list(parent).index(child)
    if index == 0:
        parent.text = (parent.text or "") + tail
    else:
        prev = parent[index - 1]
        prev.tail = (prev.tail or "") + tail
    parent.remove(child)


_PUNCT_AFTER_SPACE = ",.;:!?)"  # marks that take no space before them


def clean(text: str) -> str:
    """Collapse whitespace the XML pretty-printing left, and tidy spaces before punctuation.

    Plain string operations rather than regexes (three times faster): once every run of whitespace
    is one space, a space before a mark is one replacement per mark.
    """
    text = " ".join(text.split())
    for mark in _PUNCT_AFTER_SPACE:
        text = text.replace(" " + mark, mark)
    return text


def text_of(el: ET.Element, *, skip: frozenset[str] = frozenset({"interp", "join"})) -> str:
    """Plain text of ``el`` without the markup elements named in ``skip`` (their tails kept)."""
    return clean("".join(_walk_text(el, skip, top=True)))


def _walk_text(el: ET.Element, skip: frozenset[str], *, top: bool) -> Iterator[str]:
    if el.tag in skip and not top:
        yield el.tail or ""
        return
    if el.tag == "lb":  # a printed line break inside a word ("Bar<lb/>tholomew")
        yield el.tail or ""
        return
    yield el.text or ""
    for child in el:
        yield from _walk_text(child, skip, top=False)
    if not top:
        yield el.tail or ""


def person_name(el: ET.Element) -> str:
    """A persName's display name: given + surname from its interps, else its text, title-cased."""
    given = interp(el, "given", el.get("id"))
    surname = interp(el, "surname", el.get("id"))
    raw = f"{given} {surname}".strip() if (given or surname) else text_of(el)
    return titlecase(raw)


# Printing debris around a name: a comma between given name and surname ("Elizabeth, Deeks"),
# a stray quote or dash at either end ("William Dickenson '", "- Holland").
_NAME_COMMA = re.compile(r"\s*,\s*")
_NAME_EDGES = " .,;:'’\"“”-—*"
_STRAY_SYLLABLE = re.compile(r"^([a-z]{1,3})\s+(?=[A-Z])")
NAME_PARTICLES = frozenset({"de", "da", "di", "du", "la", "le", "van", "von", "del", "der"})


def titlecase(name: str) -> str:
    """'PATRICK HALPIN' -> 'Patrick Halpin'; mixed-case names are kept as written; debris trimmed."""
    name = _NAME_COMMA.sub(" ", clean(name)).strip(_NAME_EDGES)
    stray = _STRAY_SYLLABLE.match(name)
    if stray and stray.group(1) not in NAME_PARTICLES:  # the end of a word broken over a line ("na BOLTON")
        name = name[stray.end() :]
    if name.isupper():  # each part of a double name too: "JOSIAH-WILLIAM WHITE" -> "Josiah-William White"
        return " ".join("-".join(_title_word(piece) for piece in part.split("-")) for part in name.split(" "))
    return name


def _title_word(word: str) -> str:
    if word.startswith("MC"):
        return "Mc" + word[2:].capitalize()
    if word[1:2] in {"'", "’"} and len(word) > 2:  # O'BRIEN -> O'Brien
        return word[:2].upper() + word[2:].capitalize()
    return word.capitalize()
