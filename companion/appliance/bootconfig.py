"""The Raspberry Pi boot settings the LED backend needs (docs/leds.md).

Why a module and not lines in install.sh: which lines a box needs depends on
the configured LED backend and pin and on the Pi model (SPI on a Pi 4 needs
its core clock pinned, a Pi 5 needs the ``ws2812-pio`` overlay with the strip's
length), and a wrong boot file can stop a Pi from booting. So the lines are
worked out here from the checked configuration, tested, printed by
install.sh, and written only when the owner asks (``--apply``): inside one
marked block at the end of config.txt (after ``[all]``, so an earlier
``[pi4]`` section cannot swallow it), replaced as a whole on the next run and
removed by ``--remove``, with a backup of the original file kept once.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from companion.config import ConfigError, load
from hardware.leds.config import PCM_PIN, PWM_PINS, SPI_PIN, LedConfig

BEGIN = "# >>> table-companion: LED settings (systemd/install.sh --apply-config-txt) >>>"
END = "# <<< table-companion <<<"
BACKUP_SUFFIX = ".table-companion.bak"
SPI_BUFFER = "spidev.bufsiz=32768"
BOOT_DIR = Path("/boot/firmware")
MODEL_FILE = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class BootLines:
    """``config_txt`` lines, ``cmdline`` words, and ``notes`` for the owner."""

    config_txt: list[str] = field(default_factory=list)
    cmdline: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        parts = [f"config.txt:\n  {BEGIN}\n  [all]\n" + "".join(f"  {line}\n" for line in self.config_txt) + f"  {END}"
                 if self.config_txt else "config.txt: nothing to add"]
        parts.append(f"cmdline.txt: add {' '.join(self.cmdline)}" if self.cmdline else "cmdline.txt: nothing to add")
        return "\n".join(parts + [f"note: {note}" for note in self.notes])


def board_of(model: str) -> str:
    """``pi5``, ``pi4``, ``pi3`` (also the Zero 2 W, the same SoC family) or ``other``."""
    if "Raspberry Pi 5" in model:
        return "pi5"
    if "Raspberry Pi 4" in model or "Compute Module 4" in model or "Raspberry Pi 400" in model:
        return "pi4"
    if "Raspberry Pi 3" in model or "Zero 2" in model:
        return "pi3"
    return "other"


def boot_lines(leds: LedConfig, model: str) -> BootLines:
    """What the configured LED backend needs on this model."""
    board = board_of(model)
    if leds.backend == "pi5":
        return _pi5(leds, board)
    if leds.backend != "rpi_ws281x":
        return BootLines()
    if board == "pi5":
        return BootLines(notes=["rpi_ws281x does not run on a Pi 5: set leds.backend = \"pi5\" (docs/leds.md)"])
    if leds.pin == SPI_PIN:
        return _spi(board)
    return _pwm_or_pcm(leds)


def _spi(board: str) -> BootLines:
    clock = {"pi4": ["core_freq=500", "core_freq_min=500"], "pi3": ["core_freq=250"]}.get(board, [])
    unknown = ("unknown Pi model: pin the core clock by hand (Pi 4: core_freq=500 and core_freq_min=500; "
               "Pi 3 and Zero 2 W: core_freq=250)")
    notes = [] if clock else [unknown]
    return BootLines(["dtparam=spi=on", *clock], [SPI_BUFFER], notes)


def _pwm_or_pcm(leds: LedConfig) -> BootLines:
    root = (f"GPIO {leds.pin} drives the strip by DMA through /dev/mem, which needs root, but the unit runs as "
            "the user companion: use leds.pin = 10 (SPI), or add a drop-in with User=root (docs/leds.md)")
    if leds.pin in PWM_PINS:
        audio = "PWM shares its hardware with analog audio, so audio is switched off"
        return BootLines(["dtparam=audio=off"], notes=[root, audio])
    if leds.pin == PCM_PIN:
        return BootLines(notes=[root, "PCM conflicts with I2S digital audio (analog audio still works)"])
    return BootLines()


def _pi5(leds: LedConfig, board: str) -> BootLines:
    overlay = f"dtoverlay=ws2812-pio,gpio={leds.pin},num_leds={leds.count},brightness=255"
    wire = f"the strip's data wire goes to GPIO {leds.pin} (leds.pin); num_leds is fixed at boot, so reboot"
    notes = [f"{wire} after changing leds.count"]
    if board != "pi5":
        notes.append("the ws2812-pio overlay exists only on a Pi 5; this box does not look like one")
    return BootLines([overlay], [], notes)


# -- writing the boot files -----------------------------------------------------------------

def apply_config_txt(path: Path, lines: list[str]) -> bool:
    """Put ``lines`` in the marked block (replacing an earlier one); True if the file changed."""
    current = path.read_text("utf-8") if path.exists() else ""
    kept = _without_block(current).rstrip("\n")
    block = "\n".join([BEGIN, "[all]", *lines, END]) if lines else ""
    wanted = "\n".join(part for part in (kept, block) if part) + "\n"
    return _write_if_changed(path, current, wanted)


def remove_config_txt(path: Path) -> bool:
    if not path.exists():
        return False
    current = path.read_text("utf-8")
    return _write_if_changed(path, current, _without_block(current).rstrip("\n") + "\n")


def _without_block(text: str) -> str:
    lines, kept, inside = text.splitlines(), [], False
    for line in lines:
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END and inside:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


def apply_cmdline(path: Path, words: list[str], remove: bool = False) -> bool:
    """cmdline.txt is one line: add (or take out) whole words, keep the rest as it is."""
    current = path.read_text("utf-8") if path.exists() else ""
    present = current.split()
    if remove:
        wanted = [w for w in present if w not in words]
    else:
        wanted = present + [w for w in words if w not in present]
    return _write_if_changed(path, current, " ".join(wanted) + "\n") if wanted != present else False


def _write_if_changed(path: Path, current: str, wanted: str) -> bool:
    if wanted == current:
        return False
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    if path.exists() and not backup.exists():
        shutil.copy2(path, backup)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(wanted, "utf-8")
    temporary.replace(path)
    return True


# -- command line ---------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    """Print the lines; ``--apply`` writes them, ``--remove`` takes them out again."""
    args = _parser().parse_args(argv)
    try:
        leds = load(args.config).leds
    except ConfigError as refused:
        print(refused.report())
        return 2
    model = args.model_file.read_text("utf-8", "replace").strip("\0\n ") if args.model_file.exists() else ""
    lines = boot_lines(leds, model)
    print(f"LED backend {leds.backend!r} on {model or 'an unknown board'}:\n{lines.text()}")
    if args.apply or args.remove:
        _write(args.boot_dir, lines, args.remove)
    return 0


def _write(boot_dir: Path, lines: BootLines, remove: bool) -> None:
    config_txt, cmdline = boot_dir / "config.txt", boot_dir / "cmdline.txt"
    if remove:
        changed = [remove_config_txt(config_txt), apply_cmdline(cmdline, [SPI_BUFFER], remove=True)]
    else:
        changed = [apply_config_txt(config_txt, lines.config_txt), apply_cmdline(cmdline, lines.cmdline)]
    print("changed the boot files: reboot for them to take effect" if any(changed)
          else "the boot files were already right")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m companion.appliance.bootconfig",
                                     description="The config.txt/cmdline.txt lines the LED backend needs.")
    parser.add_argument("--config", type=Path, help="the configuration file (default: as the service finds it)")
    parser.add_argument("--model-file", type=Path, default=MODEL_FILE,
                        help=f"the board's model (default: {MODEL_FILE})")
    parser.add_argument("--boot-dir", type=Path, default=BOOT_DIR, help=f"where config.txt is (default: {BOOT_DIR})")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--apply", action="store_true", help="write the lines into the boot files")
    action.add_argument("--remove", action="store_true", help="take the lines out of the boot files again")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
