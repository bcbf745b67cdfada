"""The original record of a trial: its full printed text and its page on Old Bailey Online.

Both are taken before the importer cuts the answer out of the tree, so they hold the real
verdict and sentence. They are for the record only: the verdict page and the transcript
show them after a deliberation's own verdict, the admin shows them to curators, and no
juror, prompt or search index ever receives them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from cases.importers.oldbailey_xml import clean, text_of

# Old Bailey Online addresses each trial by its id: https://www.oldbaileyonline.org/record/t18600402-389
RECORD_URL = "https://www.oldbaileyonline.org/record/{trial_id}"
# The credit SOURCE.md asks for; the template cases/_original_record.html prints it in full.
CREDIT_NAME = "The Old Bailey Proceedings Online, 1674–1913"
_TRIAL_ID = re.compile(r"^t\d{8}-[0-9a-z]+$")


def record_url(trial_id: str) -> str:
    """The trial's page on Old Bailey Online, or "" when the id is not an Old Bailey trial id."""
    return RECORD_URL.format(trial_id=trial_id) if _TRIAL_ID.match(trial_id) else ""


def original_text(trial: ET.Element) -> str:
    """The whole printed text of a trial, one paragraph per line, verdict and sentence included."""
    paragraphs = [p for p in trial if p.tag == "p"]
    if not paragraphs:  # a trial without paragraphs: its text as one block
        return text_of(trial)
    # One whitespace pass over the whole trial (markup carries no text of its own, so itertext
    # reads as text_of does); NUL marks the paragraph breaks through it.
    joined = clean("\x00".join("".join(p.itertext()) for p in paragraphs))
    return "\n\n".join(part.strip() for part in joined.split("\x00") if part.strip())
