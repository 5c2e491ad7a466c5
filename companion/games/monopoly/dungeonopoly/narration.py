"""Dungeonopoly events in plain words, for the kiosk log and the turn-by-turn account.

``describe_event(layer, state, event)`` gives one short sentence for every event kind the
Dungeonopoly layer and its classes emit, or None for the standard Monopoly events that
Monopoly's ``narration.describe`` already tells well. One table (``_TELLERS``) maps each kind to a
small function; a few standard kinds (``moved``, ``pot``, ``speeding`` ...) are told here only
when Dungeonopoly gave them a detail of its own (a Misty Escape, Divine Power's pot ...).

What ``amount``, ``detail``, ``other`` and ``square`` mean for each kind follows the emit sites
in ``layer.py``, ``reactions.py``, ``genesis.py``, ``advanced.py`` and ``classes/``. Sentences
are in the present tense and name people by their seat's name (team play included).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.events import Event
from companion.games.monopoly.cards import card_by_id
from companion.games.monopoly.dungeonopoly.abilities import find_ability
from companion.games.monopoly.dungeonopoly.names import title_of
from companion.games.monopoly.state import BANK, POT, GameState

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly


@dataclass(frozen=True, slots=True)
class _Scene:
    """What a teller needs to put names on seats, squares, cards and abilities."""

    layer: Dungeonopoly
    state: GameState

    def who(self, seat: int | None, default: str = "someone") -> str:
        if seat == BANK:
            return "the bank"
        if seat == POT:
            return "the pot"
        if seat is None or not 0 <= seat < len(self.state.players):
            return default
        return self.state.players[seat].name

    def whose(self, seat: int | None) -> str:
        name = self.who(seat)
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    def sq(self, index: int | None) -> str:
        squares = self.layer.board.squares
        if index is None or not 0 <= index < len(squares):
            return "a square"
        return squares[index].name

    def gap(self, after: int | None) -> str:
        """A demiplane's place: between square ``after`` and the next one."""
        if after is None:
            return "somewhere on the board"
        size = len(self.layer.board.squares)
        return f"between {self.sq(after)} and {self.sq((after + 1) % size)}"


def _card(detail: str) -> str:
    """``deck:card_id`` -> ``Chance: the card's text`` (or plain words if it is unknown)."""
    deck, _, card_id = detail.partition(":")
    deck_name = title_of(deck) if deck else "a"
    try:
        text = card_by_id(deck, card_id).text
    except KeyError:
        text = card_id.replace("_", " ")
    return f"{deck_name}: {text}"


def _deck(detail: str) -> str:
    deck = detail.partition(":")[0]
    return title_of(deck) if deck else "the"


def _words(text: str) -> str:
    """A reason or source string from the engine in plain words (no snake_case): the layer's
    ``damage (magic missile)`` reads ``magic missile damage``."""
    text = text.replace("_", " ").strip()
    if text.startswith("damage (") and text.endswith(")"):
        return f"{text[len('damage ('):-1]} damage"
    return text


def _steps(n: int) -> str:
    way = "forward" if n >= 0 else "back"
    k = abs(n)
    return f"{k} square{'' if k == 1 else 's'} {way}"


def _money(n: int) -> str:
    return f"${n}"


# ============================================================================================
# EP, levels, checks, abilities
# ============================================================================================
_EP_REASONS = {"bought": "buying", "rent": "paying rent", "doubles": "doubles",
               "lucky_seven": "a lucky seven", "go": "GO money"}


def _ep(s: _Scene, e: Event) -> str:
    counts: dict[str, int] = {}
    for why in e.detail.split(","):
        if why:
            counts[why] = counts.get(why, 0) + 1
    parts = [(_EP_REASONS.get(w) or title_of(w)) + (f" x{n}" if n > 1 else "")
             for w, n in counts.items()]
    return f"{s.who(e.player)} gains {e.amount} EP" + (f" ({', '.join(parts)})" if parts else "")


def _level_up(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} reaches level {e.amount}"


def _verb(name: str) -> str:
    ab = find_ability(name)
    if ab is None:
        return "uses"
    if ab.is_spell:
        return "casts"
    if "power" in ab.flags:
        return "manifests"
    if ab.kind == "skill":
        return "tries"
    return "uses"


