"""The games the companion referees, each in its own package; importing this registers them.

``monopoly`` holds the Monopoly engine and its variants (standard, dungeonopoly);
``dungeon_crawl`` the piecepack treasure hunt and ``dungeonbowl`` the Dungeonbowl dungeon
referee (registered lazily: built on first use).
"""

from companion.core.game import Game
from companion.core.registry import register
from companion.games import monopoly  # noqa: F401  (registers its variants)


def _dungeon_crawl() -> Game:  # typed as the protocol, so mypy checks the game meets it
    from companion.games.dungeon_crawl.rules import DungeonCrawl

    return DungeonCrawl()


register("dungeon_crawl", _dungeon_crawl)


def _dungeonbowl() -> Game:
    from companion.games.dungeonbowl.rules import Dungeonbowl

    return Dungeonbowl()


register("dungeonbowl", _dungeonbowl)
