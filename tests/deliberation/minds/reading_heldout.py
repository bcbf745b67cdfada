# ruff: noqa: E501  (the arguments are data: each text stays whole on one line)
"""Arguments about the five curated cases, held out from tuning the offline reading: the test part.

NOBODY WHO TUNES THE READING OPENS THIS FILE. Run the measure on it
(``reading_measure.measure(HELDOUT_ARGUMENTS, HELDOUT_PAIRS)``) and report its counts and ratios
only: do not print its ``wrong`` list, which quotes the texts, and never change these texts. Tune
on ``reading_dev.py``.

Written on 2026-11-28, before the reading was tuned on any of it, by a test writer who had not
seen the reading's rules (``deliberation/minds/offline/reading.py``, ``offline/lexicon.py``) or
the older set in ``reading_set.py`` beyond its two dataclasses, from the curated case files alone.
This part and ``reading_dev.py`` were written as one set of 250 items and split by a fixed rule
(alternating within each case and stratum in the order written); ``reading_dev.py``'s docstring
describes the voices, the grades and the rule. This part holds exactly half of every stratum: per
case 4 strong and 3 weak arguments each way, 4 off-topic, 2 salad and 5 pairs (100 arguments and
25 pairs in all).
"""

from __future__ import annotations

from tests.deliberation.minds.reading_set import A, Argument, C, K, P, Pair, R