def _ability(s: _Scene, e: Event) -> str:
    on = f" on {s.who(e.other)}" if e.other is not None and e.other != e.player and \
        0 <= e.other < len(s.state.players) else ""
    return f"{s.who(e.player)} {_verb(e.detail)} {title_of(e.detail)}{on}"


def _ability_success(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} {title_of(e.detail)} succeeds"


def _check(s: _Scene, e: Event) -> str:
    ability, _, result = e.detail.rpartition(":")
    verdict = "success" if result == "pass" else "failure"
    what = f" for {title_of(ability)}" if ability else ""
    return f"{s.who(e.player)} rolls {e.amount} on the d20{what}: {verdict}"


def _trained(s: _Scene, e: Event) -> str:
    points = f"{e.amount} skill point{'' if e.amount == 1 else 's'}"
    return f"{s.who(e.player)} puts {points} into {title_of(e.detail)}"


_CHOICES = {  # levelling choices: kind -> sentence ({who}, {name})
    "melody": "{who} learns the melody {name}",
    "stance": "{who} masters the stance {name}",
    "primal": "{who} learns the primal spell {name}",
    "form": "{who} masters the {name} form",
    "pact": "{who} makes the {name} pact",
    "eldritch_blast": "{who} adds {name} to Eldritch Blast",
}


def _chose(s: _Scene, e: Event) -> str:
    kind, _, option = e.detail.partition(":")
    who = s.who(e.player)
    if kind in ("borrow", "borrow_part", "book"):  # Jack-of-All-Trades, Book of Shadows
        cls, _, name = option.partition(":")
        return f"{who} borrows the {cls}'s {title_of(name)}"
    form = _CHOICES.get(kind, "{who} chooses {name} (" + _words(kind) + ")")
    return form.format(who=who, name=title_of(option))


def _refreshed(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} used-up abilities are ready again (GO)"


def _window(s: _Scene, e: Event) -> str:
    spell, _, against = e.detail.partition(":")
    if spell == "counterspell":
        return (f"Waiting for reactions: Counterspell against {s.whose(e.other)} "
                f"{title_of(against)}")
    if spell == "divine_intervention":
        return f"Waiting for reactions: Divine Intervention may reroll {s.whose(e.other)} dice"
    return f"Waiting for reactions: {title_of(spell)}"


def _passed(s: _Scene, e: Event) -> str:
    who = s.who(e.player)
    if not e.detail:
        return f"{who} lets it pass"
    if e.detail == "counter":
        return f"{who} does not counter"
    return f"{who} does not answer with {title_of(e.detail)}"


# ============================================================================================
# Damage and protection
# ============================================================================================
def _damaged(s: _Scene, e: Event) -> str:
    source = title_of(e.detail) if e.detail else "an attack"
    by = f"{s.whose(e.other)} " if e.other is not None and 0 <= e.other < len(s.state.players) \
        and e.other != e.player else ""
    hurt = f"{_money(e.amount)} damage" if e.amount else "no damage"  # all soaked up first
    return f"{s.who(e.player)} takes {hurt} from {by}{source}"


def _protected(s: _Scene, e: Event) -> str:
    why = title_of(e.detail) if e.detail else "a protection"
    return f"{s.who(e.player)} is safe from {s.whose(e.other)} damage ({why})"


def _absorbed(s: _Scene, e: Event) -> str:
    shield, _, spell = e.detail.partition(":")
    if spell:
        return (f"{s.whose(e.player)} {title_of(shield)} stops {s.whose(e.other)} "
                f"{title_of(spell)}")
    return f"{s.whose(e.player)} {title_of(shield)} absorbs the damage"


def _missed(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} {title_of(e.detail)} misses {s.who(e.other)}"


def _reservoir(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} Heart of the Titan soaks up {_money(e.amount)} of the damage"


def _reservoir_refilled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} Heart of the Titan is full again ({_money(e.amount)})"


def _ward_roll(s: _Scene, e: Event) -> str:
    what, _, name = e.detail.partition(":")
    thing = f"{s.whose(e.other)} {title_of(name)}" if name else "it"
    return f"{s.who(e.player)} rolls a d6 for Entropic Ward against {thing} (a 1 wards it off)"


def _warded(s: _Scene, e: Event) -> str:
    what = e.detail.partition(":")[2]
    thing = "enchantment" if what == "enchant" else "damage"
    return f"{s.whose(e.player)} Entropic Ward turns aside {s.whose(e.other)} {thing}"


