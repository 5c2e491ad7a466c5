"""Dungeon Crawl for the piecepack: a treasure hunt in a dungeon built of face-down tiles.

    game = find_game("dungeon_crawl")
    state = game.new_game(["Ann", "Bob", "Cat"])

Modules: ``pieces`` (suits, values, dice), ``state``, ``geometry`` (tiles, entrances, queen
lines), ``actions``, ``building`` (setup), ``movement`` (the move, re-entry, passing),
``encounters`` (coins, damage, death), ``fights`` (attacks), ``turns`` (passing the turn, the
end), ``rules`` (``DungeonCrawl``), ``words``, ``transcript`` (action lines, header),
``positions`` (set lines), ``json_view``, ``narration`` and ``bots``.
"""
