"""Dungeonbowl's dungeon referee: the chapter "Dungeon Features and Variables" of Dungeonbowl
(Astrogranite Edition) on the shared core.

    game = find_game("dungeonbowl")
    state = game.new_game(["Orcs", "Elves"])

The companion keeps the dungeon's state (doors, traps, balls, models, passages), asks for the
rolls the chapter fixes (dice, target, modifiers, what each result does), applies them, and asks
the coaches for the outcomes of base rules it does not own (armour, injury, catches ...).

Modules: ``dice`` (D6, block and scatter dice), ``dungeon`` (the map and its file formats),
``state``, ``actions``, ``moves`` (declared movement and its features), ``resolve`` (rolls and
answers), ``rules`` (``Dungeonbowl``), ``transcript``, ``json_view``, ``bots``, ``presenter``.
Rulings: docs/dungeonbowl/rulings.md (B-1 ...).
"""
