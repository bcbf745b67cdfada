"""The offline engine's phrasebook for arguments: how a point of the case file is put into words.

Placeholders: {label} / {Label} (the item as named mid-sentence, or at the start), {detail} (a
whole quotable line of the file), {reason} / {Reason} (a contest reason or credibility issue as a
clause), {other} (another item), {witness}, {testimony}, {issue} / {Issue}, {opponents} /
{Opponents} ("the defense" or "the prosecution": the other side). The mind picks one line with its
seeded generator and avoids lines the room has just heard.
"""

from __future__ import annotations

SUPPORT: dict[str, tuple[str, ...]] = {
    "evidence": (
        "Take {label}. {detail}",
        "Look at {label} again: {detail}",
        "{Label} [is|are] the piece that matters. {detail}",
        "Start with {label}. {detail}",
    ),
    "logical": (
        "Follow it step by step from {label}, and there's one reasonable reading: {detail}",
        "If we accept {label}, and I do, then the rest follows. {detail}",
        "Put {label} next to {other}, and the conclusion is hard to avoid.",
        "{Label} and {other} point the same way, and that is no accident.",
    ),
    "question": (
        "How do we explain {label} any other way? {detail}",
        "Has anyone actually answered {label}? {detail}",
        "What does {label} tell us, if not that? {detail}",
        "Can anyone here account for {label}? {detail}",
    ),
    "emotional": (
        "I keep picturing {label}. {detail}",
        "{Label} [isn't|aren't] just a line in a file. {detail}",
        "{Label} [stays|stay] with me. {detail}",
        "I can't put {label} out of my mind. {detail}",
    ),
    "moral": (
        "We owe it to the truth to take {label} seriously. {detail}",
        "It would be wrong to wave away {label}. {detail}",
        "Honesty means facing {label}. {detail}",
        "Fairness cuts both ways, and {label} [has|have] to count. {detail}",
    ),
    "narrative": (
        "Tell it in order: first {label}, then {other}. {detail}",
        "The story starts with {label}. {detail}",
        "Every story has a turning point, and here it's {label}. {detail}",
        "Walk through it with {label} in mind. {detail}",
    ),
}
# Not guilty, on an item that helps the prosecution: the defence's reason against it.
CONTEST: dict[str, tuple[str, ...]] = {
    "evidence": (
        "{Label} [has|have] a problem: {reason}.",
        "Everyone leans on {label}, but {reason}.",
        "Read the file on {label} closely: {reason}.",
        "Look at what the file says about {label}: {reason}.",
    ),
    "logical": (
        "{Label} only [proves|prove] something if [it's|they're] reliable, and {reason}.",
        "Strip out {label}, since {reason}, and what's left?",
        "An argument is as strong as its weakest link, and with {label}, {reason}.",
        "Take {label} on its own terms: {reason}. That's not proof.",
    ),
    "question": (
        "Why should we trust {label} when {reason}?",
        "Has anyone explained this about {label}: {reason}?",
        "What do we do with the fact that, on {label}, {reason}?",
        "If {reason}, how much [is|are] {label} really worth?",
    ),
    "emotional": (
        "It frightens me how much weight {label} [is|are] given when {reason}.",
        "Imagine being judged on {label} when {reason}.",
        "I can't shake it: on {label}, {reason}.",
        "It keeps me up, honestly: with {label}, {reason}.",
    ),
    "moral": (
        "It isn't right to convict on {label} when {reason}.",
        "Our duty is to the truth, and on {label}, {reason}.",
        "We can't build justice on {label} if {reason}.",
        "Conscience matters here: {reason}, so {label} can't carry a conviction.",
    ),
    "narrative": (
        "The story needs {label} to hold, but {reason}.",
        "Here's where the story breaks: {label}, because {reason}.",
        "Retell it without {label}, since {reason}, and it falls apart.",
        "There's another chapter to {label}: {reason}.",
    ),
}
# Guilty, on an item that helps the defence: the State's reason against it.
COUNTER: dict[str, tuple[str, ...]] = {
    "evidence": (
        "{Label} [is|are] supposed to help the defendant, but {reason}.",
        "Look closer at {label}: {reason}.",
        "People keep citing {label} for the defense. The file says {reason}.",
    ),
    "logical": (
        "{Label} [doesn't|don't] clear anyone: {reason}.",
        "Follow it through: {reason}. So {label} [proves|prove] less than the defense thinks.",
        "Grant {label} everything, and still {reason}.",
    ),
    "question": (
        "Does {label} really help the defense when {reason}?",
        "Why treat {label} as an answer when {reason}?",
        "Has anyone on the other side dealt with this: {reason}?",
    ),
    "emotional": (
        "I wanted {label} to settle it for me, but {reason}.",
        "I'd like to believe {label} clears him. But {reason}.",
    ),
    "moral": (
        "Let's be honest about {label}: {reason}.",
        "Fairness means admitting the weak side of {label}: {reason}.",
    ),
    "narrative": (
        "The defense's story leans on {label}, but {reason}.",
        "Put {label} back in the timeline and it changes: {reason}.",
    ),
}
# A side answering the other side's objection to an item that favours it.
REBUT: tuple[str, ...] = (
    "{Opponents} says that on {label}, {reason}; even so, {detail_low}",
    "Yes, {opponents} points out that {reason}. {Label} still [stands|stand]: {detail}",
    "I've heard the objection to {label}, that {reason}, and it doesn't undo this: {detail}",
)
# A friendly witness, quoted in their own first-person words.
WITNESS_DIRECT: tuple[str, ...] = (
    "{witness} told the court: {testimony}",
    "Remember {witness}'s words: {testimony}",
    "{witness} was clear about it: {testimony}",
    "Listen to {witness} again: {testimony}",
    "Nobody shook {witness} on this: {testimony}",
)
# A friendly witness, reported with the witness's name already leading the line.
WITNESS_NAMED: tuple[str, ...] = (
    "Remember the evidence: {testimony}",
    "Nobody has shaken this: {testimony}",
    "Don't forget this: {testimony}",
    "This was sworn evidence: {testimony}",
    "Think back to what we heard: {testimony}",
)
# A friendly witness whose line does not name them.
WITNESS_PLAIN: tuple[str, ...] = (
    "Remember {witness}'s evidence: {testimony}",
    "{witness}'s account stands up. {testimony}",
    "Take {witness}'s evidence. {testimony}",
    "{witness} gave us this: {testimony}",
)
# A point whose lines the room has just heard: named again without quoting the same words.
SUPPORT_BARE: tuple[str, ...] = (
    "Set the speeches aside and look at {label} again.",
    "For me it still comes down to {label}.",
    "{Label} [hasn't|haven't] gone anywhere while we've been talking.",
    "I haven't heard anything that takes {label} off the table.",
    "{Label} [is|are] where I keep landing.",
    "We can argue all day, but {label} [is|are] still in the file.",
    "Nobody has explained {label} away.",
    "I keep coming back to {label}.",
    "Put {label} next to {other}, and the conclusion is hard to avoid.",
    "{Label} [hasn't|haven't] been answered, not really.",
    "We heard what {label} [says|say]. [It hasn't|They haven't] changed.",
    "Whatever else we argue about, {label} [is|are] still there.",
)
WITNESS_BARE: tuple[str, ...] = (
    "{witness} had nothing to gain by inventing it.",
    "Nobody has given a reason to doubt {witness}.",
    "{witness} told it plainly and kept to it.",
    "Nothing anyone has said here undoes {witness}'s evidence.",
    "I keep weighing {witness}'s account, and it holds.",
    "Nobody has shaken {witness}'s account.",
    "{witness} was never broken down on any of it.",
    "I believe {witness}, and nobody has given me a reason not to.",
    "{witness}'s evidence hasn't moved an inch.",
    "We've all heard {witness}. That account still stands.",
)
HEDGE_BARE: tuple[str, ...] = (
    "{witness} wouldn't put it higher than a belief, and we shouldn't either.",
    "Remember how unsure {witness} was.",
    "{witness} hedged, and we all heard it.",
    "Even the prosecution's own witness, {witness}, wasn't sure.",
)
OWN_ACCOUNT_BARE: tuple[str, ...] = (
    "We've barely weighed {witness}'s own answer to the charge.",
    "Nobody has disproved what {witness} told the court.",
    "{witness}'s own account still stands unanswered.",
)
BURDEN_BARE: tuple[str, ...] = (
    "{Label} [asks|ask] us to fill the gaps ourselves, and that's not our job.",
    "Nobody has tested {label}. It rests on inference.",
    "Suspicion isn't proof, and {label} [is|are] mostly suspicion.",
)
# Attacks whose issue already names the witness ("Mary Dunn did not see clearly").
WITNESS_ATTACK_NAMED: tuple[str, ...] = (
    "{Issue}, so how much weight can that account carry?",
    "Remember that {issue}.",
    "{Issue}, and we're asked to rely on that.",
    "Here's my problem: {issue}.",
    "Be careful here: {issue}.",
)
WITNESS_ATTACK: tuple[str, ...] = (
    "What about {witness}, when {issue}?",
    "We're asked to believe {witness}, but {issue}.",
    "I don't trust {witness}'s account: {issue}.",
    "{witness} is the weak link: {issue}.",
    "I'd be careful with {witness}, because {issue}.",
    "Before we lean on {witness}, remember that {issue}.",
)
HEDGE: tuple[str, ...] = (
    "Even {witness} hedged: {detail}",
    "Listen to how unsure {witness} was: {detail}",
    "How sure was {witness}, really? {detail}",
    "The prosecution's own witness, {witness}, said it in so many words: {detail}",
)
UNCORROBORATED: tuple[str, ...] = (
    "I'd want someone besides {witness} before I convict, and {reason}.",
    "If {witness} is mistaken, nothing catches it: {reason}.",
    "Everything hangs on {witness}'s word, and {reason}.",
    "Take away {witness} and what's left? {Reason}.",
    "{witness} says so, but {reason}, and one voice isn't proof.",
    "Where's the second witness? It's {witness}'s account, and {reason}.",
    "One person's say-so: {witness}. And {reason}.",
    "Would you convict on {witness} alone? Because {reason}.",
    "I keep looking for anyone who backs {witness} up, and {reason}.",
)
OWN_ACCOUNT: tuple[str, ...] = (
    "{witness} gave an account too, and nobody has disproved it: {detail}",
    "We keep forgetting {witness}'s side of it: {detail}",
    "Has anyone shown {witness}'s answer to be false? {detail}",
    "Hear {witness} out: {detail}",
)
BURDEN: tuple[str, ...] = (
    "Beyond this, {label} rests on inference: {detail}",
    "Read the charge again, it's an accusation, not proof: {detail}",
    "{Label} [asks|ask] us to fill the gaps ourselves, and that's not our job.",
    "Nobody has tested {label}. It rests on inference.",
)