# ============================================================================================
# Enchantments on characters and squares
# ============================================================================================
_ENCHANT_EFFECT = {
    "mage_armor": "the next damage is absorbed",
    "shield_of_faith": "the next damage or hostile spell fails",
    "sanctuary": "untouchable until the next turn",
    "slow": "one die fewer on the next move",
    "invisibility": "hidden until the next turn",
    "hex": "the next money collected goes to the pot",
    "barkskin": "the next sum owed is smaller",
    "glitterdust": "the next attempt to hide fizzles",
    "ego_whip": "the next movement roll is lost",
    "id_insinuation": "the next movement roll goes backwards",
    "modify_memory": "a lot is forgotten",
}


def _enchanted(s: _Scene, e: Event) -> str:
    name = title_of(e.detail)
    hint = _ENCHANT_EFFECT.get(e.detail)
    tail = f": {hint}" if hint else ""
    if e.other is None or e.other == e.player or not 0 <= e.other < len(s.state.players):
        return f"{s.who(e.player)} is under {name}{tail}"
    if e.detail == "charm_person":
        return (f"{s.who(e.player)} is charmed by {s.who(e.other)}: the next rent "
                f"{s.who(e.other)} owes {s.who(e.player)} is waived")
    return f"{s.who(e.player)} is under {s.whose(e.other)} {name}{tail}"


def _dispelled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} {title_of(e.detail)} is dispelled"


_SQUARE_EFFECT = {
    "glyph_of_warding": "the next one to pass it stops there and takes damage",
    "entangle": "passing it costs two extra squares",
    "obscuring_mist": "anyone standing there is hidden",
    "hallow": "nobody standing there takes damage",
    "insect_plague": "nobody standing there can use abilities",
    "wall_of_thorns": "anyone passing stops there or takes damage",
    "antimagic_field": "no enchantments or spells there",
}


def _square_enchanted(s: _Scene, e: Event) -> str:
    who, name = s.who(e.player), e.detail
    if name == "bless":
        return f"{who} blesses {s.sq(e.square)}: rent there +{5 * e.amount}%"
    if name == "curse":
        return f"{who} curses {s.sq(e.square)}: rent there -{5 * e.amount}%"
    if name == "genesis":
        return f"{who} shapes a demiplane {s.gap(e.square)}"
    hint = _SQUARE_EFFECT.get(name)
    return f"{who} puts {title_of(name)} on {s.sq(e.square)}" + (f": {hint}" if hint else "")


def _square_dispelled(s: _Scene, e: Event) -> str:
    name = e.detail
    if e.player is not None and 0 <= e.player < len(s.state.players):
        # a druid's primal spell moving on: it leaves the square it was on
        return f"{s.whose(e.player)} {title_of(name)} leaves {s.sq(e.square)}"
    if name == "genesis":
        return f"The demiplane {s.gap(e.square)} is dispelled"
    return f"The {title_of(name)} on {s.sq(e.square)} is lifted"


def _suppressed(s: _Scene, e: Event) -> str:
    name = title_of(e.detail.partition(":")[2] or e.detail)
    if e.square is not None:
        return f"The Antimagic Field on {s.sq(e.square)} keeps {name} out"
    return f"The Antimagic Field keeps {name} off {s.who(e.player)}"


def _leeched(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.player)} draws {title_of(e.detail)} off {s.who(e.other)} "
            "(Thought Leech)")


def _hiding_fizzled(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} tries to hide, but the {title_of(e.detail)} still sparkles"


def _revealed(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.other)} Glitterdust reveals {s.who(e.player)} on {s.sq(e.square)}"


def _beguiled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} Beguiling Defenses hex {s.who(e.other)} in return"


# ============================================================================================
# Money
# ============================================================================================
def _fee_waived(s: _Scene, e: Event) -> str:
    if e.detail == "divine_grace":  # a paladin's blessing: any sum owed, no square
        return f"{s.who(e.player)} owes nothing: {_money(e.amount)} waived (Divine Grace)"
    return f"{s.who(e.player)} pays no {s.sq(e.square)} ({title_of(e.detail)})"


