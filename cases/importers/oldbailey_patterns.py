"""The printed patterns of an Old Bailey report: how a defence opens, who is counsel, a witness
named by rank or title, the prisoner speaking, the character evidence, the headings that are no
witness. Below ``oldbailey_text``, which splits a trial's paragraphs with them.
"""

from __future__ import annotations

import re

# "The Prisoner, in his defence", "Manyon in her defence", "Baldwin, in his statement before the Magistrate",
# "Bennett's defence", "SEVILLE's Defence" (1826), "Webster's Statement before the Magistrate." (1879), "The
# prisoner, in a written defence, complained" (1895), "Adams produced a written defence" (1887): a capitalised
# name (never a stock word) or "the prisoner(s)", then the defence.
REPORTED_DEFENCE = (
    r"|^[\[(]?(?:the\s+)?(?:prisoners?|defendants?|(?!(?-i:The|This|That|Such|His|Her|Their|No|For|In|Of|Evidence"
    r"|Witness(?:es)?|He|She|It|I|We|They|You|My|Your|Our|Its|A|An|Counsel|Court|COURT|THE)\b)(?-i:[A-Z][A-Za-z'’]+))"
    r"(?:'s|s'|’s)?(?:,?\s+in\s+(?:his|her|their|a\s+written)\s+(?:defen[cs]e|statements?)\b|\s+defen[cs]e\b"
    r"|\s+statements?\s+before\s+the\s+magistrate\b"
    r"|\s+(?:produced|handed\s+in|read|put\s+in)\s+a\s+(?:written\s+)?(?:defen[cs]e|statement)\b)"
)

