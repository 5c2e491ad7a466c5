"""The games the companion referees, each in its own package; importing this registers them.

``monopoly`` holds the Monopoly engine and its variants (standard, dungeonopoly).
"""

from companion.games import monopoly  # noqa: F401  (registers its variants)
