"""Standard US Monopoly: the base rules with no changes."""

from companion.rules.engine import Rules
from companion.variants import register


class Monopoly(Rules):
    name = "monopoly"


register("monopoly", Monopoly)
