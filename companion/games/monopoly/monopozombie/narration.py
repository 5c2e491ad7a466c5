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


PLAIN = {
    "immune": "{who} is still on the first lap and cannot become a zombie yet.",
    "immunity_asked": "{who} holds an immunity card: use it, or keep it and become a zombie?",
    "immunity_kept": "{who} keeps the immunity card.",
    "immunity_used": "{who} uses the Get Out of Jail Free card as immunity and stays human.",
    "immunity_over": "{who} has been round the board: no longer immune.",
    "reroll": "{who} rolled {detail}: every 5 or 6 is rolled again ({amount}).",
    "no_card": "{who} draws no card: cards are off in the apocalypse.",
    "demolished": "One building level falls on {square} ({amount} left).",
    "homeless": "{who} is bankrupt and stays on as homeless.",
    "housed": "{who} gets ${amount} and is no longer homeless.",
    "homeless_moves": "{who} (homeless) must move on.",
    "homeless_auction": "{who} (homeless) sends {square} to auction.",
    "card_ignored": "{who} ignores the card.",
    "jail_ignored": "{who} does not go to jail.",
    "bodyguards": "{who} hires {amount} bodyguard(s).",
    "bodyguards_gone": "{who}'s bodyguards leave.",
}


def describe(rules: MonopoZombie, state: GameState, e: Event) -> str | None:
    who = state.players[e.player].name if e.player is not None and e.player >= 0 else "someone"
    square = rules.board.squares[e.square].name if e.square is not None and e.square >= 0 else ""
    kind = e.kind
    if kind in PLAIN:
        return PLAIN[kind].format(who=who, square=square, amount=e.amount, detail=e.detail)
    if kind == "zombified":
        return f"{who} becomes a zombie on {square} by {HOW.get(e.detail, e.detail)}."
    if kind == "stage":
        return STAGE_WORDS.get(e.detail, f"Stage: {e.detail}.")
    if kind == "steered":
        way = "clockwise" if e.detail == "forward" else "back"
        return f"{who} moves {e.amount} {way}."
    if kind == "game_over" and state.outcome is not None:
        if state.outcome.reason == "humans_win":
            return f"The humans win on {square}: {e.detail}."
        if state.outcome.reason == "zombies_win":
            return f"Everyone is a zombie and {who} breaks into Jail first: {who} wins."
    return None