ROUND_ASIDES: tuple[str, ...] = (
    # A count is the last one taken: votes change at the end of a round, after its speeches, and a
    # change shown beside the speech that moved it must not make a later speaker's count wrong.
    "At the last count we stood {guilty} to {not_guilty}, and I think that tells us something.",
    "This is round {round}; let's make it count.",
    "The last count was {guilty} guilty, {not_guilty} not guilty, and I understand why.",
    "Round {round}, and one question keeps coming back to me.",
    "We've been at this {round} rounds, and I'd rather be right than quick.",
    "Whatever the last count said, {guilty} to {not_guilty}, it's the reasons that matter.",
    "I know where the count stands. I'm still listening.",
    "Some of you haven't said much; I'd like to hear you.",
    "Round {round}: I'd like us to decide on reasons, not on the count.",
    "We stood {guilty} to {not_guilty} at the last count. Let's keep it civil.",
    "Nobody here wants to get this wrong.",
)


def table_for(angle: str, kind: str, side: str, *, form: str = "plain") -> tuple[str, ...]:
    """The templates for a point's angle; ``form`` says how its line reads (direct, named, plain, or bare:
    no line, the room has just heard them all)."""
    if form == "bare":
        bare = {
            "witness_support": WITNESS_BARE,
            "hedge": HEDGE_BARE,
            "own_account": OWN_ACCOUNT_BARE,
            "burden": BURDEN_BARE,
        }
        return bare.get(angle, SUPPORT_BARE)
    if angle == "witness_support":
        return {"direct": WITNESS_DIRECT, "named": WITNESS_NAMED}.get(form, WITNESS_PLAIN)
    if angle == "witness_attack" and form == "named":
        return WITNESS_ATTACK_NAMED
    fixed = {
        "witness_attack": WITNESS_ATTACK,
        "hedge": HEDGE,
        "uncorroborated": UNCORROBORATED,
        "own_account": OWN_ACCOUNT,
        "burden": BURDEN,
        "rebut": REBUT,
    }
    if angle in fixed:
        return fixed[angle]
    if angle == "contest":
        table = COUNTER if side == "guilty" else CONTEST
        return table.get(kind, table["evidence"])
    return SUPPORT.get(kind, SUPPORT["evidence"])
