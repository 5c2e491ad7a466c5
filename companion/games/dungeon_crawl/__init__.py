"""Dungeon Crawl for the piecepack: a treasure hunt in a dungeon built of face-down tiles.

    game = find_game("dungeon_crawl")
    state = game.new_game(["Ann", "Bob", "Cat"])

Modules: ``pieces`` (suits, values, dice), ``state``, ``geometry`` (tiles, entrances, queen
lines), ``actions``, ``building`` (setup), ``encounters`` (coins, damage, death), ``fights``
(attacks), ``turns`` (passing the turn, the end), ``rules`` (``DungeonCrawl``), ``transcript``
(lines, set lines, JSON), ``narration`` and ``bots``.
"""