def _rent_waived(s: _Scene, e: Event) -> str:
    who, lot, amount = s.who(e.player), s.sq(e.square), _money(e.amount)
    if e.detail == "intimidate":
        return f"{who} stares down {s.who(e.other)}: no {amount} rent on {lot} (Intimidate)"
    if e.detail == "charm_person":
        return f"{s.who(e.other)} is charmed and waives {s.whose(e.player)} {amount} rent on {lot}"
    return f"{who} pays no rent on {lot}: {amount} waived ({title_of(e.detail)})"


def _fee_halved(s: _Scene, e: Event) -> str:
    return (f"Fiendish Resilience halves {s.whose(e.player)} {_words(e.detail)} "
            f"(saves {_money(e.amount)})")


def _barkskin(s: _Scene, e: Event) -> str:
    return (f"Barkskin takes {_money(e.amount)} off what {s.who(e.player)} owes "
            f"({_words(e.detail)})")


def _owed_less(s: _Scene, e: Event) -> str:
    return (f"Empty Mind: {s.who(e.player)} owes {s.who(e.other)} {_money(e.amount)} less "
            f"({_words(e.detail)})")


def _hexed_income(s: _Scene, e: Event) -> str:
    if e.detail == "the pot":  # collecting the pot under a Hex: the money stays where it is
        return (f"{s.who(e.player)} cannot take the pot's {_money(e.amount)}: it stays in the "
                "pot and the hex is spent")
    return (f"{s.whose(e.player)} {_money(e.amount)} ({_words(e.detail)}) goes to the pot "
            "instead: the hex is spent")


def _pp_spent(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} spends {e.amount} PP on {title_of(e.detail)}"


def _pp_refilled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} PP are full again ({e.amount})"


def _stole(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} steals {_money(e.amount)} from {s.who(e.other)} at {s.sq(e.square)}"


def _go_forfeit(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} {title_of(e.detail)} fails: no GO money, and off to jail"


def _repairs(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.player)} pays {_money(e.amount)} for buildings gnawed by "
            f"{title_of(e.detail)}")


def _pot(s: _Scene, e: Event) -> str | None:
    if e.detail != "divine_power":
        return None
    return f"{s.who(e.player)} scoops up the pot in passing: {_money(e.amount)} (Divine Power)"


# ============================================================================================
# Cards, GO, jail
# ============================================================================================
def _card_offered(s: _Scene, e: Event) -> str:
    # the card is not drawn yet: only if she accepts does the engine tell "draws"
    return (f"{s.who(e.player)} turns up {_card(e.detail)} (Divine Favor: play it or leave it)")


def _card_refused(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} leaves the {_deck(e.detail)} card unplayed"


def _divine_power(s: _Scene, e: Event) -> str:
    if e.detail:
        return (f"{s.who(e.player)} passes the demiplane {s.gap(e.square)} and draws its card "
                "(Divine Power)")
    return f"{s.who(e.player)} draws a card while passing {s.sq(e.square)} (Divine Power)"


def _jail_immune(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} cannot be sent to jail ({title_of(e.detail)})"


def _left_jail(s: _Scene, e: Event) -> str | None:
    if e.detail != "open_locks":
        return None
    if e.other is not None and e.other >= 0 and e.other != e.player:
        return (f"{s.who(e.other)} picks the lock of {s.whose(e.player)} cell and "
                f"{s.who(e.player)} walks out of jail (Open Locks)")
    return f"{s.who(e.player)} picks the lock and walks out of jail (Open Locks)"


# ============================================================================================
# Dice and movement
# ============================================================================================
def _lucky_seven(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} rolls a lucky seven"


def _slow_used(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} is slowed: only one die counts, and the Slow wears off"


def _speeding(s: _Scene, e: Event) -> str | None:
    if not e.detail.startswith("ascended"):
        return None
    return f"{s.who(e.player)} rolls a third doubles but is Ascended: moves, no more rolls"


def _movement_forfeit(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} gives up this turn's move for {title_of(e.detail)}"


def _reroll(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.player)} calls on Divine Intervention: {s.whose(e.other)} roll of "
            f"{e.detail} is discarded and rolled again")


def _kept_dice(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} keeps {e.detail}"


def _luck_rolled(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} rolls {e.detail} with Dark One's Own Luck and picks the dice to keep"


def _dazed(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} is dazed by Ego Whip: the roll of {e.detail} is lost"


def _confused(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.player)} is confused by Id Insinuation: moves "
            f"{_steps(-e.amount)} instead")


