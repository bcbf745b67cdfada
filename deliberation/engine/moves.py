"""How a listener's move reads: the words of a reaction follow the move the pages show.

A reaction's thought is chosen before the engine has computed the listener's move (the move adds
the listener's stubbornness, trust and a draw of volatility to the mind's impact), so a mind that
can say its thought for every move gives a ``Thought``: its words for each kind of move, resolved
into plain words once the move is known (``results.ReactionRecord``). A model's thought is its own
words and stays as it is.

The kinds of move, by what the court page shows (the move to two decimals, "unmoved" below
``UNMOVED``), measured towards the speaker's side:

* ``clear``: 0.05 or more towards the speaker (persuaded, or, for a listener already on that
  side, agreement);
* ``little``: 0.01 to 0.04 towards the speaker;
* ``unmoved``: shown as no move;
* ``away``: any shown move away from the speaker (the argument pushed the listener back).

The words must also agree with the vote the listener casts when the round closes: a listener whose
vote turns that round does not say its view stands ("Heard it before. Still unmoved.", "Exactly
what I thought") beside the change. A ``Thought`` carries its words for every move a second time
for that listener (``turning``), and ``rounds`` shows those once the round's votes are in
(``results.ReactionRecord.after_vote``).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

UNMOVED = 0.005  # a move smaller than this shows as 0.00, "unmoved"
CLEAR = Decimal("0.05")  # a move shown as this or more is a clear one
STORED_PLACES = 4  # a turn stores each move to four places; the page shows it to two, half up
MOVES = ("clear", "little", "unmoved", "away")


def shown(delta: float) -> Decimal:
    """The size of a move as the court page shows it (stored to four places, shown to two)."""
    return Decimal(repr(round(abs(delta), STORED_PLACES))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def move_of(delta: float, towards: int) -> str:
    """The kind of a move of ``delta`` (+ towards guilty) for a speaker arguing ``towards`` (+1 guilty,
    -1 not guilty)."""
    size = shown(delta)
    if not size:
        return "unmoved"
    if (delta > 0) != (towards > 0):
        return "away"
    return "clear" if size >= CLEAR else "little"


class Thought(str):
    """A thought's words as the mind chose them from its own impact, carrying its words for every
    kind of move (``MOVES``) and the side the speaker argued."""

    words: dict[str, str]
    towards: int
    turning: dict[str, str]

    def __new__(
        cls,
        text: str,
        *,
        words: dict[str, str] | None = None,
        towards: int = 0,
        turning: dict[str, str] | None = None,
    ) -> Thought:
        # The keywords have defaults: a copy (``copy``, ``asdict``) is made from the text, then given
        # the copied attributes.
        thought = super().__new__(cls, text)
        thought.words = dict(words or {})
        thought.towards = towards
        thought.turning = dict(turning or {})
        return thought

    def for_move(self, delta: float, *, turned: bool = False) -> str:
        """The plain words for the move the engine computed; ``turned``: for a listener whose vote
        turned in the round (its ``turning`` words, when it has them)."""
        move = move_of(delta, self.towards)
        if turned and move in self.turning:
            return self.turning[move]
        return str(self.words.get(move, str(self)))
