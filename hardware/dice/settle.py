"""Has the tray stopped moving? Checked on every frame, so it must be cheap.

How: each frame is shrunk to a small grey picture (80x60 by default: a die is
still several pixels there) and compared with the previous one; a frame where
more than a few pixels changed is "moving". The tray is *settled* after
``still_frames`` quiet frames in a row, once per throw: after the reader was
armed something must have moved (or the tray must differ from how it looked
when armed), so the dice left from the last roll are never read again as the
new roll, and a die spinning on a corner keeps it "moving" until it lies flat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from .imaging import Image, grey

State = Literal["moving", "settling", "settled", "still"]


@dataclass(frozen=True)
class SettleSettings:
    """``size``: the small picture compared; ``pixel_change``: grey levels a pixel
    must change by; ``changed_share``: share of changed pixels that means
    motion; ``still_frames``: quiet frames in a row that mean settled."""

    size: tuple[int, int] = (80, 60)
    pixel_change: int = 14
    changed_share: float = 0.002
    still_frames: int = 5


class SettleDetector:
    def __init__(self, settings: SettleSettings = SettleSettings()) -> None:
        self.settings = settings
        self.previous: Image | None = None
        self.armed_look: Image | None = None
        self.still = 0
        self.moved = True  # unarmed: the first settled tray counts
        self.reported = False

    def small(self, frame: Image) -> Image:
        """The frame as a small, lightly blurred grey picture."""
        shrunk = cv2.resize(grey(frame), self.settings.size, interpolation=cv2.INTER_AREA)
        return np.asarray(cv2.blur(shrunk, (3, 3)), dtype=np.uint8)

    def changed(self, a: Image, b: Image) -> bool:
        differing = cv2.absdiff(a, b) > self.settings.pixel_change
        return bool(differing.mean() > self.settings.changed_share)

    def arm(self, need_motion: bool = False) -> None:
        """A new roll is awaited: the next "settled" needs motion (or a changed tray) first.

        ``need_motion``: only motion counts, not a tray that looks different
        from the last frame seen (after a pause or a camera that came back,
        that frame is old news).
        """
        self.moved = False
        self.reported = False
        if need_motion:
            self.previous = None
        self.armed_look = self.previous

    def update(self, frame: Image) -> State:
        """Feed one frame; "settled" is returned once per throw."""
        small = self.small(frame)
        moving = self.previous is not None and self.changed(small, self.previous)
        self.previous = small
        if moving:
            self.still, self.moved, self.reported = 0, True, False
            return "moving"
        self.still += 1
        if self.still < self.settings.still_frames:
            return "settling"
        return self._settled(small)

    def _settled(self, small: Image) -> State:
        if self.reported:
            return "still"
        if not self.moved and (self.armed_look is None or not self.changed(small, self.armed_look)):
            return "still"  # nothing was thrown since arming: the old dice are not the new roll
        self.reported, self.moved = True, False
        return "settled"
