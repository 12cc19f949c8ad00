"""An LED layout generated from a WS281x matrix under a grid board
(hardware/leds/matrix.py): the strip's order through serpentine and
progressive panels as sold, panels chained, which LEDs go under which square
and along which line, and a lit line drawn in the still frame."""

from __future__ import annotations

import pytest

from hardware.leds.board import BoardShape
from hardware.leds.cues import Stage
from hardware.leds.layout import shipped_layout
from hardware.leds.matrix import Area, Matrix, MatrixError, Wiring, generator, led_points, matrix_layout
from hardware.leds.render import still_frame
from hardware.leds.scene import LineLight, Scene


def grid_shape(columns: int, rows: int, matrix: Matrix | None = None) -> BoardShape:
    """A plain grid board: squares ``c,r`` at their middles, a connection between side-by-side squares."""
    squares = {f"{c},{r}": ((c + 0.5) / columns, (r + 0.5) / rows) for r in range(rows) for c in range(columns)}
    lines = [(f"{c},{r}", f"{c + 1},{r}") for r in range(rows) for c in range(columns - 1)]
    lines += [(f"{c},{r}", f"{c},{r + 1}") for r in range(rows - 1) for c in range(columns)]
    return BoardShape("grid", squares, tuple(lines), generated=generator(matrix) if matrix else None)


def test_a_serpentine_panel_turns_back_at_the_end_of_each_row() -> None:
    assert Wiring().order(3, 2) == [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]


def test_a_progressive_panel_starts_each_row_from_the_same_side() -> None:
    assert Wiring(serpentine=False).order(3, 2) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]


def test_a_panel_wired_from_the_bottom_right_along_its_columns() -> None:
    assert Wiring("bottom-right", "columns").order(2, 3) == [(1, 2), (1, 1), (1, 0), (0, 0), (0, 1), (0, 2)]


def test_panels_are_chained_whole_one_after_another() -> None:
    cells = Matrix(2, 2, panels_across=2).cells()
    assert cells[:4] == [(0, 0), (1, 0), (1, 1), (0, 1)] and cells[4:] == [(2, 0), (3, 0), (3, 1), (2, 1)]
    assert sorted(cells) == sorted((c, r) for c in range(4) for r in range(2))


@pytest.mark.parametrize("sizes", [(0, 8, 1, 1), (8, 8, 0, 1), (64, 64, 1, 1)])
def test_a_matrix_that_cannot_be_is_refused(sizes: tuple[int, int, int, int]) -> None:
    with pytest.raises(MatrixError):
        Matrix(*sizes)
    with pytest.raises(MatrixError, match="starts at a corner"):
        Wiring("middle")  # type: ignore[arg-type]


def test_four_leds_a_square_side_give_each_square_8_and_each_line_4() -> None:
    """32 x 32 LEDs under 8 x 8 squares, as the module promises: 8 a square inside the grid, the LEDs
    of the board's border (no line there) to the squares along it, 4 each line; every LED used once."""
    shape = grid_shape(8, 8)
    layout = matrix_layout(shape, Matrix(16, 16, 2, 2))
    assert set(layout.locations) == set(shape.locations) and set(layout.connections) == set(shape.connections)
    sizes = {name: len(leds) for name, leds in layout.locations.items()}
    assert sizes["3,4"] == 8 and sizes["0,4"] == sizes["3,7"] == 10 and sizes["0,0"] == sizes["7,7"] == 12
    assert {len(leds) for leds in layout.connections.values()} == {4}
    used = [i for leds in (*layout.locations.values(), *layout.connections.values()) for i in leds]
    assert sorted(used) == list(range(layout.count)) and layout.count == 1024


def test_each_square_gets_the_leds_lying_inside_it() -> None:
    shape, matrix = grid_shape(4, 4), Matrix(8, 8)
    points = led_points(matrix)
    for name, leds in matrix_layout(shape, matrix).locations.items():
        column, row = (int(n) for n in name.split(","))
        assert all(column / 4 < points[i][0] < (column + 1) / 4 and row / 4 < points[i][1] < (row + 1) / 4
                   for i in leds)


def test_a_line_keeps_its_leds_in_order_from_one_square_to_the_other() -> None:
    shape, matrix = grid_shape(2, 2), Matrix(8, 8)
    points = led_points(matrix)
    leds = matrix_layout(shape, matrix).segment("0,0", "1,0")
    assert leds and [points[i][0] for i in leds] == sorted(points[i][0] for i in leds)


def test_a_matrix_under_part_of_the_picture_lights_only_the_squares_over_it() -> None:
    layout = matrix_layout(grid_shape(4, 4), Matrix(8, 8), Area(right=0.5))
    assert {name.split(",")[0] for name in layout.locations} == {"0", "1"}


def test_a_board_on_a_matrix_ships_the_generated_layout() -> None:
    matrix = Matrix(8, 8)
    shape = grid_shape(4, 4, matrix)
    assert shipped_layout(shape) == matrix_layout(shape, matrix)


def test_a_lit_line_is_drawn_on_its_own_leds_only() -> None:
    shape = grid_shape(2, 2, Matrix(8, 8))
    stage = Stage(shipped_layout(shape), shape)
    line = stage.layout.segment("0,0", "1,0")
    frame = still_frame(stage, Scene(lines=(LineLight("0,0", "1,0", (255, 255, 0)),)), stage.layout.count)
    lit = {i for i in range(stage.layout.count) if frame[3 * i] > 40}
    assert line and lit == set(line)
