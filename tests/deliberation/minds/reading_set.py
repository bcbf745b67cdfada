# ruff: noqa: E501  (the arguments are data: one argument per line reads best)
"""Arguments about the curated cases, in a student's own words, for measuring the offline reading.

For each curated case: two strong and two weak arguments for each side, three off-topic ones
(one keyword salad, one remark about the room, one story about something else) and three pairs
that cite the same piece of evidence in opposite directions. ``side`` is the way an argument
should move a listener: ``guilty`` (towards conviction) or ``not_guilty``; off-topic text has the
side its words shout, if any, and should move listeners little either way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Argument:
    case: str
    side: str  # guilty | not_guilty | none
    grade: str  # strong | weak | off_topic | salad
    text: str


@dataclass(frozen=True)
class Pair:
    case: str
    about: str
    guilty: str
    not_guilty: str


K, A, C, P, R = (
    "kessler-market-robbery",
    "alder-street-hit-and-run",
    "copper-kettle-fire",
    "pruitt-basement-killing",
    "route-nine-fuel-stop-murder",
)

ARGUMENTS = (
    # --- The State v. Curtis Hale (armed robbery of a corner market) ---
    Argument(
        K,
        "guilty",
        "strong",
        "Six marked twenties from that till were folded up in his glove compartment twenty minutes after the hold-up. The owner had written those serial numbers down the week before. There's no innocent way those exact notes land in his car that fast.",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "The cops pulled over a silver Honda with a smashed right tail light, which is exactly what the clerk told 911, and sitting on the back seat were a grey hoodie with the roofing company logo and a red bandana.",
    ),
    Argument(
        K,
        "guilty",
        "weak",
        "His phone was connecting to the tower that covers the market while the robbery was going on.",
    ),
    Argument(
        K,
        "guilty",
        "weak",
        "First he told the officer he was just cruising around, then later it was winnings from a card game at a buddy's place he won't name. The story kept changing.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "The clerk saw the bottom half of a face for two seconds with a gun pointed at her, and then the detective who already had Hale locked up ran the photo lineup himself, with Hale the only one in a grey top. That identification is worthless.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "That thing under the seat was an air pistol with an empty gas cartridge. If it couldn't kill anybody it isn't a deadly weapon, and the aggravated robbery charge falls apart.",
    ),
    Argument(
        K,
        "not_guilty",
        "weak",
        "He bought cigarettes at that same counter two days earlier, so his thumbprint being on the glass doesn't tell us when he touched it.",
    ),
    Argument(
        K,
        "not_guilty",
        "weak",
        "The phone tower covers a huge area with hundreds of homes and a couple of bars. It puts his phone in the neighbourhood, not inside the shop.",
    ),
    Argument(
        K,
        "guilty",
        "salad",
        "Guilty. Obviously guilty. Proof, justice, convict, clearly, he did this, guilty guilty guilty.",
    ),
    Argument(K, "none", "off_topic", "Can someone open a window? It's really stuffy in here and I skipped lunch."),
    Argument(
        K,
        "none",
        "off_topic",
        "My uncle's corner shop got robbed back in the nineties and honestly nobody ever paid for it.",
    ),
    # --- The State v. Leanne Cordell (hit and run on a cyclist) ---
    Argument(
        A,
        "guilty",
        "strong",
        "The bus driver wrote down 7K and a 2 at the end, and only three dark Subarus in the county fit that plate. Hers is one of them, and it has a dent on the front right and a cracked fog light.",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "Two days after the crash she rang a body shop first thing in the morning, and a few days later she swapped the dead headlight bulb. That's someone getting rid of the damage before anyone comes asking.",
    ),
    Argument(
        A, "guilty", "weak", "The paint smear on the kid's back wheel is the same dark green Subaru colour as her car."
    ),
    Argument(
        A,
        "guilty",
        "weak",
        "Her usual drive home from work goes straight through that junction, and she clocked off about a quarter of an hour before the crash.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The bits of fog-light lens from the road don't fit her lamp. Her light is cracked but nothing is missing from it, so those pieces came from some other car.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "Her card paid for Thai food on Hawthorne at 6:52, and Hawthorne is south, while the bus driver watched the SUV turn north. She was picking up dinner, not fleeing up 39th.",
    ),
    Argument(
        A,
        "not_guilty",
        "weak",
        "The teenager who picked her photo only saw the driver for a second through a wet side window, and he said he was 60 percent sure.",
    ),
    Argument(
        A,
        "not_guilty",
        "weak",
        "About forty thousand Subarus in Oregon have that exact green paint. Matching the colour doesn't single her out.",
    ),
    Argument(
        A,
        "not_guilty",
        "salad",
        "Doubt, reasonable doubt, not guilty, innocent, weak, not convinced, doubt doubt doubt.",
    ),
    Argument(
        A, "none", "off_topic", "How long do they usually keep a jury in here? I have to pick my kids up at five."
    ),
    Argument(
        A, "none", "off_topic", "I ride my bike to work every day and drivers are terrible around here, nobody looks."
    ),
    # --- The State v. Gregory Lindahl (arson of his own diner) ---
    Argument(
        C,
        "guilty",
        "strong",
        "The alarm got switched off at 1:31 and back on at 1:44 with user 01, his personal code, forty minutes before the place went up. Somebody was inside that diner in the middle of the night using his number.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "Seven weeks before the fire he bumped the insurance from 400 to 650 thousand while he was three payments behind on a 61 thousand dollar loan. He needed that money.",
    ),
    Argument(
        C,
        "guilty",
        "weak",
        "He filled a five gallon gas can a few days before and when the police found it there was only about a gallon left.",
    ),
    Argument(
        C,
        "guilty",
        "weak",
        "The lab found gasoline in the carpet sample right by the host stand, where the investigator says the fire started.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "The fire expert says those pour patterns and the crazed glass happen in any room that flashes over, accelerant or not. The captain made up his mind before the lab even came back and never looked at the wiring.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "The neon OPEN sign had been flickering and buzzing for a week, and there's a melted copper bead on exactly that circuit. That sounds like an electrical fire.",
    ),
    Argument(C, "not_guilty", "weak", "His phone sat on his home wifi all night, four miles away from the diner."),
    Argument(
        C,
        "not_guilty",
        "weak",
        "The night manager says every employee who ever closed up knew the owner's code, because it was just his birth year.",
    ),
    Argument(
        C,
        "guilty",
        "salad",
        "Clearly guilty, proves it, lines up, did this, convict him, justice has to be done, guilty.",
    ),
    Argument(C, "none", "off_topic", "Does anyone know if the coffee machine on this floor actually works?"),
    Argument(
        C,
        "none",
        "off_topic",
        "My grandparents ran a bakery for thirty years and it was the hardest work of their lives.",
    ),
    # --- The People v. Owen Castellano (a landlord killed in a basement) ---
    Argument(
        P,
        "guilty",
        "strong",
        "Two days before, he texted the landlord that he'd regret putting his kid's things on the curb, and then the landlord is beaten to death with a wrench a few steps from where Castellano lives.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "Those three tiny round dots of blood on his cuff are impact spatter, which means he was within a metre of the blow when it landed. Kneeling over a body doesn't put spatter on your sleeve.",
    ),
    Argument(
        P,
        "guilty",
        "weak",
        "He had a fresh scratch on the back of his forearm, and his DNA could not be excluded from under the dead man's fingernails.",
    ),
    Argument(
        P,
        "guilty",
        "weak",
        "The neighbour upstairs heard a thud and a man shouting soon after the ten o'clock news began, and his 911 call didn't come until 10:19.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "The nephew inherits the whole building, he owed eighteen thousand dollars to a bookie, the bartender only has him there until about 9:45, and he owns a long dark jacket like the figure in the alley. The police never even searched his car.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "He had paid fifteen hundred dollars toward the rent the day before. Why would a man who just paid down his debt and had a court hearing coming up kill the landlord?",
    ),
    Argument(
        P,
        "not_guilty",
        "weak",
        "The upstairs neighbour was dozing through the news and maybe had her hearing aids out. She can't really say when she heard that thud.",
    ),
    Argument(
        P,
        "not_guilty",
        "weak",
        "Nearly three thousand dollars of rent money vanished from the wallet, and the police found thirty-seven dollars on him. Where did the cash go?",
    ),
    Argument(
        P,
        "none",
        "salad",
        "Justice, truth, proof, doubt, guilty, innocent, convict, acquit, clearly, obviously, the facts, the law.",
    ),
    Argument(P, "none", "off_topic", "I think we should take a vote on ordering pizza before we keep going."),
    Argument(
        P,
        "none",
        "off_topic",
        "My landlord never fixed anything in my old flat either, and he charged us for every little thing.",
    ),
    # --- The State v. Calvin Dorsey (a 2003 gas-station murder) ---
    Argument(
        R,
        "guilty",
        "strong",
        "The clerk at the pump picked Dorsey out of the photos and she's a hundred percent sure it was him running out the door pulling the mask down.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "His cellmate says Dorsey told him he shot the old man at the gas station for three hundred dollars.",
    ),
    Argument(
        R,
        "guilty",
        "weak",
        "He lied to the police about where he was that night. First he was home all night, then two hours later he was at his girlfriend's place.",
    ),
    Argument(
        R,
        "guilty",
        "weak",
        "When they arrested him a few days later he had $240 cash in his wallet, and $286 had gone from the till.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "The DNA on the inside of the ski mask and under the victim's fingernails is the same man, Dale Merrick, and Dorsey is excluded from both. The attendant fought his killer and scratched him, and it wasn't Dorsey.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "The cellmate got eight years knocked off his sentence for talking, asked to be moved into Dorsey's cell, and everything he said was already in the newspaper. He even said a .38 when the casing was a 9 millimetre.",
    ),
    Argument(
        R,
        "not_guilty",
        "weak",
        "The witness first said the man was five foot nine and thin with no facial hair. Dorsey is six foot two with a goatee.",
    ),
    Argument(
        R,
        "not_guilty",
        "weak",
        "His girlfriend says he was at her place watching a movie they rented that evening, and there is a receipt for the rental.",
    ),
    Argument(
        R,
        "not_guilty",
        "salad",
        "Not guilty, innocent, doubt, reasonable doubt, I don't trust it, problem, hole, weak, not convinced.",
    ),
    Argument(R, "none", "off_topic", "Is it still raining outside? I left my umbrella in the car."),
    Argument(R, "none", "off_topic", "My cousin works nights at a gas station and it honestly scares me sometimes."),
)

PAIRS = (
    Pair(
        K,
        "bait bills",
        "Those marked bills in his glovebox are the whole case. The store logged the exact serial numbers and every single one of them turned up in his car.",
        "The marked bills show he had the money, not that he held the gun. Someone could have handed him that cash after the robbery and he'd still look exactly this guilty.",
    ),
    Pair(
        K,
        "thumbprint",
        "His thumbprint is right where the robber leans on the counter in the video. That's him, standing there with the gun.",
        "A thumbprint on a shop counter only shows he was a customer at some point. He was in there two days before buying cigarettes, and nobody can date a print.",
    ),
    Pair(
        K,
        "CCTV",
        "On the video the bandana slips and you can see a dark mark on the left side of the jaw, and Hale has a mole right there on his left jaw. The height matches too.",
        "The video is low resolution from across the shop. That mark on the jaw is a handful of blurry pixels and could just be a shadow; half the town owns a grey hoodie.",
    ),
    Pair(
        A,
        "plate",
        "The bus driver read the plate as 7K-something-2, and Cordell's Forester is one of only three that match. That narrows it right down to her.",
        "The bus driver wasn't even sure if the last character was a 2 or a Z, in the rain, and the police never ruled out the third matching car.",
    ),
    Pair(
        A,
        "dent",
        "The dent on her right front fender is at just the height you'd expect from hitting a bike, and she booked the body shop two days later.",
        "A repair expert says that dent is round and broad with brown hair stuck in it, the classic mark of hitting a deer, not a bicycle.",
    ),
    Pair(
        A,
        "receipt",
        "The takeout receipt doesn't clear her. She could have hit him at 6:40, looped around and still paid for the food at 6:52.",
        "She paid for takeout on Hawthorne at 6:52 and the food was ordered for a quarter to seven. That receipt puts her on the other side of town, heading the other way.",
    ),
    Pair(
        C,
        "alarm log",
        "The alarm was turned off at 1:31 and back on at 1:44 with his code and nobody else's. That's him walking in at night to set it up.",
        "His code was his birth year and every employee who ever closed knew it. A code shows which number got typed, not who typed it.",
    ),
    Pair(
        C,
        "gasoline sample",
        "Gasoline turned up in the carpet right at the host stand, where the fire started. Somebody poured it there.",
        "Only one of six samples had gasoline, it was put in a plastic bag, and the firefighters had just refuelled a gas-powered saw. That one result could easily be contamination.",
    ),
    Pair(
        C,
        "insurance",
        "He raised the insurance by a quarter of a million dollars just weeks before the fire while drowning in loan payments. That's motive, plain and simple.",
        "The broker suggested that insurance increase in writing, to match a professional appraisal of the renovation. Lots of owners fall behind on loans without torching their business.",
    ),
    Pair(
        P,
        "sweatshirt blood",
        "Those tiny round spots on his cuff are spatter from a blow being struck. He was right there when the wrench came down.",
        "Those tiny spots on his cuff can come from blood coughed up during CPR, and nobody tested them for saliva or air bubbles. He was doing compressions on the man.",
    ),
    Pair(
        P,
        "alley camera",
        "The figure leaving the alley at 10:09 is about his height, 1.78, and that's just ten minutes before his 911 call.",
        "The person on the alley camera at 10:09 could be anyone, it's an alley shared by four buildings and a bar, and the nephew is the same height and owns a long dark jacket.",
    ),
    Pair(
        P,
        "text message",
        "He texted that the landlord would regret it, and two days later the landlord is dead. That text is a threat.",
        "Saying 'you'll regret it' is what people say when they mean a lawyer or housing court. All his other texts were polite and apologetic.",
    ),
    Pair(
        R,
        "eyewitness",
        "She saw him run out of that door pulling the mask down and picked him out of a lineup. An eyewitness who was there is worth more than lab theories.",
        "She saw a face for three seconds, at night, in the rain, forty feet away, after a gunshot, and a detective showed her his single photo before the lineup. That identification can't be trusted.",
    ),
    Pair(
        R,
        "ski mask DNA",
        "The ski mask was in a public trash can, so the DNA just tells you who wore it sometime, not who wore it that night. It doesn't rule Dorsey out of the robbery.",
        "The DNA in the ski mask the gunman wore belongs to Dale Merrick, and Dorsey is excluded. The mask points straight at someone else.",
    ),
    Pair(
        R,
        "police statements",
        "He lied about where he was that night, first home all night and then his girlfriend's. Innocent people don't need to change their story.",
        "He was on probation with a curfew, so lying about being out was about the curfew, and he corrected it himself the same morning. That lie doesn't make him a killer.",
    ),
)

# Written after the reading was tuned, and run once: what it does on arguments it was not shaped by.
HELD_OUT_ARGUMENTS = (
    Argument(
        K,
        "guilty",
        "strong",
        "The robber on the tape is about 1.80 tall with a mole on the left jaw; Hale is 1.79 with a mole in that exact spot.",
    ),
    Argument(
        K, "not_guilty", "strong", "The clerk told 911 the robber looked about twenty-five, and Hale is thirty-one."
    ),
    Argument(
        A, "guilty", "weak", "Nobody can back up her deer story: no photo, no insurance claim, nobody who saw it."
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The victim only remembered 'one headlight' in his third interview, after he had read the news about her burned-out bulb.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "He told the detective he didn't keep gas around, but he had bought a full can four days earlier.",
    ),
    Argument(
        C,
        "not_guilty",
        "weak",
        "The defense's engineer says a single positive sample bagged in plastic is weak proof of anything.",
    ),
    Argument(
        P,
        "guilty",
        "weak",
        "The wrench had been rinsed off and hidden under the sink, which takes time, and he was the one down there.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "The medical examiner says the blows fit a right-handed attacker, and Castellano is left-handed.",
    ),
    Argument(R, "guilty", "weak", "The shooting happened after his 10 p.m. curfew, and he first claimed he was home."),
    Argument(
        R,
        "not_guilty",
        "strong",
        "Merrick robbed two other gas stations at night with a 9 mm, the same kind of gun that fired the casing here.",
    ),
)
HELD_OUT_PAIRS = (
    Pair(
        K,
        "phone records",
        "His phone was in the sector covering the market from 9:31 to 9:49, exactly when it was robbed.",
        "That phone sector is a wedge of 600 homes and two bars; it can't put him inside the market.",
    ),
    Pair(
        A,
        "timecard",
        "She clocked out at 6:27 and her usual 15-minute drive runs right through that corner at 6:40.",
        "Clocking out at 6:27 doesn't tell us which way she drove; the phone sector covers both routes.",
    ),
    Pair(
        C,
        "doorbell camera",
        "The neighbour's camera shows no movement of his car between 12:30 and 3:05, but a sensor rated for 9 metres wouldn't catch a car 20 metres away.",
        "His car is on the neighbour's doorbell camera in the driveway at 12:30 and again at 3:05, right where he said it was.",
    ),
    Pair(
        P,
        "911 call",
        "He waited until 10:19 to call 911 after the thud just past ten; that's plenty of time to rinse a wrench.",
        "He called 911 himself, stayed with Pruitt and can be heard counting compressions. That's not how a killer behaves.",
    ),
    Pair(
        R,
        "informant",
        "The cellmate says Dorsey admitted shooting the old man for about three hundred dollars.",
        "The cellmate's sentence was cut from 12 years to 4 for that story, and he got the gun wrong.",
    ),
)
