"""Why the importer keeps a trial for the record but not for play, in words a curator reads.

Each imported case that cannot be played stores one of these in ``Case.unplayable_reason``;
the admin lists and filters the cases by it, and the import summary counts them. A trial is
kept unplayable when it gives a jury nothing to decide (a guilty plea, no testimony), when it
has nobody to try, or when its verdict cannot be read (so the answer cannot be told apart from
what the jurors may read).
"""

from __future__ import annotations

REASON_NO_DEFENDANT = "no defendant named in the record"
REASON_GUILTY_PLEA = "guilty plea"
REASON_PLEA_DURING_TRIAL = "guilty plea during the trial"
REASON_NO_TESTIMONY = "no testimony: the record prints only the charge and the outcome"
REASON_NO_EVIDENCE_OFFERED = "no testimony: the prosecution offered no evidence"
REASON_DEFECT = "no testimony: acquitted for a defect in the indictment or the evidence"
REASON_SPECIAL_VERDICT = "no testimony: the jury found the prisoner insane or unfit to plead"
REASON_NO_VERDICT = "no verdict in the record"
REASON_UNREADABLE_VERDICT = "the printed verdict could not be read"

# Every reason the importer gives, in the order the admin's filter lists them.
UNPLAYABLE_REASONS = (
    REASON_GUILTY_PLEA,
    REASON_PLEA_DURING_TRIAL,
    REASON_NO_TESTIMONY,
    REASON_NO_EVIDENCE_OFFERED,
    REASON_DEFECT,
    REASON_SPECIAL_VERDICT,
    REASON_NO_VERDICT,
    REASON_UNREADABLE_VERDICT,
    REASON_NO_DEFENDANT,
)