HELDOUT_ARGUMENTS = (
    # kessler-market-robbery
    Argument(
        K,
        "guilty",
        "strong",
        "The strongest point is the money. The store had written down the serial numbers of six twenty-dollar notes, and all six turned up folded in Hale's glovebox, with the total matching exactly what was missing from the register. There is no ordinary way for those particular notes to travel from the till to his car in twenty minutes. Either he took them or he was handed them straight away by whoever did, and he has never said the second.",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "I've been around long enough to know that people who come by money honestly will tell you where it came from. At the roadside he said he was just driving about. Only after he was told about the marked notes did a card game appear, and he still won't name the friend who hosted it or give an address. That second story was made up to fit the money.",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "If he wasn't the man in the shop, why was his phone on the mast right by the market from 9:31 to 9:49, and then moving north-west the same way he was driving when the police stopped him?",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "Oh right, he just happened to win exactly $412 at a card game, the exact amount gone from the register, including the shop's own marked twenties. What luck.",
    ),
    Argument(
        K, "guilty", "weak", "idk he just seems guilty, like whos driving around at night with a bandana in the car"
    ),
    Argument(
        K,
        "guilty",
        "weak",
        "He was two months behind on his rent and out of work since January. People in that situation sometimes do desperate things, and I think that's what happened here.",
    ),
    Argument(K, "guilty", "weak", "Come on, how many coincidences do we need before we call it what it is?"),
    Argument(
        K,
        "not_guilty",
        "strong",
        "The thumbprint proves less than it seems. Hale bought cigarettes at that same counter two days before, and the owner can't say for certain the glass was cleaned in between. A fingerprint can't be dated. So it shows he was a customer at some point, not that he was the robber.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "The video from the camera in the ceiling is low quality and far away, the face is only some pixels. The small dark mark on the jaw can be a shadow or a problem of the compression, not a mole at all.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "That clerk never actually saw his whole face. She saw a chin for about two seconds while a gun was pointed at her chest, and she told the 911 operator the man was maybe twenty-five, when Hale is thirty-one.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "The print match wasn't checked blind: the second examiner already knew Pike had called it a match, and Pike admits he can't say when the print was left. So the one thing putting him at the counter during the robbery is a print of unknown age, confirmed by someone who knew the answer he was expected to give.",
    ),
    Argument(K, "not_guilty", "weak", "idk grey hoodies are literaly everywhere, i own like 3"),
    Argument(
        K,
        "not_guilty",
        "weak",
        "He's a roofer who lost his job, not a hardened criminal. I don't like how quick everyone in this room is to assume the worst about a man down on his luck.",
    ),
    Argument(K, "not_guilty", "weak", "Yeah because no other silver Civic exists in the whole of Dayton, sure."),
    Argument(
        K,
        "none",
        "off_topic",
        "Does anyone know if the cafeteria is doing the pasta today or is it the sad sandwiches again?",
    ),
    Argument(K, "none", "off_topic", "sorry i missed the start, what are we supposed to be doing rn"),
    Argument(K, "none", "off_topic", "Can we take a five minute break? My coffee's gone cold."),
    Argument(K, "none", "off_topic", "who's got a charger, my phone is on 3%"),
    Argument(K, "none", "salad", "bait bills glovebox hoodie bandana thumbprint counter"),
    Argument(K, "none", "salad", "cctv 720p mole jaw roofing logo"),
    # alder-street-hit-and-run
    Argument(
        A,
        "guilty",
        "strong",
        "the bus driver got 7K and a 2 at the end and her plate is 7KR 402 on a dark green subaru. thats her car",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "Two days after the crash she phoned a body shop, and a few days later she replaced her left low beam, which is the one headlight the cyclist remembers being out. That's someone fixing the evidence, not a routine service.",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "The story of the deer in October has nothing at all to support it: no photo, no insurance claim, no person who saw. For a dent like that, most people make a claim or at least take a picture.",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "The takeaway receipt doesn't clear her. It says she paid at 6:52, twelve minutes after the crash, and two miles is plenty of time to drive round the block and still pick up the food.",
    ),
    Argument(A, "guilty", "weak", "I'm maybe sixty-forty that it was her, mostly because of the car."),
    Argument(A, "guilty", "weak", "She live on this road, she drive there every day, it is very possible it was her."),
    Argument(
        A,
        "guilty",
        "weak",
        "the guy outside the bakery was like 25 metres away looking at the back of a head, i wouldnt trust him over the kid",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "the glass bits on the road came from a light with a whole chunk missing but her fog light is cracked and still in one piece. so that glass isnt from her car??",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The DMV has three dark Subaru-type SUVs in the county matching 7K-something-2, and the police never even talked to the owner of the third one. The plate points to three cars, not to hers.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The boy saw the driver maybe one second, through a wet window which was closed, at night, and he was only 60 percent sure. Also he saw the news about the arrest before the photos. This is not a good identification.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The phone mast doesn't put her at the corner. Its wedge covers the junction and also the bit of Hawthorne where the restaurant is, so her phone connecting there fits her story just as well as the prosecution's.",
    ),
    Argument(
        A,
        "not_guilty",
        "weak",
        "I'm not convinced. It could have been her, but it could just as easily have been someone else.",
    ),
    Argument(A, "not_guilty", "weak", "She is a mother with a good job, I don't think she drive away from a hurt boy."),
    Argument(A, "not_guilty", "weak", "it was dark and pouring with rain, nobody saw anything properly"),
    Argument(A, "none", "off_topic", "Is it just me or is the projector really blurry from the back row?"),
    Argument(
        A,
        "none",
        "off_topic",
        "My neighbour's dog got out last week and we spent two hours walking round the park shouting his name. Turned out he was asleep under their porch the whole time.",
    ),
    Argument(
        A,
        "none",
        "off_topic",
        "When I was young we walked to school in all weathers and nobody made a fuss about it. Rain, snow, it didn't matter, you went.",
    ),
    Argument(A, "none", "off_topic", "my bike got a flat on the way in this morning so im in a mood"),
    Argument(A, "none", "salad", "bus driver, partial plate, body shop, deer, Thai takeout"),
    Argument(A, "none", "salad", "Alder 39th Hawthorne receipt 6:52 cell tower baseball cap"),
    # copper-kettle-fire
    Argument(
        C,
        "guilty",
        "strong",
        "Look at the money. He was $61,000 behind, he had missed three payments in a row, and the bank had written in May to say the loan might be called in. Seven weeks before the fire he raised his insurance from $400,000 to $650,000. That is a very strong reason to want the building gone.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "He bought a five-gallon can and filled it four days before, then told the detective he didn't keep gas around. When the police found the can it had about a gallon left in it. A lawnmower doesn't drink nearly four gallons in one go, so where did the rest go?",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "The neighbour's camera doesn't give him an alibi. It only records when it sees movement, it's rated for 9 metres and his drive is 20 metres away, so his car could have left and come back without a single clip.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "I'm not saying the fire captain got everything right, but the one sample that came back positive was gasoline, right where he said the fire started, and that burnt wire thing on the sign can just be damage done by the fire once it was going.",
    ),
    Argument(C, "guilty", "weak", "hes broke and the place burns down. kinda obvious"),
    Argument(
        C,
        "guilty",
        "weak",
        "The fire captain has twenty-four years on the job. I'd trust him over somebody who's being paid by the defence to say the opposite, and who never even went to the building.",
    ),
    Argument(
        C,
        "guilty",
        "weak",
        "Oh sure, a flickering sign picked the exact night he was drowning in debt to burn the place down.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "The captain's 'pour patterns', crazed glass and deep burn are the exact signs the national fire investigation guide says a full-room flashover can make all by itself. The dining room did reach flashover before the engines arrived. He also wrote his conclusion before the lab results came back, and he never looked at the wiring. His main reasons prove nothing.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "His code was his birth year, 1968, and the night manager says everyone who ever closed up knew it, including the cook who'd been sacked three weeks earlier for drinking and who said the dump deserved what it got. A code only tells you which numbers somebody pressed.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "The gas can doesn't show he took any petrol to the diner. It was found at home in his own garage, and a neighbour saw him mowing the lawn that weekend.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "His phone was on his home wifi from midnight until six in the morning, four miles away, and the doorbell camera across the road never shows his car leaving. Everything we actually have puts him at home.",
    ),
    Argument(C, "not_guilty", "weak", "he ran that diner for 16 years it was his parents place, no way he torches it"),
    Argument(
        C,
        "not_guilty",
        "weak",
        "Lots of small businesses fall behind on their loans, especially after a slow spring. If every one of them burnt down there would be nothing left on the high street. Being short of money is not a crime.",
    ),
    Argument(
        C, "not_guilty", "weak", "Great, so the proof is one guy who's 'seen a hundred of these'. Very scientific."
    ),
    Argument(C, "none", "off_topic", "The heating in this room is either off or on full blast, there's no in-between."),
    Argument(C, "none", "off_topic", "omg my mum just texted me to pick up milk"),
    Argument(C, "none", "off_topic", "Sorry, I go to the toilet quickly, please continue without me."),
    Argument(C, "none", "off_topic", "lunch today was basically burnt toast, the canteen needs help"),
    Argument(C, "none", "salad", "alarm code 01 flashover gasoline host stand neon sign"),
    Argument(C, "none", "salad", "insurance $650,000 loan arrears gas can lawnmower"),
    # pruitt-basement-killing
    Argument(
        P,
        "guilty",
        "strong",
        "he literally texted the guy 'you'll regret it' 2 days before and then the guy is dead in the basement. and his sweatshirt had the landlords blood all over it",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "Mrs Finch heard a thud and a man shouting just after the ten o'clock news started, and his 911 call isn't until 10:19. That's a gap of fifteen minutes or so, and the wrench was found wet under the sink with the tap still dripping. Someone used that time to wash it.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "He owed three months of rent, he got the papers for eviction, and the landlord put the things of his little girl out on the street. This is a very strong reason to be angry with this man.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "Who else is actually put in that basement that night? Nobody. The figure in the alley has no face, and the nephew's bartender has him across town.",
    ),
    Argument(P, "guilty", "weak", "I'm leaning guilty, though I'll admit I'm not totally sure yet."),
    Argument(P, "guilty", "weak", "He was angry with the landlord, everybody know this, so I think it is him."),
    Argument(P, "guilty", "weak", "the nephews alibi checked out with the detective so thats one less suspect"),
    Argument(
        P,
        "not_guilty",
        "strong",
        "he called 911 HIMSELF and on the recording youre literally hearing him count the compressions and crying. killers dont do that",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "About $2,900 in rent cash disappeared from the wallet, and the police searched his flat, his car and his work and found thirty-seven dollars. If he killed him for the money, or even took it to fake a robbery, where is it?",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "The camera of the laundromat shows a person in a long dark jacket with hood, going fast out of the alley at 10:09. The back door to the alley was unlocked. The nephew is 1.80 m and has a jacket like this, and police never take it.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "He paid $1,500 by money order the day before, and the eviction hearing wasn't for another month. Why would you pay down your debt on Monday and kill the man on Tuesday?",
    ),
    Argument(P, "not_guilty", "weak", "Something about this doesn't add up for me, I can't say exactly what."),
    Argument(P, "not_guilty", "weak", "Maybe another person do it, the door to the alley was open."),
    Argument(
        P,
        "not_guilty",
        "weak",
        "Being angry at your landlord isn't the same as killing him. Everyone's been angry at a landlord.",
    ),
    Argument(P, "none", "off_topic", "Can somebody turn the lights down a bit? The glare on the screen is awful."),
    Argument(
        P,
        "none",
        "off_topic",
        "My flat's washing machine flooded the bathroom last month and the landlord took three weeks to send anyone round. We had towels on the floor the whole time.",
    ),
    Argument(
        P,
        "none",
        "off_topic",
        "My late husband was a plumber, and he always said you can tell everything about a house from its pipes.",
    ),
    Argument(P, "none", "off_topic", "how long have we got left? i have football after"),
    Argument(P, "none", "salad", "Castellano Pruitt Finch Solberg Ostrander Wade"),
    Argument(P, "none", "salad", "alley camera dark jacket $2,900 wallet Quail Street"),
    # route-nine-fuel-stop-murder
    Argument(
        R,
        "guilty",
        "strong",
        "The cellmate says Dorsey told him he shot 'the old man for three hundred dollars'. That is a confession to this exact crime: an old man, a gas station, a robbery for about that much money.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "The mask was pulled out of a public rubbish bin sixty yards away the next morning. Merrick's sweat on it tells us he wore it at some time, not that he wore it that night. Anybody can throw anything in a public bin.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "The DNA doesn't rule Dorsey out of being there; it only shows Merrick touched the mask and the victim at some point. Nobody can date DNA, the lab analyst said so herself on the stand.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "I accept the DNA is a problem for the State. But a woman who saw the face as the mask came down, and then picked him out of six photos, is still evidence, and I can't just throw it away because of a test done nineteen years later. She has never changed her mind in all that time.",
    ),
    Argument(R, "guilty", "weak", "he was on probation already so like"),
    Argument(
        R,
        "guilty",
        "weak",
        "The State wouldn't bring a case back to court after twenty years unless they thought they had the right man. Prosecutors don't waste time on hopeless cases, in my experience.",
    ),
    Argument(R, "guilty", "weak", "Oh sure, blame the dead guy. Very convenient that he can't answer back."),
    Argument(
        R,
        "not_guilty",
        "strong",
        "The victim fought his attacker before he was shot: bruised knuckles, a torn shirt. Under his fingernails was the DNA of one man, and it is the same man whose sweat is inside the mask the witness saw the gunman wearing. That man is Dale Merrick, and Dorsey is excluded from both samples. I don't see how that leaves room for Dorsey.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "The cellmate had eight years knocked off his sentence, he's informed in two other cases, he asked to be moved into Dorsey's cell, and everything he said was already in the newspaper, right down to the rounded three hundred dollars.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "That witness never actually had a good look. Three seconds, at night, in the rain, through her windscreen, forty feet away, while she was watching the gun.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "There's a receipt from the video shop for a DVD rented on his girlfriend's account at 8:14 that evening, and she says he arrived around nine. The $240 in his wallet isn't the stolen money either; he was paid $263 at the car wash the day before.",
    ),
    Argument(R, "not_guilty", "weak", "he already lost 19 years of his life, this is so unfair"),
    Argument(
        R,
        "not_guilty",
        "weak",
        "Eyewitnesses get things wrong all the time. I've been absolutely certain of things myself that I later found out were completely wrong, and I wasn't frightened half to death at the time.",
    ),
    Argument(
        R,
        "not_guilty",
        "weak",
        "Sure, let's trust the guy who got a shorter sentence for talking. What could go wrong.",
    ),
    Argument(R, "none", "off_topic", "Does anyone want the rest of my crisps? I'm full."),
    Argument(R, "none", "off_topic", "brb my mum is calling"),
    Argument(R, "none", "off_topic", "What time the bus comes after the class? I must not miss it."),
    Argument(
        R, "none", "off_topic", "Has anyone seen that new film about the bank heist? I fell asleep halfway through."
    ),
    Argument(R, "none", "salad", "ski mask DNA fingernails Merrick 9 mm"),
    Argument(R, "none", "salad", "photo array cellmate .38 newspaper $286"),
)

