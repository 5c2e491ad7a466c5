"""The one exception every game raises for a move its rules do not allow."""


class IllegalActionError(ValueError):
    """The action is not legal now; the message says why and what the player can do instead.

    The state the action was applied to is unchanged (states are immutable)."""
