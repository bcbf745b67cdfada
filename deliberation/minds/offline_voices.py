"""The offline engine's phrasebook: how each persona opens, argues and closes.

Placeholders: {name} (the juror answered), {label}, {detail}, {reason}, {witness}, {issue},
{testimony}, {defendant}, {charge}, {round}, {guilty}, {not_guilty}. Openers answer the previous
speaker; bodies carry the evidence; closers are the persona's voice. The mind picks one of each
with its seeded generator, so the same seed gives the same words.
"""

from __future__ import annotations

# Argument types each archetype reaches for first (its own style), before its modifiers.
ARCHETYPE_TYPES: dict[str, tuple[str, ...]] = {
    "rationalist": ("logical", "evidence", "question"),
    "empath": ("emotional", "moral", "narrative"),
    "cynic": ("evidence", "logical"),
    "conformist": ("evidence", "emotional", "logical"),
    "contrarian": ("question", "logical", "question"),
    "impatient": ("logical", "evidence"),
    "detail_obsessed": ("evidence", "question", "evidence"),
    "moralist": ("moral", "emotional", "moral"),
    "pragmatist": ("logical", "moral"),
    "storyteller": ("narrative", "narrative", "emotional"),
    "wildcard": ("question", "narrative", "emotional", "evidence", "logical", "moral"),
    "everyman": ("evidence", "logical", "narrative", "emotional"),
}

OPEN_DISAGREE: dict[str, tuple[str, ...]] = {
    "rationalist": ("{name}, that's an impression, not an argument.", "With respect, {name}, show me the data."),
    "empath": (
        "{name}, I understand, but there's a person at the centre of this.",
        "I hear you, {name}, I just feel differently.",
    ),
    "cynic": (
        "Come on, {name}. I've heard that line a hundred times.",
        "{name}, that's exactly what the defense wants us to think.",
    ),
    "conformist": (
        "I'm not sure, {name}. I don't want to argue, but...",
        "Maybe, {name}, though I keep going back and forth.",
    ),
    "contrarian": (
        "{name}, let me push back, since nobody else will.",
        "Interesting, {name}. Now argue the other side.",
    ),
    "impatient": ("{name}, we're going round in circles.", "Look, {name}, I have a business to run, so briefly:"),
    "detail_obsessed": (
        "{name}, you've skipped over a detail.",
        "Excuse me, {name}, that's not quite what the record says.",
    ),
    "moralist": ("{name}, right and wrong aren't that complicated.", "I'll say it plainly, {name}: I disagree."),
    "pragmatist": ("{name}, think about what follows if you're wrong.", "Let's weigh it, {name}, not just feel it."),
    "storyteller": (
        "{name}, your version has a hole in the middle.",
        "That's a story, {name}, but not one that holds together.",
    ),
    "wildcard": (
        "Hmm, {name}. Here's a funny thing nobody has noticed.",
        "{name}, you're playing the melody, I'm listening to the bass line.",
    ),
    "everyman": ("I see it differently, {name}.", "{name}, I'm not there yet."),
}
OPEN_AGREE: dict[str, tuple[str, ...]] = {
    "rationalist": ("{name} is right on the facts, and I'd add this.", "That follows, {name}. One more step:"),
    "empath": ("Thank you, {name}, that matters.", "{name}, you said what I was feeling."),
    "cynic": ("Finally, {name} gets it.", "{name}'s right. I've seen this before."),
    "conformist": ("I agree with {name}.", "What {name} said, yes."),
    "contrarian": ("I hate to agree with {name}, but here we are.", "{name}, for once I can't find a counterpoint."),
    "impatient": ("Yes, {name}. Exactly. Can we move on?", "{name} nailed it."),
    "detail_obsessed": ("{name} is right, and the details back it up.", "Precisely, {name}, and look closer."),
    "moralist": ("Amen, {name}.", "{name} speaks the truth."),
    "pragmatist": ("{name}'s reasoning holds up.", "I'm with {name} on this, and here's the practical side."),
    "storyteller": ("{name}'s telling it the way it reads.", "Yes, {name}, that's the thread."),
    "wildcard": ("{name}, yes, and also something else.", "Riffing on what {name} said:"),
    "everyman": ("I think {name} is right.", "Same here, {name}."),
}
OPEN_FRESH: dict[str, tuple[str, ...]] = {
    "rationalist": ("Let's start with what we can verify.",),
    "empath": ("Before we go further, let's remember who we're judging.",),
    "cynic": ("I'll say what everyone's thinking.",),
    "conformist": ("I'm not sure I should go first, but...",),
    "contrarian": ("Let me ask the uncomfortable question.",),
    "impatient": ("I'll be quick.",),
    "detail_obsessed": ("I've been going through my notes.",),
    "moralist": ("This is about right and wrong.",),
    "pragmatist": ("Let's be practical about this.",),
    "storyteller": ("Let me walk through it as it happened.",),
    "wildcard": ("Something's been bugging me.",),
    "everyman": ("Here's where I am.",),
}

