"""What a question asks about (time, light, distance, identity, age, ...) and which record lines speak of it.

A question such as "Was it dark?" or "How far away was he?" is answered by the line about the
light or the distance, even when that line shares no word with it ("under a lamp", "about 40
feet"); a line that only happens to share a word ("a dark spot on the jaw") is not about the light.
Each topic is a pair of patterns: the question's cue and the line's. ``TOPIC_WORDS`` are the
question words the topic itself stands for, weighed by the topic rather than by word matching.
"""

from __future__ import annotations

import re

from deliberation.engine.trial.text import stem

_DARK = (
    r"\b(?:it was|was|too|very|quite|rather|pitch|getting|grown|in the)\s+dark\b"
    r"|\bdarkness\b|\bdark (?:night|evening)\b"
)
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|forty|fifty|a few|several)"

_PERSON = (
    r"the (?:man|woman|robber|thief|prisoner|defendant|accused|person|fellow|driver|attacker|assailant|shooter"
    r"|suspect|guy|boy|girl|lad)"
)

TOPICS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "time": (
        re.compile(
            r"^\W*when\b|\bwhat (?:time|hour|day|o'?clock)\b|\bhow long\b|\bhow (?:soon|many minutes)\b|\bwhich day\b",
            re.I,
        ),
        re.compile(
            rf"\b\d{{1,2}}[:.]\d{{2}}\b|\b(?:a|p)\.m\.|\bo'?clock\b|\bmorning\b|\bevening\b|\bnight\b|\bafternoon\b|\bnoon\b"
            rf"|\bmidnight\b|\bhalf past\b|\bquarter (?:past|to|of an hour)\b"
            rf"|\b{_NUMBER}\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|\btime of\b"
            rf"|\bbetween \d+ and \d+\b"
            rf"|\bbetween (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) and\b",
            re.I,
        ),
    ),
    "light": (
        re.compile(
            r"\bdark\b|\blight\b|\blit\b|\blamp\b|\bmoon|\bclearly\b|\bview\b|\bhow well\b|\bget a (?:good )?look\b",
            re.I,
        ),
        re.compile(
            rf"{_DARK}|\blamps?\b|\blit\b|\bstreetlight\b|\bmoon(?:light)?\b|\bcandle\b|\bdaylight\b|\bview\b|\bobscured\b"
            r"|\bglimpse\b|\bclearly\b|\bcould not see\b|\bwindow\b",
            re.I,
        ),
    ),
    "distance": (
        re.compile(r"\bhow (?:far|near|close)\b|\bdistance\b|\bfar away\b", re.I),
        re.compile(
            r"\b(?:feet|yards?|metres?|meters?|miles?|paces|inches)\b|\b\d+(?:\.\d+)?\s*m\b"
            r"|\b(?:far|not far|close|near) away\b"
            r"|\bacross\b"
            r"|\bdistance\b|\bwithin\b(?! (?:a|an|the|few|minutes|seconds|hours|days)\b)",
            re.I,
        ),
    ),
    "identity": (
        re.compile(
            r"\bsure\b|\bswear\b|\bcertain\b|\bidentif|\brecogni[sz]|\bmistaken\b|\bis (?:this|that|he) the\b", re.I
        ),
        re.compile(
            r"\bsure\b|\bswear\b|\bcertain|\bconfiden|\bidentif|\brecogni[sz]|\barray\b|\bpicked\b"
            r"|\bthe very (?:man|person)\b|\bis the man\b|\bmistake|\bpercent\b"
            r"|\bI think (?:this|that|it) (?:is|was)\b",
            re.I,
        ),
    ),
    "acquaintance": (
        re.compile(r"\bknown\b|\brelated\b|\bacquaint|\brelation\b|\bfamily\b", re.I),
        re.compile(
            r"\bknown\b|\bcousin|\bbrother|\bsister|\bnephew|\bniece|\bwife\b|\bhusband\b|\bfriend|\brelat|\bacquaint"
            r"|\bfrom (?:his|her) birth\b|\bfather\b|\bmother\b|\bson\b|\bdaughter\b",
            re.I,
        ),
    ),
    "drink": (
        re.compile(r"\bdrink|\bdrunk\b|\bliquor\b|\bsober\b", re.I),
        re.compile(r"\bdrink|\bdrunk\b|\bliquor\b|\bsober\b|\bfuddled\b|\bbeer\b|\bale\b|\bgin\b|\bpints?\b", re.I),
    ),
    "property": (
        re.compile(r"\bhow much\b|\bworth\b|\bvalue\b|\bwhat (?:was|were) (?:taken|stolen|lost|missing)\b", re.I),
        re.compile(
            r"\b\d+\s*(?:s|l|d)\.|\$\d|\b(?:shillings?|pounds?|pence|guineas?|crowns?|dollars?)\b|\bworth\b|\bvalue\b",
            re.I,
        ),
    ),
    "clothing": (
        re.compile(
            r"\bwear(?:ing)?\b|\bwore\b|\bdressed\b|\bdress\b|\bclothes\b|\bclothing\b|\b(?:have|had) on\W*$", re.I
        ),
        re.compile(
            r"\b(?:coat|hoodie|sweatshirt|hat|cap|bandana|jacket|waistcoat|dress|mask|gown|shirt|breeches|wig|cloak|apron"
            r"|hood)s?\b",
            re.I,
        ),
    ),
    "age": (
        re.compile(r"\bhow old\b|\bwhat age\b|\b(?:his|her|their) age\b", re.I),
        re.compile(
            r"\byears? (?:old|of age)\b|\baged? (?:about |around )?\d|\b(?:maybe|about|around|aged) "
            r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|\d{2})"
            r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?\b"
            r"(?!\s*(?:feet|foot|yards?|metres?|meters?|miles?|minutes?|seconds?|hours?|days?|percent|%))"
            r"|\b(?:I'm|I am|he's|he is|she's|she is|aged)\s+(?:about\s+)?(?:\d{1,2}|\w+teen|twenty|thirty|forty|fifty"
            r"|sixty|seventy|eighty)\b(?!\s*(?:feet|foot|yards?|metres?|meters?|miles?|minutes?|percent|%))"
            r"|\bmaybe (?:in (?:his|her) )?(?:teens|twenties|thirties|forties|fifties|sixties)\b",
            re.I,
        ),
    ),
    "place": (
        re.compile(r"^\W*where\b", re.I),
        re.compile(
            r"\b(?:side|road|street|lane|avenue|square|corner|common|fields?|hill|miles?|bridge|yard|stable|shop|house"
            r"|parlour|kitchen|room|door|apartment|flat|bar|pub|seat|glovebox|counter|floor|table|pump|sidewalk|pavement"
            r"|crosswalk|alley|cell|jail|hospital|home)\b"
            r"|\b(?:behind|in front of|opposite|beside|next to|outside|inside)\b"
            r"|\bI was (?:\w+ )?(?:at|in|on|behind|across|near|by)\b",
            re.I,
        ),
    ),
    # What a student asks in a word: the colour of a thing, what the witness wrote, how often, their
    # work, which way someone went, what someone looked like, the clock time.
    "colour": (
        re.compile(r"\bcolou?rs?\b", re.I),
        re.compile(
            r"\b(?:black|white|grey|gray|silver|red|green|blue|brown|yellow|orange|pink|purple|gold|beige|navy|dark|light)"
            r"(?:[- ](?:green|blue|grey|gray|brown|red))?\b(?! (?:spot|hair|eyes?))",
            re.I,
        ),
    ),
    "writing": (
        re.compile(r"\b(?:write|wrote|written|writing|notes?|jot(?:ted)?|noted|note down)\b", re.I),
        re.compile(r"\b(?:wrote|written|write|writing|notes?|noted|jotted|report|route sheet|notebook)\b", re.I),
    ),
    "frequency": (
        re.compile(r"\bhow often\b|\bhow many times (?:a|do|did|have)\b", re.I),
        re.compile(r"\bevery (?:day|night|week|month|year|weekend)\b|\b(?:daily|weekly|monthly|often|usually)\b", re.I),
    ),
    "work": (
        re.compile(
            r"\bhow long (?:have|has|had) (?:you|he|she) (?:been|worked|done)\b|\b(?:your|his|her) (?:job|work)\b"
            r"|\bwhat do (?:you|they) do\b|\bwhat (?:do|did) you do for a living\b|\bjob\b",
            re.I,
        ),
        re.compile(
            r"^(?:I have been|I've been|I am|I'm|I was) (?:a|an|the)\b|\bI work(?:ed)?\b|\bfor \w+ years\b"
            r"|\bwith \w+ years\b",
            re.I,
        ),
    ),
    "direction": (
        re.compile(r"\bwhich way\b|\bwhat direction\b|\bwhere did (?:he|she|it|they|the \w+) go\b", re.I),
        re.compile(
            r"\b(?:north|south|east|west)(?:ward|wards|bound)?\b|\bturned\b|\b(?:drove|ran|went) (?:off|away)\b",
            re.I,
        ),
    ),
    "looks": (
        re.compile(
            rf"\bwhat did (?:he|she|they|{_PERSON}) look like\b|\bdescribe (?:him|her|them|{_PERSON})\b"
            rf"|\bwhat (?:was|were) (?:he|she|they|{_PERSON}) like\b",
            re.I,
        ),
        re.compile(
            r"\bhair\b|\bfoot\b|\btall\b|\bshort\b|\bthin\b|\bheavy\b|\bbuild\b|\bbeard|\bmoustache|\bskin\b"
            r"|\b(?:a|the) (?:man|woman|guy|boy|girl)\b"
            r"|\bmaybe (?:twenty|thirty|forty|fifty|forties|thirties|twenties)",
            re.I,
        ),
    ),
    "certainty": (
        re.compile(r"\bhow (?:sure|certain|confident)\b", re.I),
        re.compile(
            r"\bsure\b|\bcertain|\bconfiden|\bpercent\b|\bI think\b|\bpositive\b|\bno doubt\b|\bswear\b"
            r"|\bI believe\b",
            re.I,
        ),
    ),
    "clock": (
        re.compile(r"\bwhat (?:time|hour)\b|\bwhat o'?clock\b|^\W*when\b", re.I),
        re.compile(
            r"\b\d{1,2}[:.]\d{2}\b|\b(?:a|p)\.m\.|\bo'?clock\b|\bmidnight\b|\bnoon\b|\bhalf past\b"
            r"|\bquarter (?:past|to)\b|\b(?:\w+ )?(?:days?|weeks?|months?|minutes?|hours?) (?:later|after|before)\b"
            r"|\bthat night\b|\bbetween \d",
            re.I,
        ),
    ),
}

