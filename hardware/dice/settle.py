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
        self.region: Image | None = None  # 255 on the tray in the small picture (None: the whole frame)
        self.region_for: tuple[int, int] = (0, 0)  # the frame size the region was drawn for
        self.region_share = 1.0

    def only(self, rim: np.ndarray | None, frame_size: tuple[int, int]) -> None:
        """Watch only inside the tray's ``rim`` (its outline in the frame; None: the whole frame):
        a hand on the table or a cloth moving around a tray of any shape is not a throw."""
        if rim is None:
            self.region, self.region_share = None, 1.0
        else:
            width, height = self.settings.size
            scale = np.array([width / frame_size[0], height / frame_size[1]])
            region = np.zeros((height, width), np.uint8)
            cv2.fillPoly(region, [np.round(np.asarray(rim, np.float64) * scale).astype(np.int32)], 255)
            region = np.asarray(cv2.erode(region, np.ones((5, 5), np.uint8)), np.uint8)  # the rim's small pixels mix in the table
            self.region, self.region_share = region, max(float(np.count_nonzero(region)) / region.size, 1e-3)
        self.region_for, self.previous, self.armed_look = frame_size, None, None

    def small(self, frame: Image) -> Image:
        """The frame as a small, lightly blurred grey picture (black outside the tray's outline)."""
        width, height = self.settings.size
        step = max(1, min(frame.shape[1] // (4 * width), frame.shape[0] // (4 * height)))
        if step > 1:  # a big frame: every step-th pixel first (still four per small pixel each way), cheap
            frame = np.ascontiguousarray(frame[::step, ::step])
        shrunk = cv2.resize(grey(frame), self.settings.size, interpolation=cv2.INTER_AREA)
        small = np.asarray(cv2.blur(shrunk, (3, 3)), dtype=np.uint8)
        if self.region is not None and (frame.shape[1], frame.shape[0]) == self.region_for:
            return np.asarray(cv2.bitwise_and(small, self.region), dtype=np.uint8)
        return small

    def changed(self, a: Image, b: Image) -> bool:
        differing = cv2.absdiff(a, b) > self.settings.pixel_change
        return bool(differing.mean() > self.settings.changed_share * self.region_share)

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
