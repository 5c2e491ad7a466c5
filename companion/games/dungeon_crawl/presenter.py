"""What the kiosk shows of Dungeon Crawl, for now: the plain presenter's menus (every legal
action in transcript words, so only legal placements and moves are offered) with the colours
as roles. The dungeon map view and private treasure peeks are still to be built."""

from __future__ import annotations

from companion.games.dungeon_crawl.pieces import COLOURS
from companion.kiosk.presenter import BasicPresenter


class CrawlPresenter(BasicPresenter):
    description = "A piecepack treasure hunt: build the dungeon, then crawl it for treasure"
    role_word = "colour"

    def roles(self) -> tuple[str, ...]:
        return tuple(COLOURS.values())
