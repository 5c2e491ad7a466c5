"""The pending steps of Illumonopoly: interference with a purchase, the support round of a
contest (a purchase or a court case), the contest roll, a Court Date card waiting for a
Cancellation, the antitrust defendant's choice and a held case's continuation.

Windows and decisions are the engine's kinds (``reactions.Window``, ``prompts.Decision``,
``prompts.RollFor``); the layer (``layer.Illumonopoly``) applies what they decide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Action, Choose, Pass, Trade
from companion.games.monopoly.illumonopoly.actions import Interfere, PlayCard, Support
from companion.games.monopoly.prompts import Decision, RollFor
from companion.games.monopoly.reactions import Window

if TYPE_CHECKING:
    from companion.games.monopoly.illumonopoly.layer import Illumonopoly
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

PURCHASE_UNIT = 50
CASE_UNIT = 10


@dataclass(frozen=True, slots=True)
class InterferenceWindow(Window["Illumonopoly"]):
    """A purchase is announced: the other players may file against it (the first to file is
    the complainant, I-9); under a Secret Deal only by playing Interference."""

    purchaser: int = -1
    square: int = -1
    secret: bool = False
    trade: Trade | None = None  # an acquisition by trade (IL.13), else a purchase from the bank
    in_kind: bool = False  # the trade is a lot given instead of the rent owed

    @property
    def prompt(self) -> str:
        how = "only with an Interference card (a Secret Deal)" if self.secret else "$50 to file"
        return f"interfere with the purchase ({how}), or pass"

    def answer_actions(self, rules: Illumonopoly, state: GameState, seat: int) -> list[Action]:
        if rules.audited(state, seat):
            return []
        if self.secret:
            if rules.holds_card(state, seat, "interference") and \
                    rules.can_spend(state, seat, 50, "court fee"):
                return [PlayCard(seat, "interference")]
            return []
        if rules.can_spend(state, seat, 50, "court fee"):
            return [Interfere(seat)]
        return []

    def close(self, rules: Illumonopoly, t: Txn) -> None:
        if self.trade is not None:
            rules.complete_trade(t, self.trade, self.in_kind)
        else:
            rules.complete_purchase(t, self.purchaser, self.square)


@dataclass(frozen=True, slots=True)
class SupportRound(Window["Illumonopoly"]):
    """Both sides spend: a purchase (``kind`` "purchase": side a = purchaser, b = complainant;
    the number to roll starts at 10) or a court case (kind "landmark"/"title"/"antitrust":
    a = plaintiff, b = defendant; ``base`` is the Effective Legal Power before spending).
    ``net`` is what spending changed (a's side plus, b's side minus); any support reopens the
    round (it ends after a full round of passes)."""

    kind: str = "purchase"
    a: int = -1
    b: int = -1
    square: int = -1  # the lot acquired or sued over
    base: int = 10
    net: int = 0
    spent_a: int = 0
    spent_b: int = 0
    help_b: bool = True  # others may spend on b's side
    supporters: tuple[int, ...] = ()
    trade: Trade | None = None  # the acquisition by trade being opposed
    in_kind: bool = False  # that trade is a lot given instead of rent

    @property
    def prompt(self) -> str:
        """The contest panel in one line: the number to roll, what each side spent."""
        a, b = self.sides()
        return (f"{a} needs {self.number} or less on 2d6; {a} ${self.spent_a}, {b} "
                f"${self.spent_b}; spend ${self.unit} units or pass")

    @property
    def case(self) -> bool:
        return self.kind != "purchase"

    @property
    def unit(self) -> int:
        return CASE_UNIT if self.case else PURCHASE_UNIT

    @property
    def number(self) -> int:
        """The highest roll that wins for side a (the purchaser or the plaintiff)."""
        return self.base + self.net

    def sides(self) -> tuple[str, str]:
        return ("plaintiff", "defendant") if self.case else ("purchaser", "complainant")

    def answer_actions(self, rules: Illumonopoly, state: GameState, seat: int) -> list[Action]:
        out: list[Action] = []
        if rules.audited(state, seat):
            return out
        side_a, side_b = self.sides()
        for side, party in ((side_a, self.a), (side_b, self.b)):
            if party == self.b and not self.help_b and seat != self.b:
                continue
            for units in (1, 3, 10):
                amount = units * self.unit
                if rules.can_spend(state, seat, amount, "court fee"):
                    out.append(Support(seat, side, amount))
        return out

    def close(self, rules: Illumonopoly, t: Txn) -> None:
        rules.contest_spent(t, self)


@dataclass(frozen=True, slots=True)
class ContestRoll(RollFor["Illumonopoly"]):
    """Side a rolls 2d6 against the contest's number."""

    contest: SupportRound | None = None
    sides: tuple[int, ...] = (6, 6)

    @property
    def prompt(self) -> str:
        number = self.contest.number if self.contest is not None else 0
        return f"roll 2d6: {number} or less wins the contest"

    def rolled(self, rules: Illumonopoly, t: Txn, dice: tuple[int, ...]) -> None:
        assert self.contest is not None
        rules.contest_rolled(t, self.contest, sum(dice))


