"""The offline engine's phrasebook: how each persona opens, argues and closes.

Placeholders: {name} (the juror answered), {defendant}, {short} / {Short} (an item, in thoughts).
Openers answer the previous speaker; closers are the persona's voice (the arguments themselves are
in ``offline_phrases``). The mind picks one of each with its seeded generator, avoiding lines the
room has just heard, so the same seed gives the same words and the room does not echo itself.
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
    "rationalist": (
        "{name}, that's an impression, not an argument.",
        "With respect, {name}, show me the data.",
        "{name}, I don't think that follows.",
        "Let's separate what we know from what we assume, {name}.",
    ),
    "empath": (
        "{name}, I understand, but there's a person at the centre of this.",
        "I hear you, {name}, I just feel differently.",
        "{name}, I know you mean well, but I can't get there.",
        "Gently, {name}, I see it another way.",
    ),
    "cynic": (
        "Come on, {name}. I've heard that line a hundred times.",
        "{name}, that's exactly what the other side wants us to think.",
        "Nice try, {name}.",
        "{name}, you're being played.",
    ),
    "conformist": (
        "I'm not sure, {name}. I don't want to argue, but...",
        "Maybe, {name}, though I keep going back and forth.",
        "{name}, I'd like to agree, I really would.",
        "I don't know, {name}. Something doesn't sit right.",
    ),
    "contrarian": (
        "{name}, let me push back, since nobody else will.",
        "Interesting, {name}. Now argue the other side.",
        "{name}, everyone's nodding along, and that worries me.",
        "{name}, I'm not buying it yet:",
    ),
    "impatient": (
        "{name}, we're going round in circles.",
        "Look, {name}, I have a business to run, so briefly:",
        "{name}, we've heard this.",
        "Quickly, {name}, because time matters:",
    ),
    "detail_obsessed": (
        "{name}, you've skipped over a detail.",
        "Excuse me, {name}, that's not quite what the record says.",
        "{name}, check the file again.",
        "One correction, {name}.",
    ),
    "moralist": (
        "{name}, right and wrong aren't that complicated.",
        "I'll say it plainly, {name}: I disagree.",
        "{name}, I have to answer that in conscience.",
        "No, {name}. I can't go along with that.",
    ),
    "pragmatist": (
        "{name}, think about what follows if you're wrong.",
        "Let's weigh it, {name}, not just feel it.",
        "{name}, what does that actually change?",
        "Practically speaking, {name}, that doesn't hold.",
    ),
    "storyteller": (
        "{name}, your version has a hole in the middle.",
        "That's a story, {name}, but not one that holds together.",
        "{name}, you've told the ending before the beginning.",
        "Let me tell it differently, {name}.",
    ),
    "wildcard": (
        "Hmm, {name}. Here's a funny thing nobody has noticed.",
        "{name}, you're playing the melody, I'm listening to the bass line.",
        "Sideways thought, {name}.",
        "{name}, flip it upside down for a second.",
    ),
    "everyman": (
        "I see it differently, {name}.",
        "{name}, I'm not there yet.",
        "Hang on, {name}.",
        "{name}, I'm not sure about that.",
    ),
}
OPEN_AGREE: dict[str, tuple[str, ...]] = {
    "rationalist": (
        "{name} is right on the facts, and I'd add this.",
        "That follows, {name}. One more step:",
        "{name}'s reasoning is sound.",
        "Agreed, {name}, and here's the evidence for it.",
    ),
    "empath": (
        "Thank you, {name}, that matters.",
        "{name}, you said what I was feeling.",
        "I'm glad you said that, {name}.",
        "{name}, that rings true to me.",
    ),
    "cynic": (
        "Finally, {name} gets it.",
        "{name}'s right. I've seen this before.",
        "For once, {name}, yes.",
        "Right, agreed.",
    ),
    "conformist": ("I agree with {name}.", "What {name} said, yes.", "I think {name} has it.", "Yes, like {name}."),
    "contrarian": (
        "I hate to agree with {name}, but here we are.",
        "{name}, for once I can't find a counterpoint.",
        "Annoyingly, {name} is right.",
        "I looked for the hole in that, {name}. There isn't one.",
    ),
    "impatient": (
        "Yes, {name}. Exactly. Can we move on?",
        "{name} nailed it.",
        "Right you are, {name}.",
        "Agreed. Briefly:",
    ),
    "detail_obsessed": (
        "{name} is right, and the details back it up.",
        "Precisely, {name}, and look closer.",
        "That's accurate, {name}.",
        "{name} has the record right.",
    ),
    "moralist": (
        "Amen to that, {name}.",
        "{name} speaks the truth.",
        "Well said, {name}.",
        "{name}, that's the honest view.",
    ),
    "pragmatist": (
        "{name}'s reasoning holds up.",
        "I'm with {name} on this, and here's the practical side.",
        "Sensible point, {name}.",
        "{name}, that's the realistic view.",
    ),
    "storyteller": (
        "{name}'s telling it the way it reads.",
        "Yes, {name}, that's the thread.",
        "{name} has the plot right.",
        "Pick up {name}'s thread:",
    ),
    "wildcard": (
        "{name}, yes, and also something else.",
        "Riffing on what {name} said:",
        "{name}, same song, different verse.",
        "Odd, {name}, I was thinking it too.",
    ),
    "everyman": ("I think {name} is right.", "Same here, {name}.", "{name} has a point.", "I'm with {name}."),
}
OPEN_FRESH: dict[str, tuple[str, ...]] = {
    "rationalist": ("Let's start with what we can verify.", "Facts first."),
    "empath": ("Before we go further, let's remember who we're judging.", "Let's remember there are people in this."),
    "cynic": ("I'll say what everyone's thinking.", "Let's not kid ourselves."),
    "conformist": ("I'm not sure I should go first, but...", "I'll try, if nobody minds."),
    "contrarian": ("Let me ask the uncomfortable question.", "Someone should go against the grain."),
    "impatient": ("I'll be quick.", "Short version:"),
    "detail_obsessed": ("I've been going through my notes.", "I wrote something down."),
    "moralist": ("This is about right and wrong.", "Let's keep our consciences in this."),
    "pragmatist": ("Let's be practical about this.", "Let's weigh what we have."),
    "storyteller": ("Let me walk through it as it happened.", "Picture it from the start."),
    "wildcard": ("Something's been bugging me.", "Odd thought."),
    "everyman": ("Here's where I am.", "For what it's worth:"),
}

# When every opener of a persona has been heard in the game: a plain word to the juror answered.
ADDRESS: tuple[str, ...] = (
    "{name}, hear me out.",
    "{name}, one more thing.",
    "Well, {name}, here's my view.",
    "{name}, look at it this way.",
    "{name}, let me answer that.",
    "{name}, if I may.",
    "{name}, I've been listening.",
    "Let me come back to you, {name}.",
)

CLOSE_GUILTY: dict[str, tuple[str, ...]] = {
    "rationalist": (
        "The explanation that fits all of it is guilt.",
        "The evidence points one way.",
        "I follow the data, and the data says guilty.",
        "Until someone explains that away, I vote guilty.",
    ),
    "empath": (
        "I wish I could see it another way. I can't.",
        "It hurts to say it, but I think {defendant} did this.",
        "Compassion doesn't mean ignoring what happened.",
        "Someone was hurt, and that has to count.",
    ),
    "cynic": (
        "Nobody is that unlucky.",
        "It's guilty, and it isn't complicated.",
        "They always have an excuse.",
        "I spent thirty years watching people like this walk.",
    ),
    "conformist": (
        "I don't see what else it could be.",
        "I think I'm leaning guilty, like most of you.",
        "I'll go with guilty for now.",
        "I suppose that makes it guilty for me.",
    ),
    "contrarian": (
        "Everyone wants a twist. There isn't one.",
        "Somebody has to say it: guilty holds up better than you think.",
        "Argue me out of guilty, I dare you.",
        "Oddly, the case for guilty is the stronger one.",
    ),
    "impatient": (
        "We all know how this ends, so guilty.",
        "I say guilty, and let's vote.",
        "Can we just vote already? I'm at guilty.",
        "I've heard enough to say guilty.",
    ),
    "detail_obsessed": (
        "Nothing in the record contradicts it.",
        "Every detail lines up with guilt.",
        "I checked it twice. It fits.",
        "The small things agree, and that convinces me.",
    ),
    "moralist": (
        "Truth matters more than comfort.",
        "Justice has to be done.",
        "Wrong is wrong, and this was wrong.",
        "We can pray for {defendant}, but we can't pretend.",
    ),
    "pragmatist": (
        "Weighing it up, guilty.",
        "Letting a guilty person walk has consequences too.",
        "On balance, guilty is the responsible call.",
        "The cost of acquitting here is too high.",
    ),
    "storyteller": (
        "Only one ending fits this story.",
        "The prosecution's story holds from start to finish.",
        "Every chapter leads to {defendant}.",
        "It reads like a confession written in evidence.",
    ),
    "wildcard": (
        "Weird case, plain answer: guilty.",
        "Call it a hunch, but I say guilty.",
        "Strange tune, but it resolves to guilty.",
        "Guilty, and don't ask me to explain the feeling.",
    ),
    "everyman": (
        "I think it's guilty.",
        "I'd vote guilty.",
        "That's enough for me to say guilty.",
        "I can't see another explanation.",
    ),
}
CLOSE_NOT_GUILTY: dict[str, tuple[str, ...]] = {
    "rationalist": (
        "Probable isn't proven.",
        "That's not proof beyond reasonable doubt.",
        "Correlation isn't guilt.",
        "The logic has a gap, and gaps mean not guilty.",
    ),
    "empath": (
        "I need to be sure before I take someone's life apart.",
        "We could ruin an innocent life here.",
        "I can't send someone away on this.",
        "Think of {defendant}'s family if we're wrong.",
    ),
    "cynic": (
        "Somebody cut corners here.",
        "Even I can see the holes in this one.",
        "I don't like it, but the case is sloppy.",
        "I've seen good cases. This isn't one.",
    ),
    "conformist": (
        "I hope that's all right with everyone.",
        "I'm leaning not guilty, if that's all right.",
        "I think I'll stay with not guilty for now.",
        "Maybe not guilty, then.",
    ),
    "contrarian": (
        "Convince me, because nobody has yet.",
        "Doubt is the whole point of a jury.",
        "Nobody has answered that yet.",
        "Prove me wrong, but I'm not convinced.",
    ),
    "impatient": (
        "It doesn't add up to guilty.",
        "Not guilty, and let's wrap this up.",
        "The proof isn't there, so not guilty, and can we vote?",
        "Not guilty from me, moving on.",
    ),
    "detail_obsessed": (
        "Loose ends like that matter.",
        "One contradiction is enough for me.",
        "The details don't line up.",
        "I won't ignore an inconsistency like that.",
    ),
    "moralist": (
        "I won't carry a wrongful conviction on my conscience.",
        "Convicting the innocent is the greater sin.",
        "Justice means being sure.",
        "My conscience says not guilty.",
    ),
    "pragmatist": (
        "The safe answer is not guilty.",
        "The cost of convicting an innocent person is too high.",
        "On balance, the risk says not guilty.",
        "If we're wrong, there's no undoing it.",
    ),
    "storyteller": (
        "The last page is missing.",
        "The story has a hole you could drive a truck through.",
        "There's another ending that fits just as well.",
        "A story with plot holes isn't proof.",
    ),
    "wildcard": (
        "Call it instinct: not guilty.",
        "Something's off-key, so not guilty.",
        "I can't explain it, but not guilty.",
        "My gut hears a wrong note.",
    ),
    "everyman": (
        "I'm not convinced.",
        "I'd vote not guilty.",
        "That leaves me with doubt.",
        "I can't say guilty with that hanging there.",
    ),
}

# A listener's thought for each kind of move the engine computes (``engine.moves``): a clear move
# towards the speaker (persuaded, or agreeing when already on that side), a little one, none, or
# away from the speaker. The first three pools keep their sizes: the mind draws from the one its
# own impact points to, and a draw from a pool of another size would change every seeded game.
THOUGHT_PERSUADED: tuple[str, ...] = (
    "{name} has a point about {short}.",
    "Hadn't weighed {short} like that.",
    "{Short}. That changes things.",
    "Fair. {Short} [bothers|bother] me now.",
)
THOUGHT_AGREE: tuple[str, ...] = (
    "Exactly what I thought about {short}.",
    "{name} sees it clearly.",
    "Yes. {Short} [matters|matter].",
    "Good, someone said it.",
)
THOUGHT_UNMOVED: tuple[str, ...] = (
    "Not convinced by {name}.",
    "{Short} [changes|change] nothing for me.",
    "{Short} [proves|prove] less than that.",
    "Heard it before. Still unmoved.",
    "Nothing new on {short}. Same view.",
)
THOUGHT_A_LITTLE: tuple[str, ...] = (
    "{name} has a small point on {short}.",
    "A little more weight on {short} now.",
    "Fair, up to a point.",
    "{Short} [counts|count] for something, a little.",
)
THOUGHT_PUSHED_BACK: tuple[str, ...] = (
    "{name} is stretching on {short}.",
    "{name} is missing the bigger picture.",
    "That makes me doubt {name} more.",
    "{Short} [cuts|cut] the other way for me.",
)
# The words of a listener whose vote turns in the same round (``engine.moves``: ``Thought.turning``):
# none says its view stands ("Same view", "Still unmoved", "Exactly what I thought"), for the vote
# that follows says otherwise. A clear move towards a speaker whose side the listener then leaves
# grants the point; a move away names the speaker, not a side the listener then takes.
THOUGHT_GRANTED: tuple[str, ...] = (
    "{name} has a point about {short}.",
    "Fair point on {short}. I grant that.",
    "{Short} [counts|count]. I'll give {name} that.",
)
THOUGHT_UNMOVED_TURNING: tuple[str, ...] = (
    "{name} didn't settle {short} for me.",
    "{Short} [proves|prove] less than that.",
    "It's not {short} that decides it for me.",
)
THOUGHT_PUSHED_BACK_TURNING: tuple[str, ...] = (
    "{name} is stretching on {short}.",
    "{name} is missing the bigger picture.",
    "That makes me doubt {name} more.",
)
