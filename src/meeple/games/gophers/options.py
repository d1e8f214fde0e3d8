"""The options of Gophers: which of the four rule sets, and which card values are taken out."""

from __future__ import annotations

import enum
from typing import Literal

import attrs

from meeple.engine import ConfigError, Options

from .data import BEGINNER_VALUES, SUPPLY_KINDS, VALUES, VALUES_REMOVED_SIMPLIFIED

#: The values of the ``bank`` option (beginner rules) and of the ``end`` option.
BANKS = ("full", "harder")
ENDS = ("round", "turn")


class Variant(enum.Enum):
    """The four rule sets of the seed text, as one option of the same game.

    * ``STANDARD``: the main rules (signed combinations, hands, gifts, dig cards).
    * ``SIMPLIFIED``: addition only; five dig cards; no supply cards 8, 9, 10.
    * ``ADVANCED``: the standard rules plus baskets (jump on a productive turn
      to take baskets; owners redeem them with their next productive turn).
    * ``BEGINNER``: the 5+ rules: no hands, an open bank sorted by kind and
      value, one dig card per player, the scarcest kind scores.
    """

    STANDARD = "standard"
    SIMPLIFIED = "simplified"
    ADVANCED = "advanced"
    BEGINNER = "beginner"


# The variants the rules and the bot ask about on every command, as module constants (an enum class
# reads its members through a slow ``__getattr__`` hook on CPython 3.11; see ``state.MOVE``).
SIMPLIFIED, ADVANCED, BEGINNER = Variant.SIMPLIFIED, Variant.ADVANCED, Variant.BEGINNER


@attrs.frozen
class GophersOptions(Options):
    """Options of a Gophers match; every field has a default.

    ``variant`` picks the rule set; ``removed_values`` takes supply cards of
    those face values out of the box (the beginner rules suggest it to force
    combinations; it works in every variant). Hands have no limit: the seed
    has the mover draw after every unproductive turn. ``bank`` is the
    beginner bank: ``"full"`` (all 60 supply cards, the seed's beginner game)
    or ``"harder"`` (the 48 cards of the values some hole of their kind asks
    for). ``end`` says when the end is checked: at the end of a ``"round"``, so
    every seat has had as many turns, or at the end of any ``"turn"`` (the
    seed's words read literally).

    >>> GophersOptions().variant
    <Variant.STANDARD: 'standard'>
    """

    variant: Variant = attrs.field(default=Variant.STANDARD, metadata={
        "help": "the rule set: 'standard', 'simplified' (addition only), 'advanced' (with baskets) "
                "or 'beginner' (the 5+ rules)"})
    removed_values: tuple[int, ...] = attrs.field(default=(), metadata={
        "help": "face values of supply cards taken out of the box, in increasing order "
                "(at least three values must stay)"})
    bank: Literal["full", "harder"] = attrs.field(default="full", metadata={
        "help": "beginner rules: the bank holds 'full' (all 60 supply cards, the seed's beginner game) or is the "
                "'harder' preset (48 cards: only the values some hole of their kind asks for)"})
    end: Literal["round", "turn"] = attrs.field(default="round", metadata={
        "help": "when the end is checked: at the end of a 'round' (every seat has had as many turns; designed) or "
                "at the end of any 'turn' (the seed read literally: the first player's edge)"})

    @property
    def subtraction(self) -> bool:
        """True if collections may subtract cards (all but the simplified rules)."""
        return self.variant is not SIMPLIFIED

    @property
    def baskets(self) -> bool:
        """True if the basket rules are in play (advanced rules only)."""
        return self.variant is ADVANCED

    @property
    def beginner(self) -> bool:
        """True for the 5+ rules (no hands, an open bank)."""
        return self.variant is BEGINNER

    @property
    def short_till(self) -> bool:
        """True if a beginner bank too short for a count pays what it holds of the kind (the full bank)."""
        return self.variant is BEGINNER and self.bank == "full"

    def validate(self, seats: int) -> None:
        """Reject unknown banks and ends, unknown or unsorted removed values, and removals leaving under three values of a kind."""
        if self.bank not in BANKS:
            raise ConfigError(f"gophers: bank must be one of {', '.join(map(repr, BANKS))}, not {self.bank!r}")
        if self.end not in ENDS:
            raise ConfigError(f"gophers: end must be one of {', '.join(map(repr, ENDS))}, not {self.end!r}")
        bad = [v for v in self.removed_values if v not in VALUES]
        if bad:
            raise ConfigError(f"gophers: removed_values must be card values 1..10, not {bad}")
        if len(set(self.removed_values)) != len(self.removed_values):
            raise ConfigError("gophers: removed_values lists a value twice")
        if sorted(self.removed_values) != list(self.removed_values):
            raise ConfigError("gophers: list removed_values in increasing order")
        for kind in SUPPLY_KINDS:
            asked = self.beginner and self.bank == "harder"
            left = set(BEGINNER_VALUES[kind] if asked else VALUES) - set(self.removed_values)
            if self.variant is Variant.SIMPLIFIED:
                left -= set(VALUES_REMOVED_SIMPLIFIED)
            if len(left) < 3:
                what = f"the beginner bank's {kind.value} cards" if self.beginner else "the box"
                raise ConfigError(f"gophers: removed_values must leave at least three face values in {what}")
