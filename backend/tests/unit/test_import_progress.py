"""The import's progress: rows/s and time left, as a bar on a terminal or lines elsewhere."""

from __future__ import annotations

import io

from carevault.clients.progress import ImportProgress


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_without_a_terminal_a_line_every_interval_with_rate_and_time_left() -> None:
    clock, stream, position = FakeClock(), io.StringIO(), [0]
    progress = ImportProgress(
        10_000, lambda: position[0], stream=stream, terminal=False, interval=5.0, clock=clock
    )
    with progress:
        clock.now += 2
        position[0] = 1_000
        progress.advance(1_000)
        assert stream.getvalue() == ""  # not before the interval
        clock.now += 3
        position[0] = 2_500
        progress.advance(1_000)
        clock.now += 1
        progress.advance(500)
    assert stream.getvalue().splitlines() == [
        # 2,000 rows in 5 s; a quarter of the file in 5 s leaves 15 s
        "importing: 2,000 rows written, 400 rows/s, 25% of the file, about 15 s left"
    ]


def test_long_times_left_read_in_minutes_and_hours() -> None:
    clock, position = FakeClock(), [1]
    progress = ImportProgress(
        10_000, lambda: position[0], stream=io.StringIO(), terminal=False, clock=clock
    )
    with progress:
        clock.now += 1
        assert progress.line().endswith("about 2 h 46 min left")
        position[0] = 5_000
        clock.now += 199
        assert progress.line().endswith("about 3 min 20 s left")
        position[0] = 0
        assert "left" not in progress.line()  # nothing read yet: no guess


def test_on_a_terminal_the_bar_goes_to_the_stream_and_no_lines_are_written() -> None:
    stream = io.StringIO()
    with ImportProgress(100, lambda: 50, stream=stream, terminal=True) as progress:
        progress.advance(10)
        assert progress.rows == 10
    assert "importing:" not in stream.getvalue()