CLOSE_GUILTY: dict[str, tuple[str, ...]] = {
    "rationalist": (
        "The evidence points one way.",
        "I follow the data, and the data says guilty.",
        "Until someone explains that away, I vote guilty.",
    ),
    "empath": (
        "It hurts to say it, but I think {defendant} did this.",
        "Compassion doesn't mean ignoring what happened.",
        "Someone was hurt, and that has to count.",
    ),
    "cynic": (
        "Guilty. It's not complicated.",
        "They always have an excuse.",
        "I spent thirty years watching people like this walk.",
    ),
    "conformist": (
        "I think I'm leaning guilty, like most of you.",
        "I'll go with guilty for now.",
        "I suppose that makes it guilty for me.",
    ),
    "contrarian": (
        "Somebody has to say it: guilty holds up better than you think.",
        "Argue me out of guilty, I dare you.",
        "Oddly, the case for guilty is the stronger one.",
    ),
    "impatient": ("Guilty. Let's vote.", "Can we just vote already? Guilty.", "I've heard enough. Guilty."),
    "detail_obsessed": (
        "Every detail lines up. Guilty.",
        "I checked it twice. It fits.",
        "The small things agree, and that convinces me.",
    ),
    "moralist": (
        "Justice has to be done.",
        "Wrong is wrong, and this was wrong.",
        "We can pray for {defendant}, but we can't pretend.",
    ),
    "pragmatist": (
        "Letting a guilty person walk has consequences too.",
        "On balance, guilty is the responsible call.",
        "The cost of acquitting here is too high.",
    ),
    "storyteller": (
        "The prosecution's story holds from start to finish.",
        "Every chapter leads to {defendant}.",
        "It reads like a confession written in evidence.",
    ),
    "wildcard": (
        "Call it a hunch, but guilty.",
        "Strange tune, but it resolves to guilty.",
        "Guilty, and don't ask me to explain the feeling.",
    ),
    "everyman": ("I think it's guilty.", "That's enough for me to say guilty.", "I can't see another explanation."),
}
CLOSE_NOT_GUILTY: dict[str, tuple[str, ...]] = {
    "rationalist": (
        "That's not proof beyond reasonable doubt.",
        "Correlation isn't guilt.",
        "The logic has a gap, and gaps mean not guilty.",
    ),
    "empath": (
        "We could ruin an innocent life here.",
        "I can't send someone away on this.",
        "Think of {defendant}'s family if we're wrong.",
    ),
    "cynic": (
        "Even I can see the holes in this one.",
        "I don't like it, but the case is sloppy.",
        "I've seen good cases. This isn't one.",
    ),
    "conformist": (
        "I'm leaning not guilty, if that's all right.",
        "I think I'll stay with not guilty for now.",
        "Maybe not guilty, then.",
    ),
    "contrarian": (
        "Doubt is the whole point of a jury.",
        "Nobody has answered that, so: not guilty.",
        "Prove me wrong, but I'm not convinced.",
    ),
    "impatient": (
        "Not guilty, and let's wrap this up.",
        "It's not there. Not guilty. Can we vote?",
        "Not guilty. Moving on.",
    ),
    "detail_obsessed": (
        "One contradiction is enough for me.",
        "The details don't line up.",
        "I won't ignore an inconsistency like that.",
    ),
    "moralist": (
        "Convicting the innocent is the greater sin.",
        "Justice means being sure.",
        "My conscience says not guilty.",
    ),
    "pragmatist": (
        "The cost of convicting an innocent person is too high.",
        "On balance, the risk says not guilty.",
        "If we're wrong, there's no undoing it.",
    ),
    "storyteller": (
        "The story has a hole you could drive a truck through.",
        "There's another ending that fits just as well.",
        "A story with plot holes isn't proof.",
    ),
    "wildcard": (
        "Something's off-key. Not guilty.",
        "I can't explain it, but not guilty.",
        "My gut hears a wrong note.",
    ),
    "everyman": ("I'm not convinced.", "That leaves me with doubt.", "I can't say guilty with that hanging there."),
}

