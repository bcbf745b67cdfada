"""The engine's tunable parameters, in one place, by name.

Everything the jury-realism calibration may turn lives here, grouped by the mechanism it
shapes. The conviction formula itself is fixed by the specification (see ``conviction.py``); what
can be tuned is what feeds it: where jurors start (initial conviction), how strong the offline
engine rates an argument and how listeners receive it (base impact), how trust grows and decays,
and the social pressure of the room. No parameter may depend on a trial's historical outcome,
which the engine never sees.

How the targets are reachable (human reference values: hung 2-10%, the first-ballot majority
wins 80-95%, at least one vote change in 60% or more of runs):

* ``MAJORITY_PRESSURE`` makes minority jurors drift towards the room's majority, more so the more
  lopsided the tally: this is what turns a first-ballot majority into the verdict. It has to
  outweigh ``ARGUMENT_SCALE`` (how far one argument moves a listener) plus the volatility noise,
  or rooms swing back and forth and the first-ballot minority wins too often.
* ``CASE_LEAN_SCALE`` and ``INITIAL_NOISE`` set how far apart jurors start: more noise gives split
  first ballots and more vote changes; a larger scale lets one-sided evidence produce a lopsided
  first ballot whose runs all end the same way.
* Trust (``TRUST_*``) amplifies arguments from allies and dampens those from opponents, so a room
  can polarise into a hung jury; ``TRUST_DECAY`` keeps that bounded.
* The stability rule (``STABILITY_ROUNDS``) ends a stuck room as hung: fewer rounds mean more hung
  juries.

Calibrated on the 110 playable Old Bailey trials with the shipped jury, 20 runs per
trial (REALISM.md has the command and the figures): ``MAJORITY_PRESSURE`` 0.8 -> 0.45,
``INITIAL_NOISE`` 0.12 -> 0.27 and ``CASE_LEAN_SCALE`` 0.35 -> 0.25. With the earlier values the
room's pull crushed every minority within two rounds (hung 0.2%, the first-ballot majority won
99%) and the same seed opened nearly every trial on the same side, so most trials ended the same
way in every run. Seeds are shared across trials (seed s gives every trial the same draws), so
figures over 5 seeds swing by several points: calibrate over 20 or more.

Re-calibrated (REALISM.md, "Parameters, and why they have their values"): the jury's
noise swamped the case file, so every trial opened on the seed's draws rather than its evidence
(the five curated cases, clear or not, split alike on the first ballot) and deliberation then
carried the prosecution's side. ``WITNESS_WEIGHT`` 0.5 -> 0.15 (a witness counts by what its
testimony proves, which the evidence items carry; the number of witnesses a side called does
not separate the Old Bailey's convictions from its acquittals), ``CASE_LEAN_SCALE`` 0.25 -> 1.0
and ``INITIAL_NOISE`` 0.27 -> 0.2. The calibration targets still hold on the Old Bailey sample.

Then (same section of REALISM.md): ``CASE_LEAN_SCALE``
1.0 -> 2.0. The balance is a mean over every item of the file, and the keyword items (rated near
even) dilute the points that decide it: a typical Old Bailey trial's balance is +-0.14-0.18, so
at 1.0 the case moved a juror's start less than the juror's own noise (0.2 x (0.5 + volatility)),
the seed's draws set most first ballots and one in seven tied 6-6. At 2.0 the first ballot follows
the file's side as the evidence lean does; hung juries, first-ballot majority wins and vote changes
stay inside their targets, and the clear curated cases still end their way.

The pace pass (measured by ``bench/game_pace.py``): the room's pull on its minority
was felt with every speech, whatever the speech argued, so a split room snowballed (a 6-6 first
ballot on the ambiguous hit-and-run became 12-0 in four rounds in most seeds: one or two turns for
each person in a class). Now the pull rides only on the arguments made for the majority's side
(``PRESSURE_WITH_ARGUMENTS``): a minority juror moves when the majority argues, not by drift while
its own side is speaking, so a contested room takes more rounds to settle and its minority holds
out while its side still has things to say. A round in which people add their turns (a room of
six hears up to ten speeches) shares the pull of ``PRESSURE_SPEECHES`` speeches among them: more
arguments are heard, but the room does not lean harder for it (AI-only rounds, at most four
speeches, are unchanged). With the room moving more slowly, three quiet rounds no
longer mean a stuck jury (``STABILITY_ROUNDS`` 3 -> 4; a round stands for ten minutes of talk, see
``rules.ROUND_MINUTES``). Clear cases, whose first ballot is lopsided, still settle in two or
three rounds; the calibration targets hold on the dev sessions.

The holdout pass: once the jurors read what a speech says (the stance reading), the first ballot
decided nearly every Old Bailey trial (its majority won 98.8% of dev runs) and no curated run
hung, because a minority of any size gave way as surely as a lone dissenter. In Asch's studies a
single ally cut a dissenter's yielding to about a quarter; jurors who are not alone hold out
(``ALLY_HOLD``): a minority juror with at least one ally takes in that share less of what pushes
it across (the majority's arguments and the room's pull alike); a lone dissenter feels it in full.
The minorities that now hold are mostly the close ones (7-5, 8-4), as in Kalven and Zeisel's
hung juries. The rule is steep: at 0.25 a curated run in nine hangs, at 0.5 one dev run in five.
Every first ballot that is not tied follows the evidence lean's side, so each run the first
majority does not win costs balanced accuracy: at 0.15 the dev jury lost 0.007 of it (held out:
0.008, to 0.603 against the lean's 0.624), and the curated cases came inside every target, but the
Old Bailey first ballots still win 97% of runs (REALISM.md, "What is not faithful yet").

The hunch pass: with every juror's start built on the same case lean, a first ballot that was not
tied sat on the lean's side in nearly every run, so deliberation could only confirm it, and making
the majority lose more often (a stronger hold) cost balanced accuracy. Real jurors vote first on
impressions (the prisoner in the dock, how the trial felt) and the evidence comes out in the jury
room: the room now shares a hunch about the prisoner (``HUNCH_SPREAD``, one draw per deliberation
and case, taken in by each juror x (0.5 + volatility)), which gives way to the evidence round by
round (``HUNCH_FADE`` of what is left of it). On a close case the hunch can put the first majority
against the lean, and as it fades the evidence may turn the room, as in Kaplan and Miller's juries,
whose deliberation lessened the pull of what was not evidence. Seed 0 on the dev sessions: the
first-ballot majority wins 89.5% (was 98.4%), balanced accuracy 0.637 (was 0.634); 0.25 won 86%
and lost accuracy, a faster fade (0.8) hung more.
"""

