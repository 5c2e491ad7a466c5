"""Standard US Monopoly: the base rules with no changes."""

from companion.games.monopoly.engine import Rules


class Monopoly(Rules):
    name = "monopoly"