# Bodies per argument type. "support": an item that helps the speaker's side; "contest": a
# contested item or a witness's credibility problem, turned to the speaker's side.
BODY_SUPPORT: dict[str, tuple[str, ...]] = {
    "evidence": (
        "Take the {label}. {detail}",
        "Look at the {label} again: {detail}",
        "The {label} is the piece that matters. {detail}",
    ),
    "logical": (
        "Follow it step by step. The {label}: {detail} That leaves one reasonable reading.",
        "If we accept the {label}, and I do, then the rest follows. {detail}",
        "Put the {label} next to {other}, and the conclusion is hard to avoid.",
    ),
    "question": (
        "How do we explain the {label} any other way? {detail}",
        "Has anyone actually answered the {label}? {detail}",
        "What does the {label} tell us, if not that? {detail}",
    ),
    "emotional": (
        "I keep picturing the {label}. {detail}",
        "The {label} isn't just a line in a file. {detail}",
        "When I heard about the {label}, my stomach turned. {detail}",
    ),
    "moral": (
        "We owe it to the truth to take the {label} seriously. {detail}",
        "It would be wrong to wave away the {label}. {detail}",
        "Honesty means facing the {label}. {detail}",
    ),
    "narrative": (
        "Tell it in order: first the {label}, then {other}. {detail}",
        "The story starts with the {label}. {detail}",
        "Every good story has a turning point, and here it's the {label}. {detail}",
    ),
}
BODY_CONTEST: dict[str, tuple[str, ...]] = {
    "evidence": (
        "The {label} has a problem: {reason}.",
        "Everyone leans on the {label}, but {reason}.",
        "Read the file on the {label} closely: {reason}.",
    ),
    "logical": (
        "The {label} only proves something if it's reliable, and {reason}.",
        "Strip out the {label}, since {reason}, and what's left?",
        "An argument is as strong as its weakest link, and with the {label}, {reason}.",
    ),
    "question": (
        "Why should we trust the {label} when {reason}?",
        "Has anyone explained this about the {label}: {reason}?",
        "What do we do with the fact that, on the {label}, {reason}?",
    ),
    "emotional": (
        "It frightens me that the {label} carries so much weight when {reason}.",
        "Imagine being judged on the {label} when {reason}.",
        "I can't shake it: on the {label}, {reason}.",
    ),
    "moral": (
        "It isn't right to convict on the {label} when {reason}.",
        "Our duty is to the truth, and on the {label}, {reason}.",
        "We can't build justice on the {label} if {reason}.",
    ),
    "narrative": (
        "The story needs the {label} to hold, but {reason}.",
        "Here's where the story breaks: the {label}, because {reason}.",
        "Retell it without the {label}, since {reason}, and it falls apart.",
    ),
}
BODY_WITNESS_SUPPORT: tuple[str, ...] = (
    "{witness} was clear: {testimony}",
    "Remember what {witness} told the court: {testimony}",
    "{witness}'s account stands up: {testimony}",
)
BODY_WITNESS_ATTACK: tuple[str, ...] = (
    "And {witness}? {Issue}. How much weight can that carry?",
    "We're asked to believe {witness}, but {issue}.",
    "I don't trust {witness}'s account: {issue}.",
    "{witness} is the weak link: {issue}.",
)
BODY_REBUT: tuple[str, ...] = (
    "The defense says that on the {label}, {reason}. Fine. {detail}",
    "Yes, some say about the {label} that {reason}. It still stands: {detail}",
)
ROUND_ASIDES: tuple[str, ...] = (
    "We're {guilty} to {not_guilty} right now, and I think that tells us something.",
    "This is round {round}; let's make it count.",
    "It's {guilty} guilty, {not_guilty} not guilty, and I understand why.",
    "Round {round}, and one question keeps coming back to me.",
)

THOUGHT_PERSUADED: tuple[str, ...] = (
    "{name} has a point about {short}.",
    "Hadn't weighed {short} like that.",
    "{Short}. That changes things.",
    "Fair. {Short} bothers me now.",
)
THOUGHT_AGREE: tuple[str, ...] = (
    "Exactly what I thought about {short}.",
    "{name} sees it clearly.",
    "Yes. {Short} matters.",
    "Good, someone said it.",
)
THOUGHT_UNMOVED: tuple[str, ...] = (
    "{name} is stretching on {short}.",
    "Not convinced by {name}.",
    "{Short} proves less than that.",
    "Heard it before. Still unmoved.",
    "{name} is missing the bigger picture.",
)
