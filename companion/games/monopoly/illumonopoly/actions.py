"""Illumonopoly's own actions (transcript verbs in parentheses; docs/transcript.md)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.monopoly.actions import Action


@dataclass(frozen=True, slots=True)
class Transfer(Action):
    """Move money between the central treasury and a group treasury (``transfer FROM TO N
    [fee=FROM|TO]``); the fee comes from ``fee_from`` (default: the source)."""

    source: str
    dest: str
    amount: int
    fee_from: str = ""


@dataclass(frozen=True, slots=True)
class Interfere(Action):
    """File against the purchase being announced, paying the $50 fee (``interfere``)."""


@dataclass(frozen=True, slots=True)
class Support(Action):
    """Spend on one side of a contest (``support SIDE N [from=GROUP]``): $50 units against a
    purchase, $10 units in a court case; ``source`` is central or a group treasury."""

    side: str
    amount: int
    source: str = "central"


@dataclass(frozen=True, slots=True)
class Sue(Action):
    """Begin a legal action (``sue NAME landmark|title|antitrust "LOT"``) for $50."""

    defendant: int
    kind: str
    target: int


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a Court Date card (``court KIND [NAME] ["LOT"] [as=secret_deal] [help]
    [treasury=NAME]``). ``as_deal``: any card played as a Secret Deal; ``help``: with
    Interference, others may spend on the complainant's side; ``treasury``: Corporate Spy
    looks at that treasury of the named player (central or a group) instead of their cards."""

    kind: str
    target: int = -1  # a seat
    square: int = -1
    as_deal: bool = False
    help: bool = False
    treasury: str = ""


@dataclass(frozen=True, slots=True)
class BavarianDeal(Action):
    """Bavarian Illuminati: pay $100 to make the purchase being announced a Secret Deal
    (``bavarian_deal``)."""


@dataclass(frozen=True, slots=True)
class DeclareMissing(Action):
    """Bermuda Triangle: declare a lot missing (``missing "LOT"``)."""

    square: int


@dataclass(frozen=True, slots=True)
class PayInKind(Action):
    """Offer a lot instead of the rent owed (``pay_in_kind "LOT"``): the creditor accepts or
    declines; an accepted offer is an acquisition the others may oppose (IL.13)."""

    square: int