# A question that asks one of these is answered only by a line that speaks of it: "Was he drunk?" is
# not answered by a line that names him, nor "What colour was the car?" by a line about the car.
NARROW = frozenset({"drink", "colour", "writing", "frequency", "age", "direction", "looks", "certainty"})

# Words a question uses to name its topic: matched by the topic, not counted as missing content.
TOPIC_WORDS = frozenset(
    stem(word)
    for word in """time hour day o'clock long soon minute far near close distance away dark light lit lamp moon clearly
    view well look sure swear certain identify recognise recognize mistaken man known relat acquaint relation family
    drink drunk liquor sober much worth value wear wearing wore dress dressed clothes clothing enough able old
    age colour color colours write wrote written writing note notes often job like""".split()
)

# Words naming the person a question about a person's looks asks about ("What was the robber
# wearing?", "How old was the prisoner?"): the topic says what is asked, and a line about the clothing
# or the age need not repeat "robber" to answer it. Other topics keep them ("How long did you see the
# driver?" asks about the driver).
PERSON_TOPICS = frozenset({"clothing", "age", "looks"})
PERSON_WORDS = frozenset(
    stem(word)
    for word in """man woman men robber robbers thief thieves prisoner prisoners defendant accused person fellow lad
    boy girl attacker assailant driver shooter suspect gentleman culprit""".split()
)


def asked(question: str) -> set[str]:
    """The topics a question asks about."""
    return {name for name, (cue, _) in TOPICS.items() if cue.search(question)}


def spoken(line: str, topics: set[str]) -> set[str]:
    """Which of ``topics`` a record line speaks of."""
    return {name for name in topics if TOPICS[name][1].search(line)}
