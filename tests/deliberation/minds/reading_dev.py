# ruff: noqa: E501  (the arguments are data: each text stays whole on one line)
"""Arguments about the five curated cases, for tuning the offline reading: the development part.

Written on 2026-11-28, before the reading was tuned on any of it, by a test writer who had not
seen the reading's rules (``deliberation/minds/offline/reading.py``, ``offline/lexicon.py``) or
the older set in ``reading_set.py`` beyond its two dataclasses: each argument was written from the
curated case file alone, as a student who had read it would argue, so the words follow no list the
reading was built on. The voices are the product's users: a fifteen-year-old typing fast with
typos and no capitals, a careful student, adults, a retired person, a speaker of English as a
second language; one-liners and paragraphs; evidence named in a speaker's own words as often as
by the case file's labels.

``side`` is the way a fair reader agrees the argument pushes (``none`` for off-topic text and
salad); ``strong`` names a specific piece of evidence and says what it shows, ``weak`` leans the
same way on feeling, character, hedges or a thin point. Each side has negations (an item that
does not prove something, or does not rule someone out), hedged, sarcastic and rhetorical
arguments. ``off_topic`` is talk about the room, lunch or a story about something else, some of
it sharing a word with the case; ``salad`` strings the case's own keywords together with no
claim. A pair reads one item both ways.

The whole set (250 items: per case 8 strong and 6 weak arguments each way, 8 off-topic, 4 salad
and 10 pairs) was split by a fixed rule, not by how anything reads: within each case and each
stratum (guilty strong, guilty weak, not-guilty strong, not-guilty weak, off-topic, salad,
pairs; numbered 0-6) the items, in the order written, alternate between the two parts, and the
first goes to the development part when the case's number (Kessler 0, Alder 1, Copper Kettle 2,
Pruitt 3, Route Nine 4) plus the stratum's number is even, to the held-out part when it is odd.
Each part so holds exactly half of every stratum: per case 4 strong and 3 weak arguments each
way, 4 off-topic, 2 salad and 5 pairs (100 arguments and 25 pairs in all).

Tune on this part. Its twin, ``reading_heldout.py``, is the test part: whoever tunes the reading
never opens it, and only runs the measure (``reading_measure.measure``) on it.
"""

from __future__ import annotations

from tests.deliberation.minds.reading_set import A, Argument, C, K, P, Pair, R

