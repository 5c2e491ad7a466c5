"""Illumonopoly in words: transcript verbs and ``set`` keys (docs/transcript.md,
"Illumonopoly"), and sentences for its events."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.core.events import Event
from companion.games.monopoly.actions import Action, Choose, Pass
from companion.games.monopoly.illumonopoly.actions import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PayInKind,
    PlayCard,
    Sue,
    Support,
    Transfer,
)
from companion.games.monopoly.illumonopoly.state import (
    CARD_KINDS,
    CENTRAL,
    ILLUMINATI,
    IllumPlayer,
    IllumTable,
)
from companion.games.monopoly.state import GameState, PlayerState
from companion.games.monopoly.transcript import square_index

if TYPE_CHECKING:
    from companion.games.monopoly.illumonopoly.layer import Illumonopoly

VERBS = ("transfer", "interfere", "support", "sue", "court", "bavarian_deal", "missing",
         "choose", "pass", "pay_in_kind")


def _q(text: str) -> str:
    return f'"{text}"' if " " in text else text


def _int(text: str, what: str) -> int:
    try:
        return int(text.lstrip("$"))
    except ValueError:
        raise ValueError(f"{what} must be a whole number of dollars, not {text!r}") from None


def _seat(state: GameState, name: str) -> int:
    try:
        return state.player_index(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None


def parse_verb(rules: Illumonopoly, state: GameState, player: int, verb: str,  # noqa: C901
               args: list[str]) -> Action | None:
    """The verbs: ``transfer FROM TO N [fee=FROM|TO]``, ``interfere``, ``support SIDE N
    [from=GROUP]``, ``sue NAME landmark|title|antitrust "LOT"``, ``court KIND [NAME] ["LOT"]
    [as=secret_deal] [help]``, ``bavarian_deal``, ``missing "LOT"``, ``choose lot "LOT"``,
    ``choose case continue|abandon``, ``pass``."""
    if verb == "pass" and not args:
        return Pass(player)
    if verb == "interfere" and not args:
        return Interfere(player)
    if verb == "bavarian_deal" and not args:
        return BavarianDeal(player)
    if verb == "pay_in_kind":
        if len(args) != 1:
            raise ValueError('pay_in_kind "LOT": the lot offered instead of the rent owed')
        return PayInKind(player, square_index(rules, args[0]))
    if verb == "transfer":
        plain = [a for a in args if not a.startswith("fee=")]
        fees = [a[4:] for a in args if a.startswith("fee=")]
        if len(plain) != 3:
            raise ValueError("transfer FROM TO AMOUNT [fee=FROM|TO], e.g. transfer green central 100")
        return Transfer(player, plain[0], plain[1], _int(plain[2], "the amount"),
                        fees[0] if fees else "")
    if verb == "support":
        plain = [a for a in args if not a.startswith("from=")]
        sources = [a[5:] for a in args if a.startswith("from=")]
        if len(plain) != 2:
            raise ValueError("support SIDE AMOUNT [from=GROUP], e.g. support plaintiff 30")
        return Support(player, plain[0], _int(plain[1], "the amount"),
                       sources[0] if sources else CENTRAL)
    if verb == "sue":
        if len(args) != 3:
            raise ValueError('sue NAME landmark|title|antitrust "LOT"')
        return Sue(player, _seat(state, args[0]), args[1], square_index(rules, args[2]))
    if verb == "missing":
        if len(args) != 1:
            raise ValueError('missing "LOT"')
        return DeclareMissing(player, square_index(rules, args[0]))
    if verb == "choose":
        if len(args) != 2:
            raise ValueError('choose lot "LOT", choose case continue|abandon, choose even '
                             'build|sell, or choose offer accept')
        option = args[1]
        if args[0] == "lot":
            option = str(square_index(rules, option))
        return Choose(player, args[0], option)
    if verb == "court":
        if not args:
            raise ValueError(f"court KIND [NAME] [\"LOT\"]; kinds: {', '.join(CARD_KINDS)}")
        kind = args[0].lower()
        target = square = -1
        as_deal = help_ = False
        treasury = ""
        for word in args[1:]:
            if word.startswith("treasury="):
                treasury = word[len("treasury="):]
            elif word == "as=secret_deal":
                as_deal = True
            elif word == "help":
                help_ = True
            elif any(p.name.lower() == word.lower() for p in state.players):
                target = _seat(state, word)
            else:
                square = square_index(rules, word)
        return PlayCard(player, kind, target, square, as_deal, help_, treasury)
    return None


def format_action(rules: Illumonopoly, state: GameState, action: Action) -> str | None:
    sq = rules.board.squares
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Interfere):
        return "interfere"
    if isinstance(action, BavarianDeal):
        return "bavarian_deal"
    if isinstance(action, Transfer):
        fee = f" fee={action.fee_from}" if action.fee_from else ""
        return f"transfer {action.source} {action.dest} {action.amount}{fee}"
    if isinstance(action, Support):
        src = f" from={action.source}" if action.source != CENTRAL else ""
        return f"support {action.side} {action.amount}{src}"
    if isinstance(action, Sue):
        return (f"sue {_q(state.players[action.defendant].name)} {action.kind} "
                f"{_q(sq[action.target].name)}")
    if isinstance(action, DeclareMissing):
        return f"missing {_q(sq[action.square].name)}"
    if isinstance(action, PayInKind):
        return f"pay_in_kind {_q(sq[action.square].name)}"
    if isinstance(action, Choose):
        if action.what == "lot" and action.option.isdigit():
            return f"choose lot {_q(sq[int(action.option)].name)}"
        return f"choose {action.what} {action.option}"
    if isinstance(action, PlayCard):
        words = ["court", action.kind]
        if action.target >= 0:
            words.append(_q(state.players[action.target].name))
        if action.square >= 0:
            words.append(_q(sq[action.square].name))
        if action.as_deal:
            words.append("as=secret_deal")
        if action.help:
            words.append("help")
        if action.treasury:
            words.append(f"treasury={action.treasury}")
        return " ".join(words)
    return None


def _bool(value: str) -> bool:
    lowered = value.lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError(f"true or false, not {value!r}")


def set_player_field(rules: Illumonopoly, player: PlayerState, key: str,
                     value: str) -> PlayerState:
    """``set player NAME treasury=green:100,railroad:50 illuminati=gnomes court_hand=2
    court_cards=irs_audit,cancellation audited=true`` (``cash`` stays the total: set it
    after the treasuries)."""
    if not isinstance(player, IllumPlayer):
        raise ValueError("not an illumonopoly player")
    if key == "treasury":
        entries: dict[str, int] = {}
        for item in filter(None, value.split(",")):
            group, _, amount = item.partition(":")
            if group not in rules.board.groups:
                raise ValueError(f"no group {group!r}; groups: {', '.join(rules.board.groups)}")
            n = _int(amount, f"the {group} treasury")
            if n < 0:
                raise ValueError("a treasury cannot hold less than $0")
            if n:
                entries[group] = n
        order = list(rules.board.groups)
        treasuries = tuple(sorted(entries.items(), key=lambda e: order.index(e[0])))
        central = player.central
        return replace(player, treasuries=treasuries,
                       cash=max(central, 0) + sum(entries.values()))
    if key == "central":
        n = _int(value, "central")
        if n < 0:
            raise ValueError("a treasury cannot hold less than $0")
        return replace(player, cash=n + sum(a for _g, a in player.treasuries))
    if key == "illuminati":
        if value not in ILLUMINATI and value not in ("", "none"):
            raise ValueError(f"illuminati is one of {', '.join(ILLUMINATI)} or none")
        return replace(player, illuminati="" if value == "none" else value)
    if key == "court_hand":
        n = _int(value, "court_hand")
        if not 0 <= n <= 52:
            raise ValueError("court_hand is 0 to 52 cards")
        return replace(player, court_hand=n)
    if key == "court_cards":
        cards = tuple(filter(None, value.split(",")))
        bad = [c for c in cards if c not in CARD_KINDS]
        if bad:
            raise ValueError(f"unknown Court Date card kind {bad[0]!r}; kinds: {', '.join(CARD_KINDS)}")
        return replace(player, court_cards=cards, court_hand=len(cards))
    if key == "audited":
        return replace(player, audited=_bool(value))
    raise ValueError(f"unknown player field {key!r}; illumonopoly adds treasury, central, "
                     "illuminati, court_hand, court_cards, audited")


def set_square_field(rules: Illumonopoly, state: GameState, index: int, key: str,
                     value: str) -> GameState:
    """``set square "X" landmark=true``, ``missing=NAME`` (the Bermuda player),
    ``frozen=NAME`` (the purchaser), ``bribed=NAME`` (the card player)."""
    tb = state.table_of(IllumTable)
    if key == "landmark":
        marks = tuple(i for i in tb.landmarks if i != index)
        if _bool(value):
            if state.squares[index].owner is not None or not rules.board.squares[index].is_street:
                raise ValueError("a landmark is an unowned street (set owner=none first)")
            marks = tuple(sorted(marks + (index,)))
        return replace(state, table=replace(tb, landmarks=marks))
    if key in ("missing", "frozen", "bribed"):
        if not rules.board.squares[index].ownable:
            raise ValueError(f"{key} names a lot")
        seat = _seat(state, value)
        if key == "missing":
            return replace(state, table=replace(tb, missing=(index, seat, 2)))
        if key == "frozen":
            return replace(state, table=replace(tb, blocked=tb.blocked + ((index, seat),)))
        return replace(state, table=replace(tb, bribed=tb.bribed + ((index, seat),)))
    raise ValueError(f"unknown square field {key!r}; illumonopoly adds landmark, missing, "
                     "frozen, bribed")


def describe_event(rules: Illumonopoly, state: GameState, event: Event) -> str | None:  # noqa: C901
    who = state.players[event.player].name if event.player is not None and \
        0 <= event.player < len(state.players) else "The table"
    other = state.players[event.other].name if isinstance(event.other, int) and \
        0 <= event.other < len(state.players) else ""
    lot = rules.board.squares[event.square].name if event.square is not None else ""
    k = event.kind
    d = event.detail
    if k == "transferred":
        src, _, dst = d.partition(">")
        return f"{who} moved ${event.amount} from the {src} treasury to the {dst} treasury."
    if k == "treasury_emptied":
        return f"{who} holds no {d} lots now: ${event.amount} goes to the central treasury."
    if k == "idle_bonus":
        return f"{who} did nothing but move and earns ${event.amount}."
    if k == "court_card_drawn":
        return f"{who} draws a Court Date card."
    if k == "court_deck_empty":
        return "Every Court Date card is in a hand: none to draw."
    if k == "purchase_announced":
        extra = " as a Secret Deal" if d else ""
        return f"{who} announces buying {lot}{extra}: anyone may interfere."
    if k == "interfered":
        return f"{who} files against {other}'s purchase of {lot} ($50 to the bank)."
    if k == "supported":
        side, _, double = d.partition(" ")
        return f"{who} spends ${event.amount} for the {side}" + \
            (" from the contested group (counts double)." if double else ".")
    if k == "contest_number":
        return f"{who} needs {event.amount} or less on two dice."
    if k == "trade_announced":
        if d == "in kind":
            return (f"{other} would take {lot} from {who} instead of the rent: anyone else may "
                    "interfere.")
        if d:
            return (f"{who} proposes a trade with {other} for {lot} as a Secret Deal: only an "
                    "Interference card opposes it.")
        return f"{who} proposes a trade with {other} for {lot}: anyone else may interfere."
    if k == "in_kind_offered":
        return f"{who} offers {lot} to {other} instead of the ${event.amount} rent."
    if k == "in_kind_declined":
        return f"{who} declines {lot}: the rent is still owed in money."
    if k == "rent_in_kind":
        return f"{other} takes {lot} instead of the ${event.amount} rent."
    if k == "evening_asked":
        return (f"{lot} is bare and its group uneven: {who} builds it up (${event.amount}) or "
                "sells the group down.")
    if k == "evened_up":
        return f"{who} builds the group up evenly (${event.amount})."
    if k == "trade_blocked":
        return f"{who} wins: the trade for {lot} with {other} is cancelled."
    if k == "trade_failed":
        return f"The trade cannot go ahead: {d}."
    if k == "purchase_blocked":
        return f"{who} wins: {lot} cannot be bought by {other} this round."
    if k == "sued":
        kinds = {"landmark": "declare it a historic landmark", "title": "claim a defective title",
                 "antitrust": "break up a monopoly"}
        return f"{who} sues {other} over {lot} to {kinds.get(d, d)} ($50 to the court)."
    if k == "case_won":
        return f"{who} wins the case against {other}."
    if k == "case_lost":
        return f"{who} loses the case against {other}."
    if k == "landmarked":
        return f"{lot} is now a historic landmark, out of play."
    if k == "landmark_returned":
        return f"{lot} returns to play (Historic Blunder)."
    if k == "title_seized":
        return f"{who} takes {lot} from {other} on a defective title."
    if k == "broken_up":
        return f"{who} gives up {lot}: it goes back to the bank."
    if k == "case_held":
        return f"{who} halts the case until {other}'s next turn (Holding Action)."
    if k in ("case_continued", "case_abandoned"):
        return f"{who} {'continues' if k == 'case_continued' else 'abandons'} the held case."
    if k == "court_card":
        return f"{who} plays {d.replace('_', ' ')}" + (f" on {other}" if other else "") + \
            (f" ({lot})" if lot else "") + "."
    if k == "court_card_effect":
        return f"{d.replace('_', ' ').capitalize()} takes effect."
    if k == "court_card_cancelled":
        return f"{who}'s {d.replace('_', ' ')} is cancelled."
    if k == "card_taken":
        return f"{who} takes a Court Date card from {other}."
    if k == "spied":  # what was seen shows only to the spy (presenter.private_lines)
        what = "Court Date cards" if d == "cards" else f"{d.replace('_', ' ')} treasury"
        return f"{who} looks at {other}'s {what} (Corporate Spy)."
    if k == "audit_ended":
        return f"{who} rolled doubles: the IRS Audit ends."
    if k == "secret_deal_bought" and lot:
        return f"{who} pays $100: the purchase of {lot} is a Secret Deal."
    if k == "lot_missing":
        return f"{lot} has gone missing (Bermuda Triangle)."
    if k == "missing_returned":
        return f"{lot} is back."
    if k == "stopped_at_missing":
        return f"{who} stops at the missing {lot}; the turn ends."
    if k == "landmark_visited":
        return f"{lot} is a historic landmark: nothing happens."
    if k == "lot_frozen":
        return f"{lot} cannot be bought this round."
    if k == "secret_deal_bought":
        return f"{who} pays $100: the next acquisition announced is a Secret Deal."
    return None
