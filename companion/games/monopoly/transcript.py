"""Monopoly's own transcript lines (docs/transcript.md): the action verbs, the ``deck`` header
line, the ``set`` position lines and the JSON view of a state. A variant adds verbs and fields
through the hooks of ``Rules`` (``parse_variant_verb``, ``format_variant_action``,
``set_player_field``, ``set_square_field``, ``player_json``, ``square_json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.core.events import Event
from companion.core.words import parse_bool, parse_int, quote, split_pairs
from companion.games.monopoly.actions import (
    Action,
    Bid,
    BreakDown,
    Build,
    Buy,
    CallHouseAuction,
    ClaimRent,
    DeclareBankruptcy,
    Decline,
    DrawnCard,
    EndGame,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJail,
    Roll,
    Sell,
    Trade,
    TradeSide,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.cards import DECKS, load_deck
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.state import BANK, POT, GameState

if TYPE_CHECKING:
    from companion.games.monopoly.engine import Rules

SIMPLE_VERBS: dict[str, type[Action]] = {
    "buy": Buy,
    "decline": Decline,
    "pass": PassBid,
    "pay_jail": PayJail,
    "end": EndTurn,
    "bankrupt": DeclareBankruptcy,
    "house_auction": CallHouseAuction,
    "end_game": EndGame,
}
SQUARE_VERBS: dict[str, type[Action]] = {
    "build": Build,
    "sell": Sell,
    "mortgage": Mortgage,
    "unmortgage": Unmortgage,
    "keep_mortgaged": KeepMortgaged,
    "claim_rent": ClaimRent,
}
VERB_OF: dict[type[Action], str] = {v: k for k, v in {**SIMPLE_VERBS, **SQUARE_VERBS}.items()}


def square_index(rules: Rules, text: str) -> int:
    try:
        return rules.board.find(text).index
    except KeyError:
        if text.isdigit() and 0 <= int(text) < len(rules.board.squares):
            return int(text)
        raise ValueError(f"no square named {text!r}: use the name printed on the board") from None


# ------------------------------------------------------------------------------------------
# The deck header line
# ------------------------------------------------------------------------------------------
def read_deck_line(words: list[str], setup: dict[str, Any]) -> None:
    """``deck chance|community_chest CARD_ID ...`` into ``setup["decks"]``."""
    if words[0] != "deck":
        raise ValueError(f"{words[0]!r} is not a header line of Monopoly")
    if len(words) < 3 or words[1] not in DECKS:
        raise ValueError("deck chance|community_chest CARD_ID ...")
    setup.setdefault("decks", {})[words[1]] = words[2:]


def deck_lines(state: GameState) -> list[str]:
    """The decks written out in full, so a replay deals the same cards."""
    return ["deck chance " + " ".join(state.chance),
            "deck community_chest " + " ".join(state.community_chest)]


# ------------------------------------------------------------------------------------------
# Parsing action lines
# ------------------------------------------------------------------------------------------
def parse_trade_side(rules: Rules, words: list[str]) -> TradeSide:
    squares: list[int] = []
    cash = 0
    cards: list[str] = []
    for word in words:
        if word.startswith("$"):
            cash += parse_int(word, "cash")
        elif word.startswith("cash="):
            cash += parse_int(word[5:], "cash")
        elif word.startswith("card:") or word.startswith("jail_card="):
            deck = word.split(":", 1)[1] if word.startswith("card:") else word.split("=", 1)[1]
            if deck not in DECKS:
                raise ValueError(f"a Get Out of Jail Free card is chance or community_chest, not {deck!r}")
            cards.append(deck)
        else:
            squares.append(square_index(rules, word))
    return TradeSide(tuple(squares), cash, tuple(cards))


def parse_action(rules: Rules, state: GameState, words: list[str]) -> Action:  # noqa: C901
    """``NAME VERB ARGS`` (already split) as an Action, or ValueError saying what is wrong."""
    if len(words) < 2:
        raise ValueError("an action line is NAME VERB [ARGS]")
    name, verb, args = words[0], words[1], words[2:]
    try:
        player = state.player_index(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    if verb == "roll":
        if not args:
            raise ValueError("roll needs the dice values, e.g. 'roll 3 4'")
        return Roll(player, tuple(parse_int(a, "a die") for a in args))
    auction = bool(state.pending) and isinstance(state.pending[0], Auction)
    if verb == "pass" and not args and not auction:
        extra = rules.parse_variant_verb(state, player, verb, args)  # a variant's own pass
        if extra is not None:
            return extra
    if verb in SIMPLE_VERBS:
        if args:
            raise ValueError(f"{verb} takes no arguments")
        return SIMPLE_VERBS[verb](player)
    if verb in SQUARE_VERBS:
        if len(args) != 1:
            raise ValueError(f'{verb} takes one square name, quoted if it has spaces: {verb} "Park Place"')
        return SQUARE_VERBS[verb](player, square_index(rules, args[0]))  # type: ignore[call-arg]
    if verb == "bid":
        if len(args) != 1:
            raise ValueError("bid takes one amount, e.g. 'bid 120'")
        return Bid(player, parse_int(args[0], "bid"))
    if verb == "use_jail_card":
        deck = args[0] if args else ""
        if deck and deck not in DECKS:
            raise ValueError("use_jail_card takes chance or community_chest (or nothing)")
        return UseJailCard(player, deck)
    if verb == "card":
        if len(args) != 1:
            raise ValueError("card takes the id of the card drawn, e.g. 'card go_back_three'")
        return DrawnCard(player, args[0])
    if verb == "breakdown":
        if len(args) != 2:
            raise ValueError("breakdown takes a group and one level per lot: breakdown green 3,3,2")
        levels = tuple(parse_int(v, "level") for v in args[1].split(","))
        return BreakDown(player, args[0], levels)
    if verb == "trade":
        if not args:
            raise ValueError("trade PARTNER give ... get ...")
        try:
            partner = state.player_index(args[0])
        except KeyError as exc:
            raise ValueError(str(exc.args[0])) from None
        rest = args[1:]
        give: list[str] = []
        get: list[str] = []
        target = None
        for word in rest:
            if word == "give":
                target = give
            elif word == "get":
                target = get
            elif target is None:
                raise ValueError("after the partner's name, list 'give ...' and/or 'get ...'")
            else:
                target.append(word)
        return Trade(player, partner, parse_trade_side(rules, give), parse_trade_side(rules, get))
    extra = rules.parse_variant_verb(state, player, verb, args)
    if extra is None:
        known = sorted(["roll", "bid", "use_jail_card", "card", "breakdown", "trade",
                        *SIMPLE_VERBS, *SQUARE_VERBS])
        raise ValueError(f"unknown verb {verb!r}; verbs are: {', '.join(known)}")
    return extra


def format_trade_side(rules: Rules, side: TradeSide) -> list[str]:
    words = [quote(rules.board.squares[i].name) for i in side.squares]
    if side.cash:
        words.append(f"${side.cash}")
    words.extend(f"card:{d}" for d in side.jail_cards)
    return words


def format_action(rules: Rules, state: GameState, action: Action) -> str:
    """The transcript line for an action (the inverse of ``parse_action``)."""
    name = quote(state.players[action.player].name)
    if isinstance(action, Roll):
        return f"{name} roll {' '.join(str(d) for d in action.dice)}".rstrip()
    if type(action) in SIMPLE_VERBS.values():
        return f"{name} {VERB_OF[type(action)]}"
    square = getattr(action, "square", None)
    if type(action) in SQUARE_VERBS.values() and isinstance(square, int):
        return f"{name} {VERB_OF[type(action)]} {quote(rules.board.squares[square].name)}"
    if isinstance(action, Bid):
        return f"{name} bid {action.amount}"
    if isinstance(action, UseJailCard):
        return f"{name} use_jail_card {action.deck}".rstrip()
    if isinstance(action, DrawnCard):
        return f"{name} card {action.card}"
    if isinstance(action, BreakDown):
        return f"{name} breakdown {action.group} {','.join(str(v) for v in action.levels)}"
    if isinstance(action, Trade):
        words = [name, "trade", quote(state.players[action.partner].name)]
        if not action.give.empty:
            words += ["give", *format_trade_side(rules, action.give)]
        if not action.get.empty:
            words += ["get", *format_trade_side(rules, action.get)]
        return " ".join(words)
    extra = rules.format_variant_action(state, action)
    if extra is None:
        raise ValueError(f"no transcript form for {action!r}")
    return f"{name} {extra}"


def legal_action_line(rules: Rules, state: GameState, action: Action) -> str:
    """A legal action as a line; a roll placeholder shows the dice wanted (``Ann roll 2d6``)."""
    if isinstance(action, Roll) and not action.dice:
        spec = rules.roll_spec(state)
        sides = spec.sides if spec else (6, 6)
        return f"{quote(state.players[action.player].name)} roll {rules.describe_dice(sides)}"
    return format_action(rules, state, action)


# ------------------------------------------------------------------------------------------
# Position lines
# ------------------------------------------------------------------------------------------
def apply_set(rules: Rules, state: GameState, words: list[str]) -> GameState:  # noqa: C901
    """``set player NAME k=v ...``, ``set square "X" k=v ...``, ``set bank houses=N hotels=N``,
    ``set pot N``, ``set turn player=NAME rolled=false doubles=0``."""
    if len(words) < 2:
        raise ValueError("set what? player, square, bank, pot or turn")
    what = words[1]
    if what == "player":
        if len(words) < 3:
            raise ValueError("set player NAME key=value ...")
        try:
            index = state.player_index(words[2])
        except KeyError as exc:
            raise ValueError(str(exc.args[0])) from None
        player = state.players[index]
        for key, value in split_pairs(words[3:]):
            if key == "cash":
                player = replace(player, cash=parse_int(value, key))
            elif key == "position":
                try:
                    pos = square_index(rules, value)
                except ValueError:
                    raise ValueError(f"position takes 0-39 or a square name, not {value!r}") from None
                player = replace(player, position=pos)
            elif key == "in_jail":
                jailed = parse_bool(value, key)
                player = replace(player, in_jail=jailed,
                                 position=rules.board.jail if jailed else player.position)
            elif key == "jail_turns":
                player = replace(player, jail_turns=parse_int(value, key))
            elif key in ("jail_cards", "get_out_of_jail_cards"):
                decks = tuple(d for d in value.split(",") if d)
                if any(d not in DECKS for d in decks):
                    raise ValueError("jail_cards takes chance and/or community_chest, comma-separated")
                player = replace(player, jail_cards=decks)
                for deck in decks:  # a held card is out of its deck
                    card_id = next(c.id for c in load_deck(deck) if c.effect == "jail_free")
                    order = tuple(c for c in state.deck(deck) if c != card_id)
                    state = (replace(state, chance=order) if deck == "chance"
                             else replace(state, community_chest=order))
            elif key == "bankrupt":
                player = replace(player, bankrupt=parse_bool(value, key))
            else:
                try:
                    player = rules.set_player_field(player, key, value)
                except ValueError as exc:
                    raise _unknown_field(exc, "player", key,
                                         PLAYER_FIELDS + rules.player_fields) from None
        players = list(state.players)
        players[index] = player
        for m in state.members(index):  # team play: the pool shows in every member's cash
            if m != index:
                players[m] = replace(players[m], cash=player.cash)
        state = replace(state, players=tuple(players))
    elif what == "square":
        if len(words) < 3:
            raise ValueError('set square "NAME" key=value ...')
        index = square_index(rules, words[2])
        if not rules.board.squares[index].ownable:
            extra_pairs = split_pairs(words[3:])
            for key, value in extra_pairs:
                try:
                    state = rules.set_square_field(state, index, key, value)
                except ValueError as exc:
                    raise _unknown_field(exc, "square", key, rules.square_fields,
                                         f"{rules.board.squares[index].name} is not a lot, so "
                                         "it takes") from None
            return state
        sq = state.squares[index]
        for key, value in split_pairs(words[3:]):
            if key == "owner":
                if value.lower() in ("none", "bank", ""):
                    sq = replace(sq, owner=None)
                else:
                    try:
                        sq = replace(sq, owner=state.side(state.player_index(value)))
                    except KeyError as exc:
                        raise ValueError(str(exc.args[0])) from None
            elif key == "houses":
                n = parse_int(value, key)
                if not 0 <= n <= state.options.max_houses:
                    raise ValueError(f"houses takes 0 to {state.options.max_houses}")
                if n and not rules.board.squares[index].is_street:
                    raise ValueError("only streets take houses")
                sq = replace(sq, houses=n)
            elif key == "hotel":
                sq = replace(sq, hotel=parse_bool(value, key), houses=0 if parse_bool(value, key) else sq.houses)
            elif key == "mortgaged":
                sq = replace(sq, mortgaged=parse_bool(value, key))
            else:
                squares = list(state.squares)
                squares[index] = sq
                state = replace(state, squares=tuple(squares))
                try:
                    state = rules.set_square_field(state, index, key, value)
                except ValueError as exc:
                    raise _unknown_field(exc, "square", key,
                                         SQUARE_FIELDS + rules.square_fields) from None
                sq = state.squares[index]
        if (sq.level or sq.mortgaged) and sq.owner is None:
            raise ValueError("an unowned lot cannot have buildings or a mortgage: set owner= first")
        if sq.level and sq.mortgaged:
            raise ValueError("a lot with buildings cannot be mortgaged")
        squares = list(state.squares)
        squares[index] = sq
        state = replace(state, squares=tuple(squares))
    elif what == "bank":
        for key, value in split_pairs(words[2:]):
            if key == "houses":
                state = replace(state, bank_houses=parse_int(value, key))
            elif key == "hotels":
                state = replace(state, bank_hotels=parse_int(value, key))
            else:
                raise ValueError("set bank takes houses=N and/or hotels=N")
        return state
    elif what == "pot":
        if len(words) != 3:
            raise ValueError("set pot N")
        state = replace(state, pot=parse_int(words[2], "pot"))
    elif what == "turn":
        for key, value in split_pairs(words[2:]):
            if key == "player":
                try:
                    state = replace(state, current=state.player_index(value))
                except KeyError as exc:
                    raise ValueError(str(exc.args[0])) from None
            elif key == "rolled":
                state = replace(state, rolled=parse_bool(value, key))
            elif key == "doubles":
                state = replace(state, doubles=parse_int(value, key))
            elif key == "roll_again":
                state = replace(state, roll_again=parse_bool(value, key))
            elif key == "number":
                state = replace(state, turn_number=parse_int(value, key))
            else:
                raise ValueError("set turn takes player=, rolled=, doubles=, roll_again=, number=")
    else:
        raise ValueError(f"cannot set {what!r}: use player, square, bank, pot or turn")
    return rebalance(state)


PLAYER_FIELDS = ("cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt")
SQUARE_FIELDS = ("owner", "houses", "hotel", "mortgaged")


def _unknown_field(exc: ValueError, what: str, key: str, valid: Sequence[str],
                   lead: str = "the fields are") -> ValueError:
    """A variant's refusal of a ``set`` field: an unknown field gets the list of valid ones
    (standard and the variant's); any other problem with the value is passed on as it is."""
    message = str(exc.args[0] if exc.args else exc)
    if not message.startswith(f"unknown {what} field"):
        return ValueError(message)
    names = ", ".join(valid) if valid else "no fields"
    return ValueError(f"unknown {what} field {key!r}; {lead} {names}")


def rebalance(state: GameState) -> GameState:
    """After position lines: the bank's building stock follows the board (unless set), and the
    money ledger restarts from the cash now in play."""
    houses = sum(s.houses for s in state.squares if not s.hotel)
    hotels = sum(1 for s in state.squares if s.hotel)
    bank_houses = state.options.bank_houses - houses
    bank_hotels = state.options.bank_hotels - hotels
    if bank_houses < 0 or bank_hotels < 0:
        raise ValueError(f"the board now holds {houses} houses and {hotels} hotels, more than the "
                         f"bank's {state.options.bank_houses} and {state.options.bank_hotels}")
    total = state.money_in_hand + state.pot
    return replace(state, bank_houses=bank_houses, bank_hotels=bank_hotels, bank_net=total)


# ------------------------------------------------------------------------------------------
# JSON view
# ------------------------------------------------------------------------------------------
def creditor_name(state: GameState, who: int | None) -> str | None:
    if who is None:
        return None
    if who == BANK:
        return "bank"
    if who == POT:
        return "pot"
    return state.players[who].name


def event_json(rules: Rules, state: GameState, event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": event.kind, "text": rules.describe(state, event)}
    if event.player is not None:
        out["player"] = creditor_name(state, event.player)
    if event.amount:
        out["amount"] = event.amount
    if event.square is not None:
        out["square"] = rules.board.squares[event.square].name
    if event.other is not None:
        out["other"] = creditor_name(state, event.other)
    if event.detail:
        out["detail"] = event.detail
    return out


def state_json(rules: Rules, state: GameState, events: Sequence[Event] = ()) -> dict[str, Any]:
    """The state as the JSON ``companion script --json`` prints (docs/transcript.md)."""
    board = rules.board
    players = []
    for i, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "name": p.name,
            "cash": p.cash,
            "position": p.position,
            "in_jail": p.in_jail,
            "bankrupt": p.bankrupt,
            "properties": [board.squares[j].name for j, s in enumerate(state.squares)
                           if s.owner == state.side(i)],
            "get_out_of_jail_cards": list(p.jail_cards),
        }
        if state.sides:  # team play: cash is the team's pool, properties the team's lots
            entry["team"] = rules.side_name(state, i)
        entry.update(rules.player_json(state, i))
        players.append(entry)
    squares: dict[str, Any] = {}
    for j, s in enumerate(state.squares):
        sq = board.squares[j]
        extra = rules.square_json(state, j)
        if not sq.ownable and not extra:
            continue
        entry = {}
        if sq.ownable:
            entry = {"owner": None if s.owner is None else rules.side_name(state, s.owner),
                     "houses": s.houses, "hotel": s.hotel, "mortgaged": s.mortgaged}
        entry.update(extra)
        squares[sq.name if sq.ownable else f"{sq.name} ({j})"] = entry
    out: dict[str, Any] = {
        "variant": state.variant,
        "current_player": state.players[state.current].name,
        "turn": state.turn_number,
        "pot": state.pot,
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "players": players,
        "squares": squares,
        "waiting_for": None if state.outcome else rules.waiting_for(state),
        "legal_actions": [legal_action_line(rules, state, a) for a in rules.legal_actions(state)],
        "events": [event_json(rules, state, e) for e in events],
    }
    if state.outcome is not None:
        out["outcome"] = {"winner": state.outcome.winner, "reason": state.outcome.reason,
                          "standings": [{"name": n, "net_worth": w}
                                        for n, w in state.outcome.standings]}
    return out
