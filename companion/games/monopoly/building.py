"""Houses and hotels: building evenly, selling back at half, the bank's limited stock."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.monopoly.board import Board
from companion.games.monopoly.state import SquareState


def group_levels(board: Board, squares: Sequence[SquareState], group: str) -> list[int]:
    return [squares[i].level for i in board.groups[group]]


def build_problem(board: Board, squares: Sequence[SquareState], player: int, index: int,
                  cash: int, bank_houses: int, bank_hotels: int, max_houses: int = 4,
                  even: bool = True, free: bool = False) -> str | None:
    """Why ``player`` may not add a building to lot ``index`` now (None when they may).

    A house needs the whole group owned, nothing in it mortgaged, the lot at the group's lowest
    level (building evenly), a house in the bank and the house price in cash. A hotel needs
    four houses on every lot of the group and a hotel in the bank; the four houses go back.
    """
    sq = board.squares[index]
    state = squares[index]
    if not sq.is_street:
        return f"{sq.name} is not a street; only streets take houses"
    if state.owner != player:
        return f"you do not own {sq.name}"
    group = board.groups[sq.group]
    if any(squares[i].owner != player for i in group):
        return f"you need every lot of the {sq.group.replace('_', ' ')} group to build"
    if any(squares[i].mortgaged for i in group):
        return f"lift the mortgages in the {sq.group.replace('_', ' ')} group before building"
    if state.hotel:
        return f"{sq.name} already has a hotel"
    levels = [squares[i].level for i in group]
    if even and state.level > min(levels):
        return f"build evenly: other lots of the group have fewer houses than {sq.name}"
    if not free and cash < sq.house_cost:
        return f"a building on {sq.name} costs ${sq.house_cost}; you have ${cash}"
    if state.houses >= max_houses:
        if any(lvl < max_houses and lvl != 5 for lvl in levels):
            return f"every lot of the group needs {max_houses} houses before a hotel"
        if bank_hotels < 1:
            return "the bank has no hotels left"
        return None
    if bank_houses < 1:
        return "the bank has no houses left"
    return None


def sell_problem(board: Board, squares: Sequence[SquareState], player: int, index: int,
                 bank_houses: int, max_houses: int = 4, even: bool = True) -> str | None:
    """Why ``player`` may not sell one building level off lot ``index`` (None when they may).

    Selling is even too: only from a lot at the group's highest level. A hotel goes back to
    four houses, which the bank must have; otherwise use a break-down (``BreakDown``)."""
    sq = board.squares[index]
    state = squares[index]
    if state.owner != player:
        return f"you do not own {sq.name}"
    if state.level == 0:
        return f"{sq.name} has no buildings to sell"
    levels = group_levels(board, squares, sq.group)
    if even and state.level < max(levels):
        return f"sell evenly: another lot of the group has more buildings than {sq.name}"
    if state.hotel and bank_houses < max_houses:
        return (f"the bank has only {bank_houses} houses, too few to break this hotel back into "
                f"{max_houses}: break the group down to fewer houses instead")
    return None


def breakdown_problem(board: Board, squares: Sequence[SquareState], player: int, group: str,
                      levels: Sequence[int], bank_houses: int, max_houses: int = 4) -> str | None:
    """Why a whole-group sale down to ``levels`` is not allowed (None when it is)."""
    if group not in board.groups:
        return (f"no group named {group!r}; the colour groups are "
                f"{', '.join(g for g in board.groups if board.squares[board.groups[g][0]].kind == 'street')}")
    lots = board.groups[group]
    if board.squares[lots[0]].kind != "street":
        return "only colour groups have buildings"
    if len(levels) != len(lots):
        return f"give one level per lot of the group ({len(lots)} lots)"
    old = [squares[i].level for i in lots]
    if any(squares[i].owner != player for i in lots):
        return "you do not own the whole group"
    hotel_level = max_houses + 1
    for before, after in zip(old, levels, strict=True):
        if after < 0 or after > before or (after > max_houses and after != hotel_level):
            return "each lot can only go down, to 0-4 houses or keep its hotel"
    if max(levels) - min(levels) > 1 and not (max(levels) == hotel_level and min(levels) == max_houses):
        return "the group must stay even (no lot more than one building above another)"
    if sum(levels) == sum(old):
        return "that sells nothing"
    houses_needed = sum(lv for lv in levels if lv <= max_houses) - sum(
        lv for lv in old if lv <= max_houses)
    if houses_needed > bank_houses:
        return f"that needs {houses_needed} houses from the bank, which has {bank_houses}"
    return None


def buildable_lots(board: Board, squares: Sequence[SquareState], player: int) -> list[int]:
    """Streets where ``player`` owns the whole, unmortgaged group (whatever the cash)."""
    out: list[int] = []
    for _group, lots in board.groups.items():
        if board.squares[lots[0]].kind != "street":
            continue
        if all(squares[i].owner == player and not squares[i].mortgaged for i in lots):
            out.extend(lots)
    return out


def house_demand(board: Board, squares: Sequence[SquareState], player: int,
                 max_houses: int = 4) -> int:
    """How many houses ``player`` could still place on their full groups (for shortages)."""
    return sum(max(0, max_houses - squares[i].level) for i in buildable_lots(board, squares, player)
               if not squares[i].hotel)