def _moved(s: _Scene, e: Event) -> str | None:
    who = s.who(e.player)
    if e.detail == "misty escape":
        return f"{who} vanishes in a Misty Escape and reappears on {s.sq(e.square)}"
    if e.detail == "psychic crush":
        return f"{who} is crushed back to GO (Psychic Crush): no GO money"
    if e.detail == "onto a demiplane":
        return f"{who} steps onto the demiplane {s.gap(e.square)}"
    if e.detail.endswith("(tree stride)"):
        return f"{who} strides through the trees to {s.sq(e.square)}"
    return None


def _unmoved(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} stands firm and does not move (Bulwark of Defense)"


def _glyph(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.other)} Glyph of Warding stops {s.who(e.player)} on {s.sq(e.square)}"


def _entangled(s: _Scene, e: Event) -> str:
    lost = f"{e.amount} square{'' if e.amount == 1 else 's'}"
    return f"{s.who(e.player)} is caught in the Entangle on {s.sq(e.square)}: {lost} lost"


def _thorns(s: _Scene, e: Event) -> str:
    if e.detail == "stop":
        return f"{s.who(e.player)} stops at the Wall of Thorns on {s.sq(e.square)}"
    return f"{s.who(e.player)} pushes through the Wall of Thorns on {s.sq(e.square)}"


def _bulwark(s: _Scene, e: Event) -> str:
    return (f"{s.whose(e.other)} Bulwark of Defense costs {s.who(e.player)} an extra step at "
            f"{s.sq(e.square)}")


def _attack_of_opportunity(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} strikes {s.who(e.other)} passing by (Thicket of Blades)"


def _holy_aura(s: _Scene, e: Event) -> str:
    return f"{s.who(e.other)} starts the turn within {s.whose(e.player)} Holy Aura"


def _towed(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} follows along, {_steps(e.amount)}"


def _fascinated(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} is drawn to {s.whose(e.other)} square (Fascinate)"


def _suggested(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} will follow {s.whose(e.other)} moves this turn (Suggestion)"


def _repelled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.other)} Repelling Blast pushes {s.who(e.player)} {_steps(e.amount)}"


def _blasted(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.other)} Psionic Blast throws {s.who(e.player)} {_steps(e.amount)}"


def _turn_cut_short(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} turn ends at once ({title_of(e.detail)})"


# ============================================================================================
# Class abilities with their own results
# ============================================================================================
def _immune(s: _Scene, e: Event) -> str:
    return f"{s.sq(e.square)} is blessed: its buildings are spared"


def _razed(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} knocks a house off {s.whose(e.other)} {s.sq(e.square)} (Raze)"


def _fortified(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} fortifies {s.sq(e.square)} with a free house"


def _conquered(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} conquers {s.sq(e.square)} from {s.who(e.other)}"


def _countered(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} counters {s.whose(e.other)} {title_of(e.detail)}"


def _burned(s: _Scene, e: Event) -> str:
    what = "the hotel" if e.amount >= 5 else \
        f"{e.amount} house{'' if e.amount == 1 else 's'}"
    return f"Fireball burns {what} on {s.whose(e.other)} {s.sq(e.square)}"


def _unmortgaged(s: _Scene, e: Event) -> str | None:
    if e.detail != "wish":
        return None
    return f"{s.who(e.player)} wishes the mortgage on {s.sq(e.square)} away"


def _wished_lot(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} wishes for {s.sq(e.square)} and owns it now"


def _wished_hotel(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} wishes a hotel onto {s.sq(e.square)}"


def _wish(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} Wish works as {title_of(e.detail)}"


def _melody(s: _Scene, e: Event) -> str:
    effect = _MELODY_EFFECT.get(e.detail)
    payer = "while owing" if e.other == e.player else f"as {s.who(e.other)} owes"
    return (f"{s.who(e.player)} plays {title_of(e.detail)} {payer} rent on {s.sq(e.square)}"
            + (f" ({effect})" if effect else ""))


_MELODY_EFFECT = {
    "dirge_of_doom": "the rent is doubled",
    "inspire_courage": "the bank pays half",
    "cutting_words": "the landlord takes damage",
    "song_of_freedom": "then off to Free Parking",
    "inspire_greatness": "then 2d6 forward",
    "frightening_tune": "then 1d6 back",
    "song_of_rest": "then a rest",
}


def _song_of_rest(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} rests (Song of Rest): used-up abilities are ready again"