DEV_ARGUMENTS = (
    # kessler-market-robbery
    Argument(
        K,
        "guilty",
        "strong",
        "bro all six of the marked twentys were in his glovebox 20 mins after the robbery, the store wrote those serial numbers down the week before. thats not luck thats the till money",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "His car was pulled over with the same broken back light the clerk described on the phone, and lying in it were a grey hoodie with the roofing company logo and a red bandana. That's the robber's outfit on his own back seat.",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "The print of his thumb is on the glass counter exactly where the robber put his hand in the video. The expert found 14 points the same and a second one checked it. For me this put him at the counter in the robbery.",
    ),
    Argument(
        K,
        "guilty",
        "strong",
        "The pellet gun thing doesn't get him off. It still fires steel BBs fast enough to break skin, somebody painted the orange tip black so it would look real, and the clerk honestly believed she was about to be shot from a metre away.",
    ),
    Argument(
        K, "guilty", "weak", "I could be wrong, but there's a lot pointing at him and not much pointing anywhere else."
    ),
    Argument(
        K,
        "guilty",
        "weak",
        "I think the lady in the shop is honest woman, she chose him from the photos, so probably it is him.",
    ),
    Argument(K, "guilty", "weak", "his cousins alabi doesnt even cover 9:42 so"),
    Argument(
        K,
        "not_guilty",
        "strong",
        "the lineup was so rigged lol he was the ONLY guy in a grey top and the detective running it knew wich one was him. and she was like 80% sure after seeing a chin for 2 secs",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "On the aggravated robbery charge specifically: the gun was an air pistol with an empty gas cartridge, so it couldn't fire anything that night. If that isn't a deadly weapon, the top charge fails, and so does the count about having a weapon.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "The telephone records put his phone somewhere in a wedge of well over a square mile with six hundred homes, two bars and a petrol station in it. That tells us the neighbourhood he was in, which he visits anyway, not that he was inside the shop.",
    ),
    Argument(
        K,
        "not_guilty",
        "strong",
        "How can a photo lineup mean anything when the detective showing it already knew who the suspect was, and Hale was the only one of the six wearing grey?",
    ),
    Argument(
        K,
        "not_guilty",
        "weak",
        "Maybe he did it, maybe he didn't, but I'm not sure the State has proved every single part of the top charge.",
    ),
    Argument(
        K, "not_guilty", "weak", "The police want fast somebody to blame, so they take the first man with a silver car."
    ),
    Argument(
        K,
        "not_guilty",
        "weak",
        "The officer wrote front seat and her own camera shows back seat, so who knows what else they got wrong.",
    ),
    Argument(K, "none", "off_topic", "can we open a window its so hot in here"),
    Argument(
        K,
        "none",
        "off_topic",
        "My uncle had his bike stolen last summer and nobody ever called him back about it. It just sat in a report somewhere, and in the end he bought a new one.",
    ),
    Argument(
        K,
        "none",
        "off_topic",
        "I once worked in a corner shop in Leeds for a year, mostly stacking crisps and sweeping up. The owner's cat slept on the newspapers every morning and nobody dared move her.",
    ),
    Argument(
        K,
        "none",
        "off_topic",
        "In my country the school day finish at one o'clock, so this afternoon is very long for me.",
    ),
    Argument(K, "none", "salad", "Hale, Civic, tail light, pellet pistol, cell tower, photo array."),
    Argument(K, "none", "salad", "Mehta Boyer Whitlock Pike cousin Huffman Avenue card game"),
    # alder-street-hit-and-run
    Argument(
        A,
        "guilty",
        "strong",
        "The paint on the back wheel of the bike is the same Subaru green, with the same grey undercoat, as her car. Her front right wing has a fresh dent at exactly the spot where you would hit someone riding on the right of the lane. On its own the paint only gives a colour, but put together with the dent and the plate, it is her car.",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "She clocked off at 6:27 and her ordinary drive home goes straight through that corner, about fifteen minutes, which puts her there at roughly 6:40, the very moment of the crash. Her phone also connected to the mast covering the junction at 6:38.",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "If it wasn't her, why did the boy on the pavement describe a woman in her forties with light hair before he saw any photos, and then pick her out of a double-blind lineup?",
    ),
    Argument(
        A,
        "guilty",
        "strong",
        "The broken glass pieces not fitting her light doesn't mean much. Nobody can date that glass, the street hadn't been swept for nine days, and it's a busy junction where bits of old accidents lie around for ages.",
    ),
    Argument(A, "guilty", "weak", "she def did it tbh, her car was all banged up"),
    Argument(
        A,
        "guilty",
        "weak",
        "A lot of people panic after an accident and drive off, and then they try to cover it up afterwards. It happens far more often than you would think, and nice respectable people do it too.",
    ),
    Argument(A, "guilty", "weak", "Sure, a deer. Conveniently, one with no photo and no claim."),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The witnesses disagree on the most basic fact of all. The teenager says a woman with long light hair; the man leaving the bakery told the first officer it was a man in a baseball cap. If we cannot even say whether the driver was a man or a woman, we cannot say beyond doubt that it was Ms Cordell.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "That particular green was put on something like forty thousand Subarus in Oregon. And if her car really hit a white bicycle, where is the white paint on her wing? There isn't any. I was a mechanic for thirty years, and you always get paint both ways.",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The bus driver watched the SUV turn north on 39th, so how was she paying for Thai food on Hawthorne, which is to the south?",
    ),
    Argument(
        A,
        "not_guilty",
        "strong",
        "The repair man found brown hair-like fibres stuck in the seam of the dent and says the height and the rounded shape are what a deer does, while a bike at that height would leave a narrow crease and white paint. The dent is from the deer.",
    ),
    Argument(A, "not_guilty", "weak", "she has no record at all?? like one speeding ticket in 2015 lol"),
    Argument(
        A,
        "not_guilty",
        "weak",
        "Honestly it sounds to me like the police found a green Subaru and stopped looking. I've seen that happen in my own town, and it took years to put right.",
    ),
    Argument(
        A,
        "not_guilty",
        "weak",
        "Right, because getting your car fixed is proof of a crime now. Better never book a mechanic again.",
    ),
    Argument(
        A,
        "none",
        "off_topic",
        "I brought leftover curry for lunch and now the whole room smells of it, sorry everyone.",
    ),
    Argument(A, "none", "off_topic", "wait is this going to be on the test or not"),
    Argument(A, "none", "off_topic", "Excuse me, the wifi password is on the board? I cannot connect."),
    Argument(
        A, "none", "off_topic", "Could whoever keeps clicking their pen please stop? It's driving me up the wall."
    ),
    Argument(A, "none", "salad", "Subaru Forester 7KR 402 fog light Cypress Green Pearl"),
    Argument(A, "none", "salad", "cyclist rim paint dent fender headlight bulb"),
    # copper-kettle-fire
    Argument(
        C,
        "guilty",
        "strong",
        "the alarm got turned off at 1:31 and back on at 1:44 with HIS code, and 35 min later the place is on fire. who else is doing that",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "The lab found gasoline in the carpet right by the host stand. Nobody keeps gasoline in the dining room of a diner, so somebody brought it in and poured it there.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "His phone stay on the wifi, yes, but the phone has no activity from 12:20 until 6:05. So the phone is at home, but this does not show that he is at home at 1:31.",
    ),
    Argument(
        C,
        "guilty",
        "strong",
        "Nobody forced the back door, the back keypad is the only way to turn the alarm off, and the log shows nothing but code 01. So whoever went in at 1:31 walked in with the owner's number, and the owner is the one person we know had it for certain. How is that not him?",
    ),
    Argument(C, "guilty", "weak", "It just seems too convenient for him, honestly."),
    Argument(
        C,
        "guilty",
        "weak",
        "I think when a business is losing money the owner has the biggest reason. Maybe it is him.",
    ),
    Argument(C, "guilty", "weak", "he got all evasive with the detective about his money, thats not a good look"),
    Argument(
        C,
        "not_guilty",
        "strong",
        "5 out of 6 samples had no gas in them and the 1 that did was put in a plastic ziplock right near where the firefighters were refilling their saw. thats not proof of anything",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "There's a melted copper bead on the circuit feeding the neon OPEN sign, two metres from where the fire started. Staff had been texting for a week that the sign was flickering and buzzing, and an electrician was booked for two days after. That looks like an electrical fire to me.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "The insurance was raised because his broker told him to in an email, after the renovation was valued at $610,000. That was in April, before the bank letter in May. So it is not a plan for a fire.",
    ),
    Argument(
        C,
        "not_guilty",
        "strong",
        "Why did nobody check where the fired cook was that night? The detective spoke to him for ten minutes on the phone and that was it, and he's the one who knew the code and had a grudge.",
    ),
    Argument(C, "not_guilty", "weak", "I dunno, I just don't feel like it's been proven."),
    Argument(C, "not_guilty", "weak", "He has no criminal record, he is a family man. I don't believe he do this."),
    Argument(
        C,
        "not_guilty",
        "weak",
        "fires start by accident all the time, old buildings, old wires, its not always someone",
    ),
    Argument(C, "none", "off_topic", "Whose turn is it to bring biscuits next week? I did it last time."),
    Argument(
        C,
        "none",
        "off_topic",
        "My cousin opened a food truck last year selling tacos and it actually did really well, until the council changed the parking rules and he had to move out to the industrial estate.",
    ),
    Argument(
        C,
        "none",
        "off_topic",
        "I used to keep bees, you know. You'd be surprised how calm they are if you're calm with them.",
    ),
    Argument(
        C,
        "none",
        "off_topic",
        "Does anyone actually like the new seating plan? I can't see the board from here at all.",
    ),
    Argument(C, "none", "salad", "Lindahl, Deckard, Hollis, Vance, Burris, Reale"),
    Argument(C, "none", "salad", "sample #4 zip bag rescue saw arc bead doorbell camera"),
    # pruitt-basement-killing
    Argument(
        P,
        "guilty",
        "strong",
        "The three tiny round spots on his left cuff were classed as impact spatter, which happens when you are within about a metre of a blow being struck. The big smears could come from doing CPR, I accept that. But those little spots point to him standing right there when Mr Pruitt was hit.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "He had a fresh scratch on his right forearm when the police arrived, and there was male DNA under Mr Pruitt's fingernails that couldn't rule him out. A man fighting for his life scratches the person attacking him.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "The missing cash doesn't point to some stranger. If you'd just killed your landlord you would empty his wallet to make it look like a robbery.",
    ),
    Argument(
        P,
        "guilty",
        "strong",
        "The DNA under the nails doesn't rule Castellano out, and he turned up with a scratch on his arm that very night. The story about the shelving in the cooler at work comes from nobody but him.",
    ),
    Argument(P, "guilty", "weak", "he was right there with the body covered in blood, like cmon"),
    Argument(
        P,
        "guilty",
        "weak",
        "Mrs Finch said Mr Pruitt told her he was scared of that young man in 2B. He must have had his reasons for saying that to a neighbour. People don't say such things about someone for nothing.",
    ),
    Argument(
        P,
        "guilty",
        "weak",
        "Yeah, he just happened to be doing laundry at ten at night right when his landlord got killed. Sure.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "The medical examiner said the blows fit a right-handed attacker standing behind him, and Castellano is left-handed. It isn't conclusive, she says so herself, but it points away from him rather than towards him.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "The nephew inherits a building worth nearly seven hundred thousand dollars. He owed $18,000 to a bookmaker who had threatened him, he left the bar around a quarter to ten, and he was eleven minutes' drive away. The police never searched his car, never asked for his phone, and never took his long dark jacket. That is a man nobody looked at.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "Those three little spots on the cuff don't prove a blow. Blood that's coughed out of someone's airway during CPR looks exactly the same, and the analyst never tested them for saliva or air bubbles.",
    ),
    Argument(
        P,
        "not_guilty",
        "strong",
        "Mrs Finch wasn't really sure of anything: she was dozing in front of the news, she may not have had her hearing aids in, and she can't say how many minutes went by. The whole 'fourteen minutes' rests on her guess.",
    ),
    Argument(P, "not_guilty", "weak", "hes a single dad with a 7 yr old and no record, i just dont see it"),
    Argument(
        P,
        "not_guilty",
        "weak",
        "The police grabbed the man who was standing there and stopped looking. It's the easiest arrest in the world, and I've read about enough of those going wrong to be wary.",
    ),
    Argument(P, "not_guilty", "weak", "Brilliant detective work, arrest the guy who phoned for the ambulance."),
    Argument(P, "none", "off_topic", "I'm starving, is lunch at twelve or half past?"),
    Argument(P, "none", "off_topic", "lol did u see the fire drill earlier, half the class went the wrong way"),
    Argument(P, "none", "off_topic", "I am sorry my English is not so good today, I did not sleep well last night."),
    Argument(P, "none", "off_topic", "Whoever left their coat on my chair, it's on the floor now, sorry."),
    Argument(P, "none", "salad", "pipe wrench laundry sink 911 basement eviction"),
    Argument(P, "none", "salad", "spatter cuff scratch fingernail DNA money order"),
    # route-nine-fuel-stop-murder
    Argument(
        R,
        "guilty",
        "strong",
        "the lady who saw him pull the mask down picked him out and shes been sure for 20 years, she says she'll never forget that face",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "Dorsey first told the police he was at home all night, and two hours later he switched to his girlfriend's flat. When your alibi changes like that, you lose the benefit of the doubt on it.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "DNA under the nails can come from other moments of the day. The attendant touch money and customers for many hours. It does not prove Merrick is the killer that night.",
    ),
    Argument(
        R,
        "guilty",
        "strong",
        "If the girlfriend's story was true, why didn't he say so straight away instead of claiming he was at home?",
    ),
    Argument(R, "guilty", "weak", "Maybe it's him, maybe not, but the jury back in 2004 convicted him for a reason."),
    Argument(R, "guilty", "weak", "The witness is very sure, one hundred percent, so I believe her."),
    Argument(R, "guilty", "weak", "he was broke enough to be working at a car wash, $286 is a lot to some people"),
    Argument(
        R,
        "not_guilty",
        "strong",
        "the DNA in the mask AND under the guys fingernails is the same man and its not dorsey, its merrick who robbed other gas stations with a 9mm. like what else do u need",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "Her first description that night was five foot nine, thin and clean-shaven. Dorsey was six foot two with a goatee. She only became certain after a detective showed her his single photo and asked 'is this the guy?'",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "The informer said a little .38, but the police found a 9 mm casing. He repeat the newspaper, even the wrong things. And Merrick had a 9 mm pistol when he was arrested.",
    ),
    Argument(
        R,
        "not_guilty",
        "strong",
        "Why would a man lie about where he was? Because he was breaking a 10 p.m. probation curfew at his girlfriend's, his probation file shows the curfew, and he put it right himself the same morning.",
    ),
    Argument(R, "not_guilty", "weak", "I'm just not comfortable convicting on this. Something's off."),
    Argument(R, "not_guilty", "weak", "The police in 2003 maybe wanted a quick answer, so they choose a young man."),
    Argument(R, "not_guilty", "weak", "the detective got an anonymous tip he never even wrote down, sketchy"),
    Argument(R, "none", "off_topic", "it's freezing in here, can someone close the door"),
    Argument(
        R,
        "none",
        "off_topic",
        "My dad drove lorries for thirty years and he always stopped at the same truck stop off the motorway, because they did a proper fry-up and the tea came in a pint mug.",
    ),
    Argument(R, "none", "off_topic", "I remember when petrol was under a pound a gallon. Those were the days."),
    Argument(R, "none", "off_topic", "this chair is so wobbly i keep thinking im gonna fall off"),
    Argument(R, "none", "salad", "Kowalczyk, Spurlock, Mullaney, Keisha Bell, pump 4"),
    Argument(R, "none", "salad", "Route 9 Lamar Avenue trash can laundromat probation curfew DVD"),
)

