"""The frames a juror puts a point in: one short sentence or two, in the juror's own words.

Placeholders: {ref} / {Ref} (the item as named mid-sentence or at the start: "the cell-site
records", "Mary Dunn"), {fact} / {Fact} (one short clause of the file about it, without a final
stop), {quote} (a witness's own words, in quotation marks, stop included), {other} (another item),
{opponents} ("the defense" or "the prosecution"). ``[stands|stand]`` agrees with {ref}: the first
form for one thing, the second for several (``naming.agree``). A frame whose words the game has
heard is not used again while another is free (``saying.pick``).
"""

from __future__ import annotations

# Our side's item, with a fact from the file, by argument type.
SUPPORT: dict[str, tuple[str, ...]] = {
    "evidence": (
        "Look at {ref}: {fact}.",
        "The file is plain about {ref}: {fact}.",
        "What matters in {ref} is simple. {Fact}.",
        "{Fact}. The file on {ref} has it in black and white.",
        "Go back to {ref} for a second. {Fact}.",
        "On {ref}, the record says {fact}.",
        "Nobody disputes this much about {ref}: {fact}.",
    ),
    "logical": (
        "If {fact}, then {ref} [points|point] one way.",
        "{Ref} [matters|matter] here because {fact}.",
        "Start from {ref}. {Fact}, and the rest follows.",
        "Think it through: {fact}. What else explains {ref}?",
        "Put it together. {Fact}, and {ref} [fits|fit] nothing else.",
        "The reasoning is short: {fact}, so {ref} [counts|count].",
    ),
    "question": (
        "How does anyone explain {ref}, when {fact}?",
        "{Fact}. So who has an innocent answer for {ref}?",
        "Has anyone dealt with {ref}? {Fact}.",
        "What are we supposed to do with {ref}, if {fact}?",
        "Ask yourselves about {ref}: {fact}. Why?",
    ),
    "emotional": (
        "{Ref} [stays|stay] with me. {Fact}.",
        "I can't get past {ref}. {Fact}.",
        "When I think of {ref}, I think of this: {fact}.",
        "It turns my stomach, honestly. {Fact}.",
        "{Fact}. I keep seeing that.",
    ),
    "moral": (
        "It would be wrong to wave {ref} away when {fact}.",
        "We owe it to the truth to weigh {ref}: {fact}.",
        "Honesty means facing {ref}. {Fact}.",
        "{Fact}. We can't pretend {ref} [isn't|aren't] there.",
        "In good conscience I can't ignore that {fact}.",
    ),
    "narrative": (
        "Picture it. {Fact}. That's where {ref} [comes|come] in.",
        "The story turns on {ref}: {fact}.",
        "Tell it in order and {ref} [is|are] the middle of it. {Fact}.",
        "Here's how I see the night: {fact}.",
        "Follow the thread to {ref}. {Fact}.",
    ),
}
# Against the other side's item, with the reason it is doubtful.
CONTEST: dict[str, tuple[str, ...]] = {
    "evidence": (
        "{Ref} [has|have] a problem: {fact}.",
        "Read the file on {ref} again. {Fact}.",
        "Everyone leans on {ref}, but {fact}.",
        "There's a catch in {ref}: {fact}.",
        "I don't trust {ref}. {Fact}.",
    ),
    "logical": (
        "{Ref} only [proves|prove] something if [it holds|they hold], and {fact}.",
        "Take {ref} on [its|their] own terms: {fact}. That's not proof.",
        "A chain is as strong as its weakest link, and with {ref}, {fact}.",
        "Strip out {ref}, since {fact}, and what's left?",
        "{Fact}, so {ref} [proves|prove] less than [it looks|they look].",
    ),
    "question": (
        "Why trust {ref} when {fact}?",
        "What do we do with {ref}, if {fact}?",
        "Has anyone answered this about {ref}? {Fact}.",
        "{Fact}. So how much [is|are] {ref} really worth?",
        "If {fact}, why [is|are] {ref} still carrying this case?",
    ),
    "emotional": (
        "It frightens me how much weight {ref} [gets|get] when {fact}.",
        "Imagine being judged on {ref} when {fact}.",
        "I can't shake it. {Fact}.",
        "It worries me, honestly: {fact}.",
    ),
    "moral": (
        "It isn't right to lean on {ref} when {fact}.",
        "We can't build a conviction on {ref} if {fact}.",
        "Conscience matters here: {fact}.",
        "Being fair means saying it: {fact}.",
    ),
    "narrative": (
        "Here's where the story breaks: {fact}.",
        "The story needs {ref} to hold, but {fact}.",
        "Retell it without {ref}, since {fact}, and it falls apart.",
        "There's another chapter to {ref}: {fact}.",
    ),
}
# For guilt, against an item the defence relies on.
COUNTER: dict[str, tuple[str, ...]] = {
    "evidence": (
        "{Ref} [is|are] supposed to help the defendant, but {fact}.",
        "Look closer at {ref}: {fact}.",
        "People keep citing {ref} for the defense. {Fact}.",
    ),
    "logical": (
        "{Ref} [doesn't|don't] clear anyone: {fact}.",
        "{Fact}, so {ref} [proves|prove] less than the defense thinks.",
        "Grant {ref} everything, and still {fact}.",
    ),
    "question": (
        "Does {ref} really help the defense when {fact}?",
        "Why treat {ref} as an answer when {fact}?",
        "Has the other side dealt with this? {Fact}.",
    ),
    "emotional": (
        "I wanted {ref} to settle it for me, but {fact}.",
        "I'd like to believe {ref}. But {fact}.",
    ),
    "moral": (
        "Let's be honest about {ref}: {fact}.",
        "Fairness means admitting the weak side of {ref}: {fact}.",
    ),
    "narrative": (
        "The defense's story leans on {ref}, but {fact}.",
        "Put {ref} back in the timeline and it changes: {fact}.",
    ),
}
# Our item, answering the other side's objection to it.
REBUT: tuple[str, ...] = (
    "I know the objection to {ref}. Even so, {fact}.",
    "{Opponents} [picks|pick] holes in {ref}, but {fact}.",
    "Say what you like about {ref}; {fact}.",
    "The objection to {ref} doesn't touch this: {fact}.",
)
# A friendly witness, in their own words.
WITNESS_QUOTE: tuple[str, ...] = (
    "{who} said it from the box: {quote}",
    "Remember the words {who} used. {quote}",
    "{who} was clear. {quote}",
    "I wrote down what {who} said: {quote}",
    "Nobody shook {who} on this: {quote}",
    "{who} put it simply. {quote}",
)
# A friendly witness, reported.
WITNESS_REPORT: tuple[str, ...] = (  # {fact} names the witness: "Carla Vance says the code was his birth year"
    "Remember the evidence: {fact}.",
    "{Fact}, and nobody broke that.",
    "Don't forget that {fact}.",
    "We heard it: {fact}.",
    "Think back to the trial. {Fact}.",
    "That's sworn evidence: {fact}.",
)
# Against a witness, with an issue that names them.
WITNESS_ATTACK: tuple[str, ...] = (
    "{Fact}, so how much can {who}'s account carry?",
    "Remember that {fact}.",
    "Here's my problem with {who}: {fact}.",
    "Be careful with {who}. {Fact}.",
    "{Fact}. I'd think twice before leaning on {who}.",
    "We're asked to believe {who}, but {fact}.",
)
# A prosecution witness hedging, in their own words.
HEDGE: tuple[str, ...] = (
    "Even {who} hedged when it mattered: {quote}",
    "Listen to how sure {who} was. {quote}",
    "How certain was {who}, really? {quote}",
    "The prosecution's own witness said it: {quote}",
)
UNCORROBORATED: tuple[str, ...] = (
    "Everything hangs on {who}'s word, and {fact}.",
    "If {who} is mistaken, nothing catches it: {fact}.",
    "Where's the second witness? {Fact}.",
    "Would you convict on {who} alone? {Fact}.",
    "I keep looking for anyone who backs {who} up, and {fact}.",
)
OWN_ACCOUNT: tuple[str, ...] = (
    "{who} gave an answer too, and nobody has disproved it: {quote}",
    "We keep forgetting {who}'s side of it. {quote}",
    "Has anyone shown {who}'s answer to be false? {quote}",
)
BURDEN: tuple[str, ...] = (
    "The charge is an accusation, not proof: {fact}.",
    "All we really have is this: {fact}. The rest is inference.",
)
# A point whose clauses the game has all heard: named again without repeating them.
BARE: dict[str, tuple[str, ...]] = {
    "support": (
        "For me it still comes down to {ref}.",
        "{Ref} [hasn't|haven't] gone anywhere while we've been talking.",
        "I haven't heard anything that takes {ref} off the table.",
        "{Ref} [is|are] where I keep landing.",
        "Nobody has explained {ref} away.",
        "Whatever else we argue about, {ref} [is|are] still there.",
        "We heard what {ref} [says|say]. It hasn't changed.",
        "Nobody has answered {ref}, not really.",
        "I'd put {ref} first, ahead of everything else.",
        "Weigh {ref} again before you decide.",
    ),
    "contest": (
        "{Ref} [is|are] weaker than people are treating [it|them].",
        "I'd want {ref} tested before I trusted [it|them].",
        "{Ref} [leaves|leave] too many questions open.",
        "My doubts about {ref} haven't gone away.",
        "{Ref} [was|were] never as solid as [it looks|they look].",
        "I still can't lean on {ref}.",
        "Nothing said today has repaired {ref}.",
        "I'd set {ref} aside, and I'm not alone.",
        "{Ref} [doesn't|don't] hold the weight we're putting on [it|them].",
        "We keep quoting {ref} as if nobody had questioned [it|them].",
    ),
    "witness_support": (
        "{who} had nothing to gain by inventing it.",
        "Nothing anyone has said here undoes {who}'s evidence.",
        "We've all heard {who}. That account still stands.",
        "{who} was never broken down on any of it.",
        "I keep weighing {who}'s account, and it holds.",
        "Nobody has given a reason to doubt {who}.",
        "{who} told it plainly and kept to it.",
        "I believe {who}, and nobody has given me a reason not to.",
        "{who}'s evidence hasn't moved an inch.",
    ),
    "witness_attack": (
        "I still wouldn't lean on {who}.",
        "{who}'s account has too many soft spots for me.",
        "I can't take {who} at face value.",
        "We've heard why {who} is shaky. That hasn't changed.",
        "{who} is the weak point, and we all know why.",
        "I'd give {who}'s evidence very little weight.",
        "Set {who} aside and see what's left.",
        "Nothing anyone has said makes {who} more reliable.",
    ),
    "hedge": (
        "{who} wouldn't put it higher than a belief, and we shouldn't either.",
        "Remember how unsure {who} was.",
        "{who} hedged, and we all heard it.",
        "Even {who} wasn't sure. Why should we be?",
        "{who} never got past maybe.",
    ),
    "own_account": (
        "We've barely weighed {who}'s own answer to the charge.",
        "Nobody has disproved what {who} told the court.",
        "{who}'s own account is still standing.",
        "Nobody has shown {who}'s answer to be false.",
    ),
    "burden": (
        "Suspicion isn't proof, and this case is mostly suspicion.",
        "The gaps are the prosecution's to fill, not ours.",
    ),
}
# Answering the previous speaker about the item they argued: agreeing, or not.
BUILD_AGREE: tuple[str, ...] = (
    "{name}'s right about {their}.",
    "{name} is right about {their}, and there's more.",
    "Like {name} said, {their} really [matters|matter].",
    "I'm with {name} on {their}.",
    "{name} made the point about {their}; let me add to it.",
    "{name}, you're right to bring up {their}.",
    "That's fair about {their}, {name}.",
)
BUILD_DISAGREE: tuple[str, ...] = (
    "{name}, I don't read {their} the way you do.",
    "{name}, {their} [doesn't|don't] carry the weight you put on [it|them].",
    "With respect, {name}, {their} [cuts|cut] both ways.",
    "{name}, you keep coming back to {their}, but there's another side to [it|them].",
    "I hear you on {their}, {name}, but I'm not there.",
    "{name}, I've thought about {their} too, and I land somewhere else.",
    "{name}, {their} [isn't|aren't] the end of it.",
)