def _ante(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} stakes {s.sq(e.square)} in the duel with {s.who(e.other)}"


def _auction_won(s: _Scene, e: Event) -> str | None:
    if e.detail != "challenge":
        return None
    return (f"{s.who(e.player)} wins the duel's bidding at {_money(e.amount)} and takes "
            f"{s.sq(e.square)}")


def _duel_won(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} wins the duel against {s.who(e.other)} and keeps {s.sq(e.square)}"


def _duel_unsold(s: _Scene, e: Event) -> str:
    return "Nobody bids in the duel: both stakes stay with their owners"


def _challenge_wasted(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} Challenge is wasted: {s.who(e.other)} has no lot to stake"


def _mounted(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} summons the Celestial Mount and rides"


def _dismounted(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} dismounts and dismisses the Celestial Mount"


def _stance(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} takes up {title_of(e.detail)}: the turn ends here"


def _divine_grace(s: _Scene, e: Event) -> str:
    return f"Divine Grace: no damage, fees or rent for {s.who(e.player)} this turn"


def _fizzled(s: _Scene, e: Event) -> str:
    return f"{s.whose(e.player)} {title_of(e.detail)} fizzles on {s.who(e.other)}"


def _crowned(s: _Scene, e: Event) -> str:
    return (f"{s.whose(e.other)} Crown of Madness makes {s.who(e.player)} use "
            f"{title_of(e.detail)}")


def _shifted(s: _Scene, e: Event) -> str:
    if e.detail == "humanoid":
        return f"{s.who(e.player)} shifts back to humanoid form"
    return f"{s.who(e.player)} shifts into {title_of(e.detail)} form"


def _bolt(s: _Scene, e: Event) -> str:
    lot = s.sq(e.square)
    if e.detail == "damage":
        return f"Lightning strikes {s.who(e.other)} on {lot}"
    if e.detail == "house":
        return f"Lightning knocks a building off {s.whose(e.other)} {lot}"
    return f"Lightning mortgages {s.whose(e.other)} {lot}"


def _bolt_wasted(s: _Scene, e: Event) -> str:
    return f"A lightning bolt hits {s.sq(e.square)} but finds nothing to strike"


def _wrath(s: _Scene, e: Event) -> str:
    return f"Wrath of God knocks a building off {s.whose(e.other)} {s.sq(e.square)}"


def _memory_modified(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.other)} forgets {s.sq(e.square)}: {s.who(e.player)} holds it now "
            "(Modify Memory)")


def _recall_due(s: _Scene, e: Event) -> str:
    return (f"{s.who(e.other)} owes rent on {s.sq(e.square)}: {s.who(e.player)} rolls to "
            "remember it")


def _recall(s: _Scene, e: Event) -> str:
    if e.detail == "remembered":
        return f"{s.who(e.player)} rolls {e.amount} and remembers {s.sq(e.square)}"
    return f"{s.who(e.player)} rolls {e.amount} and still cannot remember {s.sq(e.square)}"


def _memory_restored(s: _Scene, e: Event) -> str:
    return f"{s.sq(e.square)} goes back to {s.who(e.player)} from {s.who(e.other)}"


def _fortress(s: _Scene, e: Event) -> str:
    ab = find_ability(e.detail)
    what = f"{s.whose(e.other)} {title_of(e.detail)}"
    if ab is not None and getattr(ab, "affected", None) is not None:
        n = e.amount
        return (f"{s.whose(e.player)} Intellect Fortress shelters {n} "
                f"character{'' if n == 1 else 's'} from {what}")
    return f"{s.whose(e.player)} Intellect Fortress makes {what} miss {s.who(e.amount)}"


def _drafted(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} drafts {s.sq(e.square)}"


# ============================================================================================
# Genesis demiplanes
# ============================================================================================
def _demiplane(s: _Scene, e: Event) -> str:
    deck = e.detail.partition(":")[0]
    maker = s.who(e.player)
    who = f"only for {maker}" if deck == "community_chest" else f"for everyone but {maker}"
    return f"The demiplane {s.gap(e.square)} holds {_card(e.detail)} (it exists {who})"


def _demiplane_collapsed(s: _Scene, e: Event) -> str:
    return (f"{s.whose(e.player)} demiplane {s.gap(e.square)} collapses; its "
            f"{_deck(e.detail)} card goes back to the deck")


def _demiplane_card(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} ends the move on the demiplane and takes its card"