@dataclass(frozen=True, slots=True)
class CardWindow(Window["Illumonopoly"]):
    """A Court Date card was played: the others may answer with Cancellation (which may
    itself be cancelled, I-22); the card takes effect when nobody answers, unless cancelled."""

    card: PlayCard | None = None
    cancelled: bool = False
    last: int = -1  # who played the last card of the stack

    @property
    def prompt(self) -> str:
        kind = self.card.kind.replace("_", " ") if self.card is not None else "a card"
        state = "cancelled" if self.cancelled else "standing"
        return f"{kind} is {state}: play Cancellation, or pass"

    def answer_actions(self, rules: Illumonopoly, state: GameState, seat: int) -> list[Action]:
        if rules.holds_card(state, seat, "cancellation"):
            return [PlayCard(seat, "cancellation")]
        return []

    def close(self, rules: Illumonopoly, t: Txn) -> None:
        assert self.card is not None
        if self.cancelled:
            t.emit("court_card_cancelled", self.card.player, detail=self.card.kind)
            return
        rules.card_takes_effect(t, self.card)


@dataclass(frozen=True, slots=True)
class AntitrustChoice(Decision["Illumonopoly"]):
    """A lost antitrust suit: the defendant picks which lot of the group to give up
    (``choose lot "NAME"``)."""

    lots: tuple[int, ...] = ()

    @property
    def prompt(self) -> str:
        return "choose which lot of the monopoly to give up"

    def actions(self, rules: Illumonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "lot", str(i)) for i in self.lots]

    def choose(self, rules: Illumonopoly, t: Txn, what: str, option: str) -> None:
        lot = rules.lot_option(option)
        if what != "lot" or lot not in self.lots:
            names = ", ".join(rules.board.squares[i].name for i in self.lots)
            t.pending.insert(0, self)
            raise IllegalActionError(f"choose lot NAME, one of: {names}")
        rules.antitrust_lose(t, self.player, lot)


@dataclass(frozen=True, slots=True)
class HeldCaseChoice(Decision["Illumonopoly"]):
    """The plaintiff of a case held by a Holding Action decides at the start of their turn:
    continue it (their legal action this turn) or abandon it (``choose case
    continue|abandon``)."""

    index: int = 0  # which held case (position in the table's list)

    @property
    def prompt(self) -> str:
        return "continue the held court case or abandon it"

    def actions(self, rules: Illumonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "case", "continue"), Choose(self.player, "case", "abandon")]

    def choose(self, rules: Illumonopoly, t: Txn, what: str, option: str) -> None:
        if what != "case" or option not in ("continue", "abandon"):
            t.pending.insert(0, self)
            raise IllegalActionError("choose case continue, or choose case abandon")
        rules.resume_case(t, self.player, self.index, option == "continue")


@dataclass(frozen=True, slots=True)
class EveningChoice(Decision["Illumonopoly"]):
    """A lot of a built group came back bare (or lost its buildings), leaving the group
    uneven (IL.38, I-35): the owner of the highest lot either builds the low lots up
    (``choose even build``, paying the bank ``cost``) or lets the group be sold down
    (``choose even sell``)."""

    group: str = ""
    square: int = -1  # the low lot (the first, when several)
    needed: int = 0  # the level the low lots are built up to
    cost: int = 0

    @property
    def prompt(self) -> str:
        return "build the bare lot up, or sell the group down to even it"

    def actions(self, rules: Illumonopoly, state: GameState) -> list[Action]:
        out: list[Action] = [Choose(self.player, "even", "sell")]
        if rules.evening_build_problem(state, self) is None:
            out.insert(0, Choose(self.player, "even", "build"))
        return out

    def choose(self, rules: Illumonopoly, t: Txn, what: str, option: str) -> None:
        if what != "even" or option not in ("build", "sell"):
            t.pending.insert(0, self)
            raise IllegalActionError("choose even build, or choose even sell")
        if option == "build":
            problem = rules.evening_build_problem(t, self)
            if problem:
                t.pending.insert(0, self)
                raise IllegalActionError(problem)
            rules.even_up(t, self)
        else:
            rules.even_group(t, self.group, ask=False)


@dataclass(frozen=True, slots=True)
class InKindOffer(Decision["Illumonopoly"]):
    """The debtor offers ``square`` instead of the rent: the creditor (``player``) accepts
    (``choose offer accept``) or declines (``pass``; the rent stays owed in money)."""

    debtor: int = -1
    square: int = -1

    @property
    def prompt(self) -> str:
        return "accept the lot instead of the rent, or decline"

    def actions(self, rules: Illumonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "offer", "accept"), Pass(self.player)]

    def choose(self, rules: Illumonopoly, t: Txn, what: str, option: str) -> None:
        if what != "offer" or option != "accept":
            t.pending.insert(0, self)
            raise IllegalActionError("choose offer accept, or pass to decline")
        rules.in_kind_accepted(t, self)

    def decline(self, rules: Illumonopoly, t: Txn) -> None:
        t.emit("in_kind_declined", self.player, other=self.debtor, square=self.square)


def reopened(head: SupportRound, seat: int, change: int, spent: int, side_a: bool) -> SupportRound:
    """The round after ``seat`` spent: the number moves and everybody is asked again."""
    return replace(head, net=head.net + change,
                   spent_a=head.spent_a + (spent if side_a else 0),
                   spent_b=head.spent_b + (0 if side_a else spent),
                   passed=(), supporters=head.supporters + (seat,))
