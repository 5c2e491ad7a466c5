"""What the kiosk shows of MonopoZombie (placeholder: Monopoly's presenter)."""

from __future__ import annotations

from companion.games.monopoly.presenter import MonopolyPresenter


class ZombiePresenter(MonopolyPresenter):
    pass