def _fell_out(s: _Scene, e: Event) -> str:
    return f"{s.who(e.player)} falls out of the vanished demiplane onto {s.sq(e.square)}"


_Teller = Callable[[_Scene, Event], "str | None"]

_TELLERS: dict[str, _Teller] = {
    # EP, levels, checks, choices, abilities
    "ep": _ep, "level_up": _level_up, "ability": _ability, "ability_success": _ability_success,
    "check": _check, "trained": _trained, "chose": _chose, "refreshed": _refreshed,
    "window": _window, "passed": _passed,
    # damage and protection
    "damaged": _damaged, "protected": _protected, "absorbed": _absorbed, "missed": _missed,
    "reservoir": _reservoir, "reservoir_refilled": _reservoir_refilled,
    "ward_roll": _ward_roll, "warded": _warded,
    # enchantments
    "enchanted": _enchanted, "dispelled": _dispelled, "square_enchanted": _square_enchanted,
    "square_dispelled": _square_dispelled, "suppressed": _suppressed, "leeched": _leeched,
    "hiding_fizzled": _hiding_fizzled, "revealed": _revealed, "beguiled": _beguiled,
    # money
    "fee_waived": _fee_waived, "rent_waived": _rent_waived, "fee_halved": _fee_halved,
    "barkskin": _barkskin, "owed_less": _owed_less, "hexed_income": _hexed_income,
    "pp_spent": _pp_spent, "pp_refilled": _pp_refilled, "stole": _stole,
    "go_forfeit": _go_forfeit, "repairs": _repairs, "pot": _pot,
    # cards, GO, jail
    "card_offered": _card_offered, "card_refused": _card_refused,
    "divine_power": _divine_power, "jail_immune": _jail_immune, "left_jail": _left_jail,
    # dice and movement
    "lucky_seven": _lucky_seven, "slow_used": _slow_used, "speeding": _speeding,
    "movement_forfeit": _movement_forfeit, "reroll": _reroll, "kept_dice": _kept_dice,
    "luck_rolled": _luck_rolled, "dazed": _dazed, "confused": _confused, "moved": _moved,
    "unmoved": _unmoved, "glyph": _glyph, "entangled": _entangled, "thorns": _thorns,
    "bulwark": _bulwark, "attack_of_opportunity": _attack_of_opportunity,
    "holy_aura": _holy_aura, "towed": _towed, "fascinated": _fascinated,
    "suggested": _suggested, "repelled": _repelled, "blasted": _blasted,
    "turn_cut_short": _turn_cut_short,
    # class abilities' results
    "immune": _immune, "razed": _razed, "fortified": _fortified, "conquered": _conquered,
    "countered": _countered, "burned": _burned, "unmortgaged": _unmortgaged,
    "wished_lot": _wished_lot, "wished_hotel": _wished_hotel, "wish": _wish,
    "melody": _melody, "song_of_rest": _song_of_rest, "ante": _ante,
    "auction_won": _auction_won, "duel_won": _duel_won, "duel_unsold": _duel_unsold,
    "challenge_wasted": _challenge_wasted, "mounted": _mounted, "dismounted": _dismounted,
    "stance": _stance, "divine_grace": _divine_grace, "fizzled": _fizzled,
    "crowned": _crowned, "shifted": _shifted, "bolt": _bolt, "bolt_wasted": _bolt_wasted,
    "wrath": _wrath, "memory_modified": _memory_modified, "recall_due": _recall_due,
    "recall": _recall, "memory_restored": _memory_restored, "fortress": _fortress,
    "drafted": _drafted,
    # Genesis
    "demiplane": _demiplane, "demiplane_collapsed": _demiplane_collapsed,
    "demiplane_card": _demiplane_card, "fell_out": _fell_out,
}

# standard Monopoly kinds told here only for some Dungeonopoly details (None otherwise)
ENGINE_KINDS = frozenset({"moved", "pot", "speeding", "left_jail", "unmortgaged",
                          "auction_won"})
KINDS = frozenset(_TELLERS)


def describe_event(layer: Dungeonopoly, state: GameState, event: Event) -> str | None:
    """One sentence for a Dungeonopoly event; None for what Monopoly's ``narration.describe`` tells."""
    tell = _TELLERS.get(event.kind)
    if tell is None:
        return None
    return tell(_Scene(layer, state), event)