from __future__ import annotations

# --- Conviction formula (fixed by the specification) -------------------------------------------
STUBBORNNESS_WEIGHT = 0.7  # (1 - 0.7 x stubbornness)
TRUST_WEIGHT = 0.3  # (1 + 0.3 x trust)
EXTREME_RESISTANCE = 0.5  # (1 - 0.5 x |c - 0.5|)
VOLATILITY_NOISE = 0.1  # gauss(0, 0.1 x volatility)
MAX_DELTA = 0.3  # each delta clamped to +-0.3
FLIP_TO_NOT_GUILTY_BELOW = 0.4  # hysteresis
FLIP_TO_GUILTY_ABOVE = 0.6

# --- Rounds and endings --------------------------------------------------------------------------
MAX_ROUNDS = 20
STABILITY_ROUNDS = 4  # rounds without a vote change that end the deliberation (the pace pass; was 3)
MIN_SPEAKERS = 1
MAX_SPEAKERS = 4
ACTIVE_LISTENERS = 3  # jurors who fully process a round; the rest get the lighter heuristic

# --- Memory ----------------------------------------------------------------------------------------
SUMMARY_INTERVAL = 5  # fold older turns into the rolling summary every 5 rounds
KEEP_RECENT = 3  # turns kept in full after a fold
MAX_REASONING_CHAIN = 8
MAX_DOUBTS = 5
MAX_IMPRESSIONS = 12  # arguments heard, each with how it struck the listener
OUTLOOK_IMPRESSIONS = 6  # ... of which a mind sees the newest
MAX_COUNTERPOINTS = 3  # arguments against one's side waiting for an answer
MAX_KEY_MOMENTS = 5
MAX_POINTS_MADE = 6  # items a juror has argued and should not repeat
MAX_OWN_SHIFT = 0.5  # the most a speaker's own change of mind moves their conviction in one speech
STRONG_ARGUMENT = 0.08  # |conviction change| from one argument that a listener flags as a key moment

