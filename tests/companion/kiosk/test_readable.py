"""Everything the game screen draws can be read from across a table, at 1280x720 and 800x480:
no text is cut to fit its box (hints, skill lines, log lines and menu rows wrap or page), every
line is at least 14 px tall, the EP label sits beside its bar and never over the bar's fill,
the marks on enchanted lots show on the lot chips and on the squares in the camera view, and
the rogue trains her skills with an amount picker (PNG frames in out/kiosk-tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pygame
import pytest
from test_screens import FakeFeed, thumb

from companion.kiosk import dice_area, theme
from companion.kiosk.headless import init_headless
from companion.kiosk.inputs import MapPicker
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.table_feed import TableReading
from companion.session import Session
from hardware.buttons import BACK, CONFIRM, NEXT, PREV

SIZES = [(1280, 720), (800, 480)]
ENCHANTED = ((39, "bless:3"), (3, "curse:2"), (21, "glyph_of_warding:4"))


def draw(screen: GameScreen, size: tuple[int, int], path: Path) -> tuple[Painter, Any]:
    init_headless()
    surface = pygame.Surface(size)
    painter = Painter()
    screen.update(0.0)
    screen.draw(surface, painter)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return painter, surface


def assert_readable(painter: Painter, size: tuple[int, int], squares: int = 0) -> None:
    """Nothing cut, inside its panel, every line 14 px or more; a map's squares' own marks
    (``squares``: the map's smallest square type, 0 for no map) only as small as that."""
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    for d in painter.drawn:
        assert not d.cut and not d.text.endswith("..."), f"{d.text!r} is cut at {size}"
        least = theme.MIN_LINE_PX
        if d.panel == "map" and squares and d.rect[3] < least:
            least = painter.render(d.text, squares, (0, 0, 0)).get_height()
        assert d.rect[3] >= least, f"{d.text!r} is {d.rect[3]} px tall at {size}"
        assert panels[d.panel].contains(pygame.Rect(d.rect)), \
            f"{d.text!r} at {d.rect} leaves panel {d.panel} at {size}"


def enchanted(session: Session) -> Session:
    st = session.state
    for i, e in ENCHANTED:
        st = session.rules.set_square_field(st, i, "enchantments", e)
    session.state = st
    return session


def board_reading() -> TableReading:
    """A camera frame with the board seen (its corners, hence every square's centre)."""
    from vision.board.geometry import DEFAULT_SPEC, square_centres

    corners = ((140, 10), (400, 10), (400, 262), (140, 262))
    h = dice_area.board_homography(corners)
    pts = cv2.perspectiveTransform(np.asarray(square_centres(DEFAULT_SPEC), np.float32)
                                   .reshape(-1, 1, 2), h).reshape(-1, 2)
    return TableReading(1, thumb(), corners=corners,
                        places=tuple((round(float(x)), round(float(y))) for x, y in pts))


def select(screen: GameScreen, starts: str) -> None:
    """Move the menu's selection to the row starting with ``starts`` and open it (leaving the
    dice pad first when a roll is due)."""
    if screen.dice_entry() is not None:
        screen.handle(BACK)
        screen.update(0.0)
    for _ in range(len(screen.top.rows()) + 1):
        row = next(r for r in screen.top.rows() if r.selected)
        if row.text.startswith(starts):
            screen.handle(CONFIRM)
            screen.update(0.0)
            return
        screen.handle(NEXT)
    raise AssertionError(f"no row {starts!r} in {[r.text for r in screen.top.rows()]}")


@pytest.mark.parametrize("size", SIZES)
def test_nothing_is_cut_and_every_line_is_14_px(midgame: Session, size: tuple[int, int],
                                                png_dir: Path) -> None:
    midgame.log.append("Cai's Divine Favor offers the Chance card: Advance to Illinois Avenue. "
                       "If you pass GO, collect $200")
    screen = GameScreen(enchanted(midgame), FakeFeed(live=False), size)
    painter, _ = draw(screen, size, png_dir / f"readable-dice-{size[0]}x{size[1]}.png")
    assert_readable(painter, size)
    decision = " ".join(painter.texts("decision"))
    assert "BACK: other choices" in decision  # the whole hint, wrapped
    log = " ".join(painter.texts("log"))
    assert "If you pass GO, collect $200" in log  # the whole log line, wrapped
    screen.handle(BACK)  # the menu of everything else
    painter, _ = draw(screen, size, png_dir / f"readable-menu-{size[0]}x{size[1]}.png")
    assert_readable(painter, size)
    assert "CONFIRM: OK" in " ".join(painter.texts("decision"))


@pytest.mark.parametrize("size", SIZES)
def test_six_players_with_skills_are_not_cut(size: tuple[int, int], png_dir: Path) -> None:
    from dataclasses import replace

    s = Session.memory("dungeonopoly", [("Ann", "rogue"), ("Ben", "wizard"), ("Cai", "cleric"),
                                        ("Dee", "rogue"), ("Eve", "bard"), ("Fay", "druid")])
    ann = s.rules.set_player_field(s.state.players[0], "skills",
                                   "rob_bank:10,pick_pockets:8,open_locks:5,sneak:3")
    squares = list(s.state.squares)
    for i in (1, 3, 6, 8, 9, 11, 13, 14, 16, 18):
        squares[i] = replace(squares[i], owner=0)
    s.state = replace(s.state, players=(ann, *s.state.players[1:]), squares=tuple(squares))
    painter, _ = draw(GameScreen(s, FakeFeed(live=False), size), size,
                      png_dir / f"readable-six-{size[0]}x{size[1]}.png")
    assert_readable(painter, size)
    # Ann's ten lots: those without room are counted, none silently lost
    card = next(pygame.Rect(d.rect) for d in painter.drawn if d.text == "Ann").y
    players = next(pygame.Rect(p.rect) for p in painter.panels if p.name == "players")
    ann = [d.text for d in painter.drawn if d.panel == "players"
           and card <= d.rect[1] < card + 100 and d.rect[0] < players.centerx]
    chips = [t for t in ann if t.split(" ")[0] in
             {"Mediterran.", "Baltic", "Oriental", "Vermont", "Connecticut", "St.", "States",
              "Virginia", "Tennessee", "New"}]
    more = [int(t[1:].split()[0]) for t in ann if t.startswith("+") and t.endswith("more")]
    assert len(chips) + sum(more) == 10, ann


@pytest.mark.parametrize("size", SIZES)
def test_ep_label_is_beside_the_bar_never_over_its_fill(midgame: Session, size: tuple[int, int],
                                                        png_dir: Path) -> None:
    painter, surface = draw(GameScreen(midgame, FakeFeed(live=False), size), size,
                            png_dir / f"readable-ep-{size[0]}x{size[1]}.png")
    labels = [d for d in painter.drawn if d.text.startswith("EP ")]
    assert len(labels) == 4
    pixels = pygame.surfarray.pixels3d(surface)
    for d in labels:
        x, y, w, h = d.rect
        box = pixels[x:x + w, y:y + h].reshape(-1, 3)
        fill = np.all(box == np.array(theme.EP_BAR), axis=1)
        assert not fill.any(), f"{d.text!r} is drawn over the EP bar's fill at {size}"
    # the bar is there, right of the label, on Ann's card (17 EP: 7 of 10 towards level 3)
    ann = next(d for d in labels if d.text.startswith("EP 17"))
    x, y, w, h = ann.rect
    row = pixels[x + w:, y:y + h].reshape(-1, 3)
    assert np.all(row == np.array(theme.EP_BAR), axis=1).any()


@pytest.mark.parametrize("size", SIZES)
def test_enchanted_lots_are_marked_on_the_chips_and_on_the_camera_squares(
        midgame: Session, size: tuple[int, int], png_dir: Path) -> None:
    screen = GameScreen(enchanted(midgame), FakeFeed([board_reading()]), size)
    painter, _ = draw(screen, size, png_dir / f"readable-marks-{size[0]}x{size[1]}.png")
    assert_readable(painter, size)
    players, camera = painter.texts("players"), painter.texts("camera")
    for mark in ("Bless 3", "Curse 2", "Glyph 4"):  # Boardwalk (Ann), Baltic (Ben), Kentucky
        assert mark in players, players
        assert mark in camera, camera
    tags = [pygame.Rect(d.rect) for d in painter.drawn
            if d.panel == "camera" and d.text in ("Bless 3", "Curse 2", "Glyph 4")]
    assert all(a.collidelist([b for b in tags if b is not a]) < 0 for a in tags), tags
    # each camera mark sits on its square: Boardwalk's tag near the square's centre
    reading = board_reading()
    tag = next(d for d in painter.drawn if d.panel == "camera" and d.text == "Bless 3")
    cam = next(pygame.Rect(p.rect) for p in painter.panels if p.name == "camera")
    model = screen.model
    assert model is not None and model.camera.surface is not None
    sw, sh = model.camera.surface.get_size()
    scale = sw / thumb().shape[1]
    cx = cam.x + (cam.w - sw) // 2 + round(reading.places[39][0] * scale)
    cy = cam.y + (cam.h - sh) // 2 + round(reading.places[39][1] * scale)
    assert pygame.Rect(tag.rect).inflate(8, 8).collidepoint(cx, cy) or \
        abs(pygame.Rect(tag.rect).centerx - cx) <= pygame.Rect(tag.rect).w


def test_rogue_trains_by_amounts_not_one_press_per_point(midgame: Session) -> None:
    s = midgame
    dee = s.state.players[3]
    assert s.rules.skill_points_left(dee) == 30
    from dataclasses import replace

    s.state = replace(s.state, current=3, rolled=False, pending=())
    screen = GameScreen(s, FakeFeed(live=False), (800, 480))
    screen.update(0.0)
    select(screen, "Dee: train rogue skills")
    select(screen, "Rob Bank")
    amounts = [r.text for r in screen.top.rows()]
    assert amounts == ["+1", "+5", "+15 (up to 15 ranks)"]
    select(screen, "+15")
    assert s.state.players[3].ranks("rob_bank") == 15
    assert s.rules.skill_points_left(s.state.players[3]) == 15
    select(screen, "Dee: train rogue skills")
    select(screen, "Open Locks")
    assert [r.text for r in screen.top.rows()] == ["+1", "+5", "+15 (all remaining)"]


DRIVE = Path(__file__).resolve().parents[3] / "assets" / "transcripts" / \
    "dungeonbowl-proving-grounds.txt"


def drive_session(lines: int) -> Session:
    """The demo's Dungeonbowl drive after its first ``lines`` lines (a roll pending)."""
    from companion.transcript import replay

    text = DRIVE.read_text(encoding="utf-8").splitlines()
    state = replay("\n".join(text[:lines]) + "\n").state
    s = Session.memory("dungeonbowl", [(p.name, "") for p in state.players], seed=state.seed,
                       options=state.options)
    s.state = state
    return s


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lines, tag", [(61, "chasm"), (45, "winds")])
def test_a_pending_rolls_results_are_listed_whole(size: tuple[int, int], lines: int, tag: str,
                                                  png_dir: Path) -> None:
    s = drive_session(lines)
    pending = s.state.pending[0]
    assert pending.kind == "roll" and len(pending.results) >= 2
    screen = GameScreen(s, FakeFeed(live=False), size)
    painter, _ = draw(screen, size, png_dir / f"readable-roll-{tag}-{size[0]}x{size[1]}.png")
    assert_readable(painter, size, squares=screen.layout.square_font)
    cards = " ".join(painter.texts("players"))
    assert "score 0" in cards and "balls" in cards and "off:" in cards
    shown = " ".join(painter.texts("decision"))
    for result in pending.results:  # every result, whole, on the one page
        assert " ".join(result.split()) in shown, (result, shown)
    assert "page 1/" not in shown


def test_notes_that_do_not_fit_turn_pages_and_none_is_lost() -> None:
    from companion.kiosk.theme import layout_for
    from companion.kiosk.views import DecisionModel
    from companion.kiosk.views.decision import draw_notes

    init_headless()
    lay = layout_for((800, 480), grid=True)
    notes = tuple(f"{k}: result number {k} moves the model {k} squares and knocks it down"
                  for k in range(1, 7))
    area = pygame.Rect(10, 10, 280, 70)
    seen: list[str] = []
    pages = set()
    for page in range(6):
        painter = Painter()
        painter.begin(pygame.Surface((300, 200)))
        painter.enter("decision", pygame.Rect(0, 0, 300, 200))
        bottom = draw_notes(painter, area, lay,
                            DecisionModel("t", "", (), "", notes=notes, notes_page=page))
        assert bottom <= area.bottom + 2
        texts = painter.texts("decision")
        marker = [t for t in texts if t.startswith("page ")]
        assert len(marker) == 1, texts
        pages.add(marker[0])
        seen += [t for t in texts if not t.startswith("page ")]
        assert not any(d.cut or d.text.endswith("...") for d in painter.drawn)
    assert len(pages) > 1
    words = " ".join(seen)
    for note in notes:
        assert note in words, (note, words)


@pytest.mark.parametrize("size", SIZES)
def test_four_teams_cards_and_a_rolls_results_over_pages(size: tuple[int, int],
                                                         png_dir: Path) -> None:
    """Four team cards keep every fact; a roll's results that do not fit turn pages, each
    result whole on one of them."""
    import shlex

    from companion.kiosk.screens import NOTES_PAGE_SECONDS

    s = Session.memory("dungeonbowl", [("Orcs", ""), ("Elves", ""), ("Dwarves", ""),
                                       ("Goblins", "")], seed=3, options={"dungeon": "four_teams"})
    st = s.state
    for line in ("set model Orcs o1 7,5", "set model Elves e1 14,1", "set play"):
        st = s.rules.apply_set(st, shlex.split(line))
    for line in ("Orcs step o1 7,6", "Orcs step o1 8,6"):  # into the chasm
        st, _ = s.rules.apply(st, s.rules.parse_action(st, shlex.split(line)))
    s.state = st
    screen = GameScreen(s, FakeFeed(live=False), size)
    shown: list[str] = []
    for page in range(4):
        painter, _ = draw(screen, size,
                          png_dir / f"readable-four-{size[0]}x{size[1]}-{page}.png")
        assert_readable(painter, size, squares=screen.layout.square_font)
        cards = " ".join(painter.texts("players"))
        for team in ("Orcs", "Elves", "Dwarves", "Goblins"):
            assert team in cards
        assert cards.count("off: none") == 4, cards
        shown.append(" ".join(painter.texts("decision")))
        screen.update(NOTES_PAGE_SECONDS)
    everything = " ".join(shown)
    for result in st.pending[0].results:
        assert result in everything or any(result in " ".join(x.split()) for x in shown), result


@pytest.mark.parametrize("size", SIZES)
def test_a_roster_team_sets_up_each_model_on_the_square_its_coach_picks(
        size: tuple[int, int], png_dir: Path) -> None:
    """At setup a roster team's rows name each model with its characteristics and skills in
    words, whole at both sizes; a row opens a square picker on the map over the free squares
    of its end zone, and the model goes on the one chosen (docs/dungeonbowl.md, "Rosters")."""
    s = Session.memory("dungeonbowl", [("Orcs", "orcs"), ("Elves", "elves")], seed=5)
    screen = GameScreen(s, FakeFeed(live=False), size)
    painter, _ = draw(screen, size, png_dir / f"readable-roster-{size[0]}x{size[1]}.png")
    assert_readable(painter, size, squares=screen.layout.square_font)
    rows = [r.text for r in screen.top.rows()]
    assert "Orcs: add troll - MA 4 ST 5 AG 1 - mighty blow, big guy >" in rows
    assert "Elves: add mage - MA 6 ST 3 AG 4 - fire college >" in rows
    assert "Orc Raiders" in " ".join(painter.texts("players"))
    select(screen, "Orcs: add troll")
    squares = [r.text for r in screen.top.rows()]
    zone = s.state.dungeon.endzone(1)
    assert squares == [f"at {x},{y}" for x, y in zone]
    # the squares are picked on the map: outlined, the cursor on the first, NEXT moves it
    assert isinstance(screen.top, MapPicker)
    shown = screen._model().map
    assert shown is not None and {t.square for t in shown.picking} == set(zone)
    assert shown.cursor == zone[0]
    screen.handle(NEXT)
    assert screen._model().map.cursor == zone[1]  # type: ignore[union-attr]
    screen.handle(PREV)
    painter, _ = draw(screen, size, png_dir / f"readable-roster-squares-{size[0]}x{size[1]}.png")
    assert_readable(painter, size, squares=screen.layout.square_font)
    select(screen, f"at {zone[4][0]},{zone[4][1]}")
    troll = s.state.model("troll")
    assert troll is not None and troll.at == zone[4] and (troll.st, troll.ag) == (5, 1)
    assert "Orcs' turn" in " ".join(painter.texts("header"))
    assert s.lines[-1] == f"Orcs add troll {zone[4][0]},{zone[4][1]} ma=4 st=5 ag=1 " \
        "skills=mighty_blow+big_guy"
