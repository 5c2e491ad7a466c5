"""What the kiosk shows of Illumonopoly: Monopoly's screen (placeholder until the
Illumonopoly presenter lands)."""

from __future__ import annotations

from companion.games.monopoly.presenter import MonopolyPresenter


class IllumonopolyPresenter(MonopolyPresenter):
    """Monopoly's presenter."""
