"""The box's buttons: which GPIO each one is on, and how long UNDO is held.

Why a record of its own: a button on the wrong pin (the LED strip's, the HAT
EEPROM's, one that does not exist) must be refused with the key and the reason
when the configuration is read, not found as a button that never answers at the
table. Unlike the LED and camera records it lists every problem at once
(``problems()``), which is what the configuration file's loader wants.

Pins are BCM GPIO numbers, as gpiozero counts them; a button that is not
wired is simply left out (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: GPIO 0 and 1 (ID_SD, ID_SC) belong to the HAT ID EEPROM; 2-27 are on the 40-pin header.
RESERVED_PINS = (0, 1)
FIRST_PIN, LAST_PIN = 2, 27
PIN_KEYS = ("next_pin", "undo_pin", "pair_pin", "status_led_pin")


@dataclass(frozen=True)
class ButtonConfig:
    """``next_pin``: NEXT (accept the prompt's default answer); ``undo_pin``: UNDO,
    acting only when held ``hold_seconds`` (a brush against it does nothing);
    ``pair_pin``: PAIR (the link button a tablet waits for); ``status_led_pin``:
    an optional LED that is lit while the service runs and blinks when a press
    is refused. Buttons connect the pin to ground (the Pi's pull-up holds it
    high); ``bounce_ms`` ignores the contact's chatter."""

    next_pin: int | None = None
    undo_pin: int | None = None
    pair_pin: int | None = None
    status_led_pin: int | None = None
    hold_seconds: float = 1.5
    bounce_ms: int = 30

    def pins(self) -> dict[str, int]:
        """The wired ones only, by key."""
        wired = {key: getattr(self, key) for key in PIN_KEYS}
        return {key: pin for key, pin in wired.items() if pin is not None}

    @property
    def any_wired(self) -> bool:
        return bool(self.pins())

    def problems(self) -> list[tuple[str, str]]:
        """Every wrong value as (key, why); empty when the record is usable."""
        found = [problem for key, pin in self.pins().items() for problem in _pin_problems(key, pin)]
        found += _shared_pins(self.pins())
        if not 0.3 <= self.hold_seconds <= 10.0:
            found.append(("hold_seconds", f"must be from 0.3 to 10 seconds, got {self.hold_seconds!r}"))
        if not 0 <= self.bounce_ms <= 500:
            found.append(("bounce_ms", f"must be from 0 to 500 ms, got {self.bounce_ms!r}"))
        return found


def _pin_problems(key: str, pin: int) -> list[tuple[str, str]]:
    if pin in RESERVED_PINS:
        return [(key, f"GPIO {pin} is reserved for the HAT ID EEPROM; use GPIO {FIRST_PIN} to {LAST_PIN}")]
    if not FIRST_PIN <= pin <= LAST_PIN:
        return [(key, f"there is no GPIO {pin} on the 40-pin header; use GPIO {FIRST_PIN} to {LAST_PIN}")]
    return []


def _shared_pins(pins: dict[str, int]) -> list[tuple[str, str]]:
    """Two buttons on one pin would both fire on every press."""
    seen: dict[int, str] = {}
    found = []
    for key, pin in pins.items():
        if pin in seen:
            found.append((key, f"GPIO {pin} is already used by {seen[pin]}"))
        seen.setdefault(pin, key)
    return found