HELDOUT_PAIRS = (
    # kessler-market-robbery
    Pair(
        K,
        "thumbprint",
        guilty="his thumb print was right where the robber leaned in the video, 14 points matching",
        not_guilty="he bought smokes at that counter 2 days before, the print could be from then, you cant date a print",
    ),
    Pair(
        K,
        "photo lineup",
        guilty="She picked him out of six photos and said she was 80 percent sure; that is a real identification.",
        not_guilty="the detective knew which one was him and he was the only guy in grey, so her pick means nothing",
    ),
    Pair(
        K,
        "phone data",
        guilty="His phone was in the sector around the market during the robbery and then moved toward where he was stopped.",
        not_guilty="The sector is 1.4 square miles with 600 homes in it; his phone being there doesn't put him in the shop.",
    ),
    Pair(
        K,
        "clothes in the car",
        guilty="hoodie with the roofing logo and a red bandana in his car, same as the video, and he used to work for that roofing company",
        not_guilty="A grey hoodie and a red bandana are about the most common clothes there are, and in most frames the logo is just an orange smear.",
    ),
    Pair(
        K,
        "the car",
        guilty="the car had the broken right tail light the clerk told 911 about, and it was a silver civic like she said",
        not_guilty="The clerk only said a silver car like a Civic or a Corolla; there are thousands of those, and a cracked light isn't rare.",
    ),
    # alder-street-hit-and-run
    Pair(
        A,
        "plate",
        guilty="The bus driver read 7K...2 on a dark green Subaru-looking SUV; hers is 7KR 402, a dark green Forester.",
        not_guilty="She wasn't even sure if the last one was a 2 or a Z, in the rain, and there's a third matching car nobody checked.",
    ),
    Pair(
        A,
        "dent",
        guilty="Fresh dent on the front right, right where you'd hit someone riding on the right of the lane.",
        not_guilty="A repair expert found brown hairs in the dent and says it's the shape of a deer strike, not a bicycle.",
    ),
    Pair(
        A,
        "takeaway receipt",
        guilty="The receipt says 6:52, twelve minutes after the crash; she had time to hit him and still grab the food.",
        not_guilty="She ordered at 6:21 for pickup around 6:45 and paid at 6:52 on Hawthorne, to the south, while the SUV drove off north.",
    ),
    Pair(
        A,
        "bakery witness",
        guilty="The bakery man was 25 metres away seeing the back of a head, and he admits a woman with her hair up under a hood could look the same.",
        not_guilty="The bakery witness told the officer straight away that the driver was a guy in a cap; that's not Leanne Cordell.",
    ),
    Pair(
        A,
        "route home",
        guilty="She clocked out at 6:27 and her normal fifteen-minute drive home goes right through Alder and 39th.",
        not_guilty="She went a different way that night for takeaway, and the online order placed at 6:21 shows she planned it before she left work.",
    ),
    # copper-kettle-fire
    Pair(
        C,
        "gasoline sample",
        guilty="The lab found gasoline in the carpet by the host stand, where there should be none at all.",
        not_guilty="That was the only positive out of six, bagged in plastic near where firefighters refuelled a petrol saw.",
    ),
    Pair(
        C,
        "the wire on the sign",
        guilty="The bead on the neon sign wire is just what happens when fire hits a live wire; it's a result of the fire, not the start of it.",
        not_guilty="the sign wire had that melted bead and the sign was flickering and buzzing all week with an electrician booked, sounds electrical to me",
    ),
    Pair(
        C,
        "gas can",
        guilty="He filled a five-gallon can four days before and then told the detective he didn't keep gas around.",
        not_guilty="The can was in his garage at home with a gallon left, he'd been mowing, he says he meant 'at the diner', and the detective didn't even record it.",
    ),
    Pair(
        C,
        "his phone",
        guilty="His phone did nothing between 12:20 and 6:05, which is exactly what a phone left on the kitchen counter looks like while you're out.",
        not_guilty="His phone sat on his home wifi all night, four miles from the diner.",
    ),
    Pair(
        C,
        "night manager",
        guilty="The night manager is owed wages and gets her job back if the insurance pays out, and she only mentioned the cook's remark four months later.",
        not_guilty="The night manager says the sacked cook knew the code and said the place deserved what it got, and police never checked where he was.",
    ),
    # pruitt-basement-killing
    Pair(
        P,
        "timing of the call",
        guilty="He waited until 10:19 to call 911, a good fourteen minutes after the thud; plenty of time to clean up.",
        not_guilty="Mrs Finch was half asleep with her hearing aids probably out; if the thud was nearer 10:12 there's hardly any gap at all.",
    ),
    Pair(
        P,
        "the text",
        guilty="He texted 'I swear to God you'll regret it' two days before the killing.",
        not_guilty="his other texts for weeks were polite and saying sorry, and 'regret it' could mean a lawyer or housing court",
    ),
    Pair(
        P,
        "money order",
        guilty="Paying part of the rent and still facing eviction could make him angrier, not calmer; he was still $2,700 down.",
        not_guilty="He'd paid $1,500 toward the rent the day before and the hearing was a month off, so the motive is weaker than it sounds.",
    ),
    Pair(
        P,
        "alley camera",
        guilty="The alley figure has no face, and that alley serves four other buildings and a bar's smokers; it's just someone passing.",
        not_guilty="A hooded figure hurried out of the alley at 10:09, right after the thud, and the back door was unlocked.",
    ),
    Pair(
        P,
        "handedness",
        guilty="The examiner says she can't exclude a left-handed attacker and the victim may have turned his head, so the handedness point is worth nothing.",
        not_guilty="The examiner says the blows fit a right-handed attacker behind him, and Castellano is left-handed.",
    ),
    # route-nine-fuel-stop-murder
    Pair(
        R,
        "fingernail DNA",
        guilty="an attendant touches money and people all day, the stuff under his nails could be from earlier",
        not_guilty="He fought his killer and the DNA under his nails is Merrick's, matching the mask. Dorsey is excluded.",
    ),
    Pair(
        R,
        "first description",
        guilty="Height is hard to judge from inside a car at night; she still knew his face when she saw it in the array.",
        not_guilty="Her first description was 5 foot 9, thin, no facial hair; Dorsey was 6 foot 2 with a goatee.",
    ),
    Pair(
        R,
        "the gun",
        guilty="Getting the gun wrong doesn't make the confession made up; people mix up calibres all the time.",
        not_guilty="Spurlock said a .38 but the casing was 9 mm; he copied the paper, mistakes and all.",
    ),
    Pair(
        R,
        "girlfriend's alibi",
        guilty="The alibi is his girlfriend, now his partner, and the receipt only proves a DVD was rented, not that he was there.",
        not_guilty="A video-shop receipt shows a DVD rented on her account at 8:14 that night, and her mother backed the alibi back in 2004.",
    ),
    Pair(
        R,
        "cash in his wallet",
        guilty="He had $240 on him four days after a $286 robbery.",
        not_guilty="He was paid $263 at the car wash the day before, so the $240 in his wallet is his wages.",
    ),
)