# --- Speaker selection (weights add to a base of 1) ----------------------------------------------
FENCE_LOW = 0.35
FENCE_HIGH = 0.65
FENCE_BONUS = 1.5  # undecided jurors want to talk it through
ADDRESSED_BONUS = 2.5  # a juror just addressed (or invited by the foreperson) answers
INFLUENCE_BONUS = 1.0  # x influence: influential jurors take the floor
QUIET_BONUS = 1.5  # x how far below the average participation a juror is
VERBOSITY_BONUS = 0.5  # x verbosity
RECENCY_PENALTY = 0.25  # weight multiplier for a juror who spoke last round
RECENCY_PENALTY_2 = 0.6  # ... two rounds ago

# --- Trust between jurors (-1..1) ------------------------------------------------------------------
TRUST_AGREE = 0.06  # a speech on the listener's side
TRUST_DISAGREE = 0.04  # a speech against the listener's side
TRUST_PERSUADED = 0.08  # extra when the listener was persuaded
TRUST_DECAY = 0.02  # drift back towards 0 each round

# --- Initial conviction (initial.py) ---------------------------------------------------------------
CASE_LEAN_SCALE = 2.0  # evidence balance (-1..1) -> lean around 0.5 (was 1.0, then 0.25, first 0.35)
CONTESTED_WEIGHT = 0.6  # a contestable item counts this much in the balance
WITNESS_WEIGHT = 0.15  # a witness counts this much against a full evidence item (was 0.5)
CREDIBILITY_PENALTY = 0.2  # each credibility issue removes this much of a witness's weight
LEAN_SHIFT = 0.15  # defense / prosecution leans
MAJORITY_SHIFT = 0.1  # majority / minority leans
NEUTRAL_PULL = 0.5  # neutral jurors keep this share of the case lean
STORY_SCALE = 0.08  # best_story: per point of story advantage
GUT_SEVERITY_SHIFT = 0.08  # gut_feeling: grave charges feel guilty at first
INITIAL_NOISE = 0.2  # gauss sd, scaled by (0.5 + volatility) (was 0.27, first 0.12)
HUNCH_SPREAD = 0.2  # gauss sd of the room's shared hunch about the prisoner, x (0.5 + volatility) per juror
HUNCH_FADE = 0.6  # share of what is left of a juror's hunch that gives way to the evidence each round
RANDOM_LOW = 0.2
RANDOM_HIGH = 0.8
INITIAL_MIN = 0.05
INITIAL_MAX = 0.95

# --- Offline engine: argument strength and reception ------------------------------------------------
ARGUMENT_SCALE = 0.15  # a speech's strength (-1..1) -> base impact on one listener
CONTEST_DISCOUNT = 0.7  # a contestable item argued for its side loses this much force
CONTEST_BONUS = 0.25  # ... and gives the other side this much to work with
ISSUE_FORCE = 0.15  # per credibility issue, when attacking a witness
QUESTION_FORCE = 0.75  # questions push less than statements
INFLUENCE_FLOOR = 0.7  # speaker influence scales impact: 0.7 + 0.6 x influence
INFLUENCE_SCALE = 0.6
DOUBT_RESONANCE = 1.3  # an argument touching a listener's own doubt lands harder
PASSIVE_ATTENTION = 0.6  # passive listeners take in less
MAJORITY_PRESSURE = 0.45  # pull on minority jurors with every speech, x (majority share - 0.5) x 2 (calibrated)
PRESSURE_WITH_ARGUMENTS = True  # the room's pull rides only on speeches that argue its side (the pace pass)
PRESSURE_SPEECHES = 4.0  # a round with more speeches (people's turns) shares this many speeches' pull
ALLY_HOLD = 0.15  # a minority juror with an ally takes in this share less of what pushes it over (Asch)
REACTION_JITTER = 0.12  # per-listener spread of base impact
PERSUADED_THRESHOLD = 0.25  # |base impact| against one's vote that counts as persuaded
