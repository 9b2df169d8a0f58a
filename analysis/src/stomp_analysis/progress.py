"""A byte-based progress bar on stderr (tqdm), shown only on a terminal and for big inputs."""

from __future__ import annotations

import os
import sys

from tqdm import tqdm

#: Inputs smaller than this finish too fast for a bar to be useful.
MIN_BYTES_FOR_BAR = 16 * 1024 * 1024


class Progress:
    """Counts bytes of input handled; a no-op unless enabled.

    ``enabled=None`` means: on when stderr is a terminal and the total is big enough.
    """

    def __init__(self, total_bytes: int, *, enabled: bool | None = None, desc: str = "reading") -> None:
        if enabled is None:
            enabled = sys.stderr.isatty() and total_bytes >= MIN_BYTES_FOR_BAR
        self.enabled = bool(enabled)
        self._bar = None
        if self.enabled:
            try:
                width, height = os.get_terminal_size(sys.stderr.fileno())
            except OSError:
                width, height = 0, 0
            self._bar = tqdm(
                total=total_bytes,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                desc=desc,
                file=sys.stderr,
                leave=False,
                dynamic_ncols=width > 0,
                ncols=None if width > 0 else 80,  # a pseudo-terminal may report a 0x0 size,
                nrows=None if height > 0 else 24,  # with which tqdm would hide the bar
            )

    def advance(self, nbytes: int) -> None:
        if self._bar is not None and nbytes:
            self._bar.update(nbytes)

    def describe(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(text, refresh=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class NullProgress(Progress):
    def __init__(self) -> None:
        super().__init__(0, enabled=False)
