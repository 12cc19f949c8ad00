"""``python -m hardware.dice.evaluate``: the evaluation command's old name, kept so that scripts
written for it still run. The command itself is ``calibration.dice_evaluate`` (it calibrates as
the tablet does, so it belongs with the calibration, and nothing in ``hardware.dice`` imports
``calibration``); this file only starts that module, and only when run as a command."""

from __future__ import annotations

import runpy

if __name__ == "__main__":
    runpy.run_module("calibration.dice_evaluate", run_name="__main__", alter_sys=True)
