"""MonopoZombie's events in plain words (the standard Monopoly events are told by
``companion/games/monopoly/narration.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.events import Event
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.monopozombie.layer import MonopoZombie

HOW = {
    "double_one": "rolling double-one",
    "third_doubles": "a third doubles",
    "jail": "being sent to jail",
    "infection_ground": "landing on a bare zombie lot",
    "outnumbered": "being outnumbered by zombies",
}
STAGE_WORDS = {
    "outbreak": "The outbreak begins: zombies walk 2d4 either way.",
    "apocalypse": "The apocalypse begins: money is gone; humans roll 3d6 and keep two.",
}


def describe(rules: MonopoZombie, state: GameState, e: Event) -> str | None:
    who = state.players[e.player].name if e.player is not None and e.player >= 0 else "someone"
    square = rules.board.squares[e.square].name if e.square is not None and e.square >= 0 else ""
    kind = e.kind
    if kind == "zombified":
        return f"{who} becomes a zombie on {square} by {HOW.get(e.detail, e.detail)}."
    if kind == "immune":
        return f"{who} is still on the first lap and cannot become a zombie yet."
    if kind == "immunity_used":
        return f"{who} uses the Get Out of Jail Free card as immunity and stays human."
    if kind == "immunity_asked":
        return f"{who} holds an immunity card: use it, or keep it and become a zombie?"
    if kind == "immunity_kept":
        return f"{who} keeps the immunity card."
    if kind == "reroll":
        return f"{who} rolled {e.detail}: every 5 or 6 is rolled again ({e.amount})."
    if kind == "no_card":
        return f"{who} draws no card: cards are off in the apocalypse."
    if kind == "immunity_over":
        return f"{who} has been round the board: no longer immune."
    if kind == "stage":
        return STAGE_WORDS.get(e.detail, f"Stage: {e.detail}.")
    if kind == "demolished":
        return f"One building level falls on {square} ({e.amount} left)."
    if kind == "homeless":
        return f"{who} is bankrupt and stays on as homeless."
    if kind == "housed":
        return f"{who} gets ${e.amount} and is no longer homeless."
    if kind == "homeless_moves":
        return f"{who} (homeless) must move on."
    if kind == "homeless_auction":
        return f"{who} (homeless) sends {square} to auction."
    if kind == "card_ignored":
        return f"{who} ignores the card."
    if kind == "jail_ignored":
        return f"{who} does not go to jail."
    if kind == "steered":
        way = "clockwise" if e.detail == "forward" else "back"
        return f"{who} moves {e.amount} {way}."
    if kind == "bodyguards":
        return f"{who} hires {e.amount} bodyguard(s)."
    if kind == "bodyguards_gone":
        return f"{who}'s bodyguards leave."
    if kind == "game_over" and state.outcome is not None:
        if state.outcome.reason == "humans_win":
            return f"The humans win on {square}: {e.detail}."
        if state.outcome.reason == "zombies_win":
            return f"Everyone is a zombie and {who} breaks into Jail first: {who} wins."
    return None