DEV_PAIRS = (
    # kessler-market-robbery
    Pair(
        K,
        "bait bills",
        guilty="The six marked twenties were in his glovebox 22 minutes later; that ties him straight to the till.",
        not_guilty="The marked twenties show he had the money, which nobody disputes, but the top charge needs a deadly weapon and holding cash doesn't prove that.",
    ),
    Pair(
        K,
        "shop camera",
        guilty="The shop camera shows a man about 1.80 m with a dark mark on his left jaw; Hale is 1.79 m with a mole on his left jaw.",
        not_guilty="That camera is grainy and four and a half metres away; the so-called mole is a couple of pixels and could be a shadow.",
    ),
    Pair(
        K,
        "pellet gun",
        guilty="That air pistol fires steel balls at 120 metres a second and had its orange tip painted black; it's a weapon, made to look like a real one.",
        not_guilty="The pistol's gas cartridge was empty, so that night it could not fire anything at all; it wasn't a deadly weapon.",
    ),
    Pair(
        K,
        "his story",
        guilty="He changed his story from driving around to a card game only once he heard about the marked bills; that's a man making it up as he goes.",
        not_guilty="Not wanting to name the man who runs an illegal card game is what anyone would do; it doesn't mean he robbed a shop.",
    ),
    Pair(
        K,
        "cousin's alibi",
        guilty="Even his cousin says he left her place around half nine, and her flat is twelve minutes from the shop. Her own story leaves him time to get there.",
        not_guilty="His cousin says he was at her place watching the basketball until half past nine, and he left to clear his head, not to rob anyone.",
    ),
    # alder-street-hit-and-run
    Pair(
        A,
        "paint on the bike",
        guilty="the paint on the bike wheel is the exact subaru green with grey primer under it, same as her car",
        not_guilty="that green is on like 40,000 subarus and theres no white bike paint on her dent at all",
    ),
    Pair(
        A,
        "repairs",
        guilty="She rang the body shop two days after and swapped the left low beam, the exact headlight the victim saw out.",
        not_guilty="Booking a body shop for a dent you've had since October isn't a confession, and the victim only 'remembered' one headlight after reading about the bulb in the news.",
    ),
    Pair(
        A,
        "the boy's pick",
        guilty="The 16-year-old described a woman in her forties with light hair before seeing any photos, and then picked her in a double-blind lineup.",
        not_guilty="The kid had earbuds in, looked up after the bang, saw the driver for one second through a wet window and was only 60 percent sure.",
    ),
    Pair(
        A,
        "phone mast",
        guilty="Her phone connected at 6:38 to the mast covering the crash corner, two minutes before it happened.",
        not_guilty="That same mast also covers Hawthorne where the restaurant is, so the phone fits her story just as well.",
    ),
    Pair(
        A,
        "glass on the road",
        guilty="Those lens pieces are from a 2014-2018 Forester fog light, exactly her model, and her fog light is cracked.",
        not_guilty="The pieces make a wedge missing from some light, and hers has no piece missing, so they can't be from her car.",
    ),
    # copper-kettle-fire
    Pair(
        C,
        "alarm code",
        guilty="His own code 01 turned the alarm off at 1:31 and back on at 1:44, and the door wasn't forced.",
        not_guilty="The code was his birth year and every closer knew it, including the cook he sacked; it shows someone typed 01, not who.",
    ),
    Pair(
        C,
        "burn patterns",
        guilty="The fire captain found pour patterns on the floor and a deep low burn at the host stand, which is what you see when fuel is poured.",
        not_guilty="Pour patterns and crazed glass can come from flashover alone, the national guide says so, and that room did flash over.",
    ),
    Pair(
        C,
        "insurance",
        guilty="He bumped his cover up by $250,000 seven weeks before it burned, while $61,000 behind on his loan.",
        not_guilty="The cover went up because his broker recommended it in writing after the $610,000 valuation, before he fell behind.",
    ),
    Pair(
        C,
        "doorbell camera",
        guilty="The doorbell camera only catches motion within 9 metres; his drive is 20 metres off, so his car leaving wouldn't show up.",
        not_guilty="The neighbour's doorbell camera shows his car in the drive at 12:30 and at 3:05, and nothing leaving in between.",
    ),
    Pair(
        C,
        "debts",
        guilty="The bank had written to him in May that the loan might be called in; the fire would have solved that.",
        not_guilty="Being behind on a loan is a reason to worry, not proof he set fire to a place he'd run for sixteen years.",
    ),
    # pruitt-basement-killing
    Pair(
        P,
        "spots on the cuff",
        guilty="The three fine spots on his cuff are impact spatter, meaning he was within a metre of a blow.",
        not_guilty="Those spots could be blood breathed out during CPR; the analyst never tested them and admits they look the same.",
    ),
    Pair(
        P,
        "scratch and DNA",
        guilty="Fresh scratch on his forearm plus male DNA under the victim's nails that can't exclude him.",
        not_guilty="One man in forty can't be excluded from that DNA, he held Pruitt's hands doing CPR, and the shelving in the cooler at work has sharp wire.",
    ),
    Pair(
        P,
        "missing cash",
        guilty="Taking the cash is exactly how you'd stage a robbery after killing your landlord.",
        not_guilty="$2,900 vanished and none of it was on him or anywhere he'd been; someone else walked off with it.",
    ),
    Pair(
        P,
        "the nephew",
        guilty="The nephew's bartender puts him at the bar, and the detective who checked called the alibi solid.",
        not_guilty="The nephew inherits everything, owed a bookie $18,000, left the bar at 9:45 eleven minutes away, and nobody checked his car or phone.",
    ),
    Pair(
        P,
        "the wrench",
        guilty="The wrench was rinsed and hidden under the sink with the tap still dripping, and he was the only one down there.",
        not_guilty="A rinsed wrench with no prints says nothing about who; anyone coming through the unlocked alley door could have done that.",
    ),
    # route-nine-fuel-stop-murder
    Pair(
        R,
        "mask DNA",
        guilty="The mask came out of a public bin 60 yards away; Merrick's DNA shows he wore it sometime, not that night.",
        not_guilty="The mask the witness saw on the gunman has one man's DNA on the sweatband, Merrick's, and none of Dorsey's.",
    ),
    Pair(
        R,
        "the witness's pick",
        guilty="She saw his face as he pulled the mask down and picked Dorsey out of six photos.",
        not_guilty="she got shown one photo of Dorsey before the lineup, thats not an id its a suggestion",
    ),
    Pair(
        R,
        "cellmate",
        guilty="Spurlock says Dorsey told him he shot the old man at the gas station for three hundred dollars.",
        not_guilty="Spurlock got eight years off, informed twice before and only repeated the newspaper.",
    ),
    Pair(
        R,
        "first lie",
        guilty="He told police he was home all night, then changed it to the girlfriend's place two hours later.",
        not_guilty="He lied about being out because of his 10 p.m. curfew, his probation file confirms the curfew, and he fixed it the same morning.",
    ),
    Pair(
        R,
        "Merrick's record",
        guilty="Merrick lived four miles away, and robbing other stations on other nights doesn't put him at this one.",
        not_guilty="Merrick robbed two other gas stations at night with a 9 mm and a black ski mask, one before this and one after.",
    ),
)