# The prisoner's defence however it is printed: their own words ("Prisoner's Defence. I went into the
# public-house", "The prisoner's statement: ..."), or reported by the printer from the 1870s, after a comma
# or under the prisoner's name ("The Prisoner, in his defence, on oath, said that the prosecutrix followed",
# 1900; "Manyon in her defence stated that", 1887; "Baldwin, in his statement before the Magistrate and in
# his defence, said", 1895; "Bennett's defence. I know nothing about the watch", 1895; "Prisoner, not on oath,
# said that he found the bag", the twentieth century's unsworn statement from the dock).
DEFENCE_STATEMENT = re.compile(
    r"^(\[?The )?(prisoner|defendant)('s|s')? (defen[cs]e|statement|made|put in|said|in (his|her) defen[cs]e)"
    r"|^(prisoner|defendant)('s|s')? defen[cs]e"
    r"|^(?:the )?(?:prisoner|defendant)s? (?:produced|handed in|read) a (?:written )?(?:defen[cs]e|statement)"
    r"|^(?:the )?(?:prisoner|defendant),?\s*\(?(?:not\s+)?(?:on|upon)\s+oath\)?,?\s+"
    r"(?:said|stated|denied|declared|made|gave)" + REPORTED_DEFENCE,
    re.IGNORECASE,
)
# A report of the defence opening a sentence inside a paragraph: "Brooks received a good character. Rudd in
# his defence stated that Brooks had given him the flour" (1887), also after a quotation's close ('... the
# same." Wilson in his statement before the Magistrate said', 1887), never after a title ("Mr. Smith's").
DEFENCE_WITHIN = re.compile(
    r"(?:(?<=[.!?;:])|(?<=[.!?;:][\"”’)]))(?<!\bMr\.)(?<!\bMrs\.)(?<!\bDr\.)(?<!\bSt\.)\s+(?="
    + REPORTED_DEFENCE[2:]
    + ")",
    re.IGNORECASE,
)
# The prisoner's statement before the magistrate, read at the trial ("Webster's Statement before the
# Magistrate.", 1879).
MAGISTRATE_STATEMENT = re.compile(r"\bstatements?\s+before\s+the\s+magistrate", re.IGNORECASE)
DEFENCE_MARKER = re.compile(
    r"(witness(es)? for the defen[cs]e|evidence for the defen[cs]e|for the prisoner\b|called for the defen[cs]e"
    r"|^\(?the prisoner called|^\(?(the )?defen[cs]e\.?\)?$"
    r"|^\(?witness(?:es)? for (?-i:[A-Z])[\w'’-]+\.?\)?$)",  # "Witnesses for Stannard." (1879)
    re.IGNORECASE,
)
# Counsel opening the defence's evidence: "MR. PRENDERGAST called RICHARD CHANDLER. I remember the day"
# (t18400406-1072), "MR. PLATT called the following witnesses." The Proceedings print the prosecution's
# witnesses one after another; a witness counsel is said to call is the prisoner's (20 in the shared data).
COUNSEL_CALLED = re.compile(r"\b(?:MR|MESSRS|SIR|SERJEANT)\.?\s+[A-Z][A-Z'\-]+\.?\s+called\b")
# "He bore a good character" (1830s), "an excellent character" and "a thoroughly honest man" (1900s).
GOOD_CHARACTER = re.compile(
    r"(?:good|excellent|exemplary|irreproachable|high) character|bore a (very )?good|borne a (very )?good"
    r"|honest(y)?,? (and )?sober|thoroughly (?:honest|respectable|trustworthy|straightforward)"
    r"|honest and (?:trustworthy|straightforward|industrious|respectable|upright)",
    re.I,
)
# A witness who opens with the office that brought them to court for the prosecution.
PROSECUTION_CALLING = re.compile(
    r"I am (?:a |an )?(?:police[- ]?constable|policeman|constable|watchman|patrol|headborough|beadle|pawnbroker"
    r"|inspector of (?:the )?police|police[- ]inspector|(?:police[- ])?(?:serjeant|sergeant)"
    r"|officer(?=[.,;:—-]| belonging| of (?:the )?"
    r"(?:police|Worship|Bow|Hatton|Marlborough|Queen|Union|Lambeth|Marylebone)))",
    re.I,
)
# "THOMAS RAND. I am footman", and the 1801 form "THOMAS HARRIS sworn. - I am a carpenter".
CAPS_NAME = re.compile(
    r"^((?:[A-Z][A-Z'\-]*\.? ?){1,5}[A-Z][A-Z'\-]+)(?:\s?\.|\s+sworn\s*[.,]?\s*[-—]?)\s+(.*)$", re.DOTALL
)
STOCK_HEADINGS = frozenset(
    {
        "COURT",
        "JURY",
        "PRISONER",
        "THE COURT",
        "BY THE COURT",
        "A JUROR",
        "JUROR",
        "SECOND COUNT",
        "THIRD COUNT",
        "FOURTH COUNT",
        "OTHER COUNTS",
        "TWO OTHER COUNTS",
        "THE PRISONER",
        "DEFENCE",
        "PRISONER'S DEFENCE",
        "GUILTY",
        "NOT GUILTY",
        "ACQUITTED",
        "CROSS-EXAMINED",
        "RE-EXAMINED",
        "THE JURY",
    }
)
# A paragraph about counsel, tagged as a witness's name in some sessions (1871-1896): who prosecuted,
# who defended, counsel calling witnesses or addressing the court.
COUNSEL_LINE = re.compile(
    r"^(?:M ?R|MESSRS|MESSES|SIR|SERJEANT|SERGEANT)\b\.?[^.]{0,120}?\b(?:prosecuted|defended)\b", re.I
)
COUNSEL_ACTION = re.compile(
    r"^(?:and\s+MR\.?\s+[A-Z]+\s+)?(?:called\s+the\s+following|conducted\s+the\s+(?:prosecution|defen[cs]e)|"
    r"prosecuted|defended|for\s+the\s+(?:prosecution|defen[cs]e)\b|appeared\s+for|stated\s+that\s+having|"
    r"with\s+MR\.?\s|and\s+(?:MR\.?\s+)?[A-Z]+\s+(?:prosecuted|defended))",
    re.IGNORECASE,
)
# "re-examined.", "examined by MR. THOMPSON.", "(Re-examined.)" opening a witness's paragraph, and the
# 1801 form "Examined by Mr. Const." (counsel's name in capitalised words, all of it: not "onst. I am a
# widow"), once printed "Examinedby Mr. Knowlys.".
EXAMINATION_NOTE = re.compile(
    r"^\(?(?:re-?)?examined(?:\s*by\s+(?:the\s+COURT|(?:MR|MESSRS|SIR)\.?\s*"
    r"(?-i:[A-Z][\w'’-]*)(?:\s+(?:and\s+(?:(?:MR|MESSRS|SIR)\.?\s+)?)?(?-i:[A-Z][\w'’-]*))*))?\.?\)?[\s.]*",
    re.I,
)
# Counsel's title, once printed "M R. CHARLES MATHEWS" (1895).
COUNSEL_PREFIX = re.compile(r"^(M ?R|MESSRS|MESSES|SIR|MR SERGEANT|SERGEANT|THE ATTORNEY|THE SOLICITOR)\b")
# A day's heading printed in capitals like a name: "THIRD DAY. SATURDAY, OCTOBER 28." (1826).
DAY_HEADING = re.compile(r"^(?:[A-Z]+ )?DAY$")
# A witness the printer named by rank or title and did not tag, in a trial whose other witnesses are
# tagged (1906-1910): "Detective F. R. HEDGES, P Division. On November 2 I arrested prisoner",
# "Captain WILKINSON, secretary of the National Association ...", "Detective-sergeant ALFRED GROSSE, Y
# Division.", "Mrs. CHARLOTTE LAWES. I am landlady". The surname is in capitals; a rank stays at the
# head of the testimony (it says who the witness is), a courtesy title does not.
RANKS = (
    r"(?:Detective|Police|Divisional|Chief|Station|Sub-divisional|Inspector|Sergeant|Serjeant|Constable"
    r"|Superintendent|Captain|Major|Colonel|Lieutenant|Warder|Gaoler)(?:[-\s](?:sergeant|serjeant|inspector"
    r"|constable|superintendent|officer))*"
)
TITLED_NAME = re.compile(
    r"^(?P<title>(?:(?:" + RANKS + r"|Dr|Mrs|Miss|Rev)\.?\s+)+)"
    r"(?P<name>(?:[A-Z][A-Za-z'\-]*\.?\s+){0,3}[A-Z][A-Z'\-]+)(?=[\s,.(])[\s,.]*(?P<rest>.*)$",
    re.DOTALL,
)
RANK = re.compile(r"^" + RANKS, re.IGNORECASE)
# The prisoner giving evidence, left untagged in the same way: "GERTRUDE ALICE HUNT (prisoner, on oath). I have
# references" (tagged in 1908, the form of the untagged witnesses around it).
ACCUSED_NAME = re.compile(
    r"^(?P<name>(?:[A-Z][A-Z'\-]*\.?\s+){1,4}[A-Z][A-Z'\-]+)\s*"
    r"\(\s*(?:the\s+)?(?:prisoner|defendant|accused)\b[^)]*\)[\s.,]*(?P<rest>.*)$",
    re.DOTALL,
)
# The prisoner giving evidence (allowed from 1898), printed after their name whatever its order:
# "HENRY WILLIAM CHIPPENDALE (prisoner, on oath)" for "CHIPPENDALE, William Henry" (1906).
ACCUSED_NOTE = re.compile(r"^\(\s*(?:the\s+)?(?:prisoner|defendant|accused)\b", re.IGNORECASE)
# The prosecution's witnesses called after the defence's: "Evidence in reply." (1901).
REPLY_MARKER = re.compile(
    r"^\(?(?:evidence|witnesses?)(?:\s+for\s+the\s+prosecution)?\s+(?:called\s+)?in\s+reply\b", re.IGNORECASE
)
# Counsel for the prisoner named: "MR. CALTHROP Prosecuted, and MR. BURNIE Defended." (1900), "Mr. Symmons
# prosecuted; Mr. Turrell defended." (1906), "The prisoners left their defence to their counsel." (1814).
DEFENDED = re.compile(
    r"^(?:MR|MESSRS|MESSES|SIR|SERJEANT|SERGEANT|Mr|Messrs)\b.{0,200}?\bdefended\b"
    r"|\bleft\s+(?:his|her|their)\s+defen[cs]e\s+to\s+(?:his|her|their)\s+counsel"
    r"|\bcounsel\s+for\s+the\s+(?:prisoners?|defen[cs]e)\b|\b(?:appeared|was|were)\s+for\s+the\s+(?:prisoners?|defen[cs]e)\b",
    re.IGNORECASE,
)
# Counsel arguing the law, printed as a paragraph under counsel's name (tagged as a witness's in places):
# "MR. SYDENHAM JONES submitted that there was no case to go to the Jury" (1905). Not evidence.
COUNSEL_SUBMISSION = re.compile(
    r"^(?:MR|MESSRS|SIR|SERJEANT|SERGEANT|Mr)\b\.?\s+(?:[A-Z][\w'\-]*\.?\s+){1,4}"
    r"(?:submitted|contended|objected|argued|urged|addressed\s+the\s+(?:jury|court))\b"
)
# The printer's summary of the character evidence in place of the witnesses' words (1814-1887): "The
# prisoner called three witnesses, who gave him a good character." (1814), "Four witnesses gave the prisoner
# an excellent character" (1826), "(The prisoner received a good character.)" (1854), "Brooks received a good
# character." (1887). It opens with the prisoner, a name or the witnesses, never a witness's "He" or "I".
CHARACTER_SUMMARY = re.compile(
    r"^[\[(]?(?:the\s+(?:prisoners?|defendants?)(?:'s?)?|prisoners?|(?!(?-i:He|She|I|It|They|We|You)\b)(?-i:[A-Z][a-z'’]+)"
    r"|[\w-]+\s+witness(?:es)?)\b[^.]{0,120}?\b(?:(?:received|bore|had|gave\s+(?:him|her|them|the\s+prisoners?|\w+))"
    r"\s+(?:an?\s+)?|(?:spoke|testified|deposed|(?:gave\s+)?evidence)\s+(?:as\s+)?(?:to|of)\s+(?:the\s+)?"
    r"(?:(?:prisoner|defendant)s?['’]s?\s+|his\s+|her\s+|their\s+)?)"
    r"(?:very\s+)?(?:good|excellent|high|irreproachable|exemplary)\s+characters?\b",
    re.IGNORECASE,
)
CHARACTER_WITNESSES = "Witnesses to character"
# The prisoner speaking, printed under "The Prisoner" or their surname, during the evidence or after it:
# "The Prisoner. I am very sorry for what I have done" (1879), "Selby. I know nothing about it; I was tipsy
# at the time. Witness. She was not tipsy." (1862). Not their questions ("Prisoner. Q. ...").
PRISONER_SPEAKS = re.compile(r"^\(?(?:the\s+)?(?P<who>prisoners?|(?-i:[A-Z][a-z'’]+))\)?[.:]\s+(?!Q\.|A\.)\S", re.I)
WITNESS_REPLIES = re.compile(r"\s(?:The\s+)?Witness\.\s+")
TESTIMONY_ROLES = frozenset({"Witness", "Victim"})
QUESTION_ROLES = frozenset({"Lawyer", "Judge", "Juror", "Interpreter", ""})
