"""Rent: what a visitor owes the owner of a lot (standard Monopoly, 'Rent' on the deeds)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.monopoly.board import Board
from companion.games.monopoly.state import SquareState


def owns_whole_group(board: Board, squares: Sequence[SquareState], owner: int, group: str) -> bool:
    """Owner holds every lot of the group (mortgaged lots count as held)."""
    return all(squares[i].owner == owner for i in board.groups[group])


def base_rent(board: Board, squares: Sequence[SquareState], index: int, dice_total: int,
              rent_multiplier: int = 1, dice_multiplier: int = 0) -> int:
    """Rent owed for landing on lot ``index`` before any variant adjusts it.

    Streets: printed rent, doubled on an unimproved lot of a whole group owned by one player;
    houses and hotels from the deed. Railroads: 25/50/100/200 by how many the owner holds.
    Utilities: 4x or 10x the dice by how many the owner holds (a card may force 10x).
    A mortgaged lot charges nothing; mortgaged lots still count toward group ownership and
    toward the railroad and utility counts (docs/rulings.md M-3).
    """
    sq = board.squares[index]
    state = squares[index]
    owner = state.owner
    if owner is None or state.mortgaged:
        return 0
    if sq.kind == "street":
        if state.hotel:
            return sq.rents[5]
        if state.houses:
            return sq.rents[state.houses]
        rent = sq.rents[0]
        if owns_whole_group(board, squares, owner, sq.group):
            rent *= 2
        return rent * rent_multiplier
    count = sum(1 for i in board.groups[sq.group] if squares[i].owner == owner)
    if sq.kind == "railroad":
        return board.railroad_rents[count - 1] * rent_multiplier
    if sq.kind == "utility":
        multiplier = dice_multiplier or board.utility_multipliers[count - 1]
        return multiplier * dice_total
    return 0
