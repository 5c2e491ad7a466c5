"""What the kiosk shows of Dungeonopoly beyond Monopoly: character classes to pick, ability
menus (an ability, then its target or direction), skill training, drafts and choices, and the
character's class, level, EP, skills and enchantments on the player cards."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.core.actions import Action
from companion.games.monopoly.dungeonopoly.abilities import TrainSkill, class_names, find_class
from companion.games.monopoly.dungeonopoly.character import MAX_SKILL_RANKS
from companion.games.monopoly.dungeonopoly.names import title_of
from companion.games.monopoly.presenter import MonopolyPresenter
from companion.games.monopoly.state import GameState
from companion.kiosk.inputs import Menu, Option, Pad, words
from companion.kiosk.views import PlayerCard

# the classes first offered at the setup screen, in this order; the rest follow
PREFERRED_ROLES = ("fighter", "wizard", "cleric", "rogue", "bard", "druid", "paladin",
                   "warlock", "psion")
MAX_LEVEL = 10
# shorter names for the marks on lot chips and camera squares (the rest use the full name)
MARK_NAMES = {"glyph_of_warding": "glyph"}


def ench_label(label: str) -> str:
    """An enchantment as the card shows it: ``ward:2`` -> ``Ward 2``."""
    name, _, level = label.partition(":")
    text = title_of(name)
    return f"{text} {level}" if level else text


class DungeonopolyPresenter(MonopolyPresenter):
    description = "Monopoly with character classes, EP, levels and abilities"
    hidden_options = frozenset({"free_parking_pot"})  # the pot is part of the variant
    role_word = "class"
    second_role_option = "gestalt"  # gestalt characters have two classes

    def roles(self) -> tuple[str, ...]:
        names = list(class_names())
        return tuple([r for r in PREFERRED_ROLES if r in names] +
                     [r for r in names if r not in PREFERRED_ROLES])

    def role_note(self, role: str) -> str:
        """What the class does, in a line, beside it on the setup screen."""
        summary = find_class(role).summary
        return summary[:1].upper() + summary[1:]

    # -- labels ----------------------------------------------------------------------------
    def variant_label(self, state: GameState, a: Action) -> str | None:
        name = type(a).__name__
        if name == "UseAbility":
            return self.ability_label(state, a)
        if name == "Pass":
            return f"{self.who(state, a.player)}: pass"
        if name == "Accept":
            return "Accept the card"
        if name == "Choose":
            what, option = str(getattr(a, "what", "")), str(getattr(a, "option", ""))
            squares = self.rules.board.squares
            if what == "draft" and option.isdigit() and int(option) < len(squares):
                sq = squares[int(option)]
                return f"Draft {sq.name}" + (f" (${sq.price})" if getattr(sq, "price", 0) else "")
            return f"Choose {words(what)}: {' '.join(title_of(o) for o in option.split(':'))}"
        if name == "TrainSkill":
            return f"Train {title_of(getattr(a, 'skill', ''))} (+{getattr(a, 'ranks', 1)})"
        return None

    def ability_label(self, state: GameState, a: Any) -> str:
        parts = [title_of(a.ability)]
        if a.target is not None:
            parts.append(f"on {self.who(state, a.target)}")
        for k, v in a.params:
            if k == "square":
                continue
            parts.append(f"{words(k)} {words(v)}")
        return " ".join(parts)

    def target_label(self, state: GameState, a: Any) -> str:
        """The part of an ability use that differs between its candidates (target, ...)."""
        parts = []
        if a.target is not None:
            parts.append(self.who(state, a.target))
        squares = self.rules.board.squares
        for k, v in a.params:
            if k == "square" and v.lstrip("-").isdigit() and 0 <= int(v) < len(squares):
                parts.append(self.square_name(int(v)))
            else:
                parts.append(f"{words(k)}: {words(v)}")
        return ", ".join(parts) or "Use it"

    # -- menus -----------------------------------------------------------------------------
    def group_of(self, a: Action) -> str | None:
        name = type(a).__name__
        return {"UseAbility": "ability", "TrainSkill": "train"}.get(name)

    def group_rows(self, state: GameState, groups: Mapping[str, Mapping[int, Sequence[Action]]]
                   ) -> list[Option]:
        rows = []
        for seat, uses in groups.get("ability", {}).items():
            rows.append(Option(f"{self.who(state, seat)}: use an ability", seat=seat,
                               open=self._ability_menu(state, seat, uses)))
        for seat, items in groups.get("train", {}).items():
            rows.append(Option(f"{self.who(state, seat)}: train rogue skills", seat=seat,
                               open=self._train_menu(state, seat, items)))
        return rows

    def _train_menu(self, state: GameState, seat: int,
                    items: Sequence[Action]) -> Callable[[], Pad]:
        """Which skill, then how many points: +1, +5 or all that can go into it (the rogue's
        30 points in a few presses, like any amount picker)."""
        rules: Any = self.rules

        def make() -> Pad:
            p: Any = state.players[seat]
            left = int(rules.skill_points_left(p))
            options = []
            for a in items:
                skill = str(getattr(a, "skill", ""))
                room = min(left, MAX_SKILL_RANKS - int(p.ranks(skill)))
                if room < 1:
                    continue
                options.append(Option(f"{title_of(skill)} ({p.ranks(skill)} ranks)", seat=seat,
                                      open=self._amount_menu(state, seat, skill, room)))
            return Menu(f"{p.name}: train which skill? ({left} points left)", options)
        return make

    def _amount_menu(self, state: GameState, seat: int, skill: str,
                     room: int) -> Callable[[], Pad]:
        def make() -> Pad:
            rules: Any = self.rules
            left = int(rules.skill_points_left(state.players[seat]))
            top = "all remaining" if room == left else f"up to {MAX_SKILL_RANKS} ranks"
            amounts = [n for n in (1, 5) if n < room] + [room]
            options = [Option(f"+{n} ({top})" if n == room and n > 1 else f"+{n}",
                              action=TrainSkill(seat, skill, n), seat=seat) for n in amounts]
            return Menu(f"Train {title_of(skill)} by how much?", options)
        return make

    def _ability_menu(self, state: GameState, seat: int,
                      uses: Sequence[Action]) -> Callable[[], Pad]:
        def make() -> Pad:
            by_name: dict[str, list[Action]] = {}
            for a in uses:
                by_name.setdefault(str(getattr(a, "ability", "")), []).append(a)
            options = []
            for name, group in by_name.items():
                label = title_of(name)
                if len(group) == 1:
                    options.append(Option(self.ability_label(state, group[0]), action=group[0],
                                          seat=seat))
                else:
                    options.append(Option(label, seat=seat,
                                          open=self._target_menu(state, label, group)))
            return Menu(f"{state.players[seat].name}: which ability?", options)
        return make

    def _target_menu(self, state: GameState, label: str,
                     group: Sequence[Action]) -> Callable[[], Pad]:
        def make() -> Pad:
            return Menu(f"{label}: choose", [Option(self.target_label(state, a), action=a,
                                                    seat=a.player) for a in group])
        return make

    # -- cards -----------------------------------------------------------------------------
    def variant_card(self, state: GameState, seat: int, card: PlayerCard) -> PlayerCard:
        per_level = int(getattr(state.options, "ep_per_level", 10) or 10)
        extra = self.rules.player_json(state, seat)
        level = extra.get("level")
        ep = extra.get("ep")
        extras: list[str] = []
        if extra.get("hidden"):
            extras.append("hidden")
        skills = extra.get("skills")
        if isinstance(skills, dict) and skills:
            extras.append("Skills: " + ", ".join(f"{title_of(k)} {v}"
                                                 for k, v in sorted(skills.items())))
        if extra.get("skill_points"):
            extras.append(f"{extra['skill_points']} skill points to spend")
        return replace(
            card, role=str(extra.get("class", "") or ""),
            level=int(level) if isinstance(level, int) else None,
            ep=int(ep) if isinstance(ep, int) else None,
            ep_into=int(ep) % per_level if isinstance(ep, int) else 0, ep_need=per_level,
            max_level=isinstance(level, int) and level >= MAX_LEVEL,
            enchantments=tuple(ench_label(str(e)) for e in extra.get("enchantments", ())),
            extras=tuple(extras))

    def lot_marks(self, state: GameState, index: int) -> tuple[str, ...]:
        """The square's enchantments (Bless, Curse, Glyph of Warding, a primal spell, a Wish's
        ...) as the chips and the camera view show them: ``Bless 3``."""
        out = []
        for e in self.rules.square_json(state, index).get("enchantments", ()):
            name, _, level = str(e).partition(":")
            out.append(ench_label(f"{MARK_NAMES.get(name, name)}:{level}" if level else
                                  MARK_NAMES.get(name, name)))
        return tuple(out)
