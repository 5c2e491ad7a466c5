"""Events told as sentences for the log and the kiosk. A treasure's value is told when it is
found (everyone sees it) but not when it is drawn from a defender's hand (ruling C-17)."""

from __future__ import annotations

from collections.abc import Callable

from companion.core.events import Event
from companion.games.dungeon_crawl.pieces import KIND_OF_SUIT, value_label
from companion.games.dungeon_crawl.state import CrawlState


def _name(state: CrawlState, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(state.players):
        return "nobody"
    return state.players[seat].name


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


_XP = {"trap_xp": "trap experience", "monster_xp": "monster experience", "equipment": "equipment"}

SENTENCES: dict[str, Callable[[str, str, Event], str]] = {
    "first_builder": lambda who, other, e: f"{who} builds first.",
    "tile_laid": lambda who, other, e: (
        f"{who} lays the {e.detail.split()[0]} {value_label(e.amount)} tile at "
        f"{e.detail.split()[1]}."),
    "pawns_stood": lambda who, other, e: f"{who} stands the pawns: {e.detail}.",
    "coin_placed": lambda who, other, e: (
        f"{who} places {_a(value_label(e.amount))} coin at {e.detail}."),
    "pawn_placed": lambda who, other, e: f"{who} places {other}'s pawn at {e.detail}.",
    "moved": lambda who, other, e: f"{who} moves to {e.detail}.",
    "reentered": lambda who, other, e: f"{who} re-enters the dungeon at {e.detail}.",
    "waited": lambda who, other, e: f"{who} waits outside the dungeon.",
    "stuck": lambda who, other, e: f"{who} cannot move and passes.",
    "no_attack": lambda who, other, e: f"{who} does not attack.",
    "revealed": lambda who, other, e: (
        f"{who} turns over the coin: {KIND_OF_SUIT[e.detail]} ({e.detail}, "
        f"{value_label(e.amount)})."),
    "treasure": lambda who, other, e: f"{who} finds a treasure worth {e.amount}.",
    "equipment": lambda who, other, e: f"{who} finds a point of equipment.",
    "spent": lambda who, other, e: f"{who} spends {e.amount} {_XP.get(e.detail, e.detail)}.",
    "rolled": lambda who, other, e: f"{who} rolls {value_label(e.amount)} ({e.detail}).",
    "beaten": lambda who, other, e: (
        f"{who} {'disarms the trap' if e.detail == 'suns' else 'defeats the monster'} "
        "and gains a point of experience."),
    "injured": lambda who, other, e: (
        f"{who} is hurt by the {KIND_OF_SUIT[e.detail]}: {_plural(e.amount, 'point')} "
        "of damage."),
    "soaked": lambda who, other, e: f"{who} applies {e.amount} equipment to the damage.",
    "died": lambda who, other, e: (
        f"{who} dies with {e.amount} damage; what they carried stays at {e.detail}."),
    "stack_taken": lambda who, other, e: (
        f"{who} picks up the stack at {e.detail.split()[0]}: {_plural(e.amount, 'treasure')} "
        f"and {e.detail.split()[1]} equipment."),
    "attack": lambda who, other, e: f"{who} attacks {other}.",
    "attack_failed": lambda who, other, e: f"{who}'s attack on {other} fails.",
    "attack_won": lambda who, other, e: f"{who}'s attack on {other} succeeds.",
    "no_spoils": lambda who, other, e: f"{other} has nothing to take.",
    "took_equipment": lambda who, other, e: f"{who} takes a point of equipment from {other}.",
    "took_treasure": lambda who, other, e: f"{who} draws a treasure from {other}'s holdings.",
    "game_over": lambda who, other, e: (
        f"The sixth treasure is found: {who} wins with {e.amount}." if e.detail != "shared"
        else f"The sixth treasure is found: the win is shared at {e.amount}."),
}


def describe(state: CrawlState, event: Event) -> str:
    tell = SENTENCES.get(event.kind)
    who, other = _name(state, event.player), _name(state, event.other)
    if tell is None:
        return f"{who}: {event.kind} {event.detail}".strip() + "."
    return tell(who, other, event)
