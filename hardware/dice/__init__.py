"""The dice reader (issue 5): a settled tray in, each die's kind and top face out.

Modules, from the pixels up (docs/dice.md explains each choice):

* ``imaging`` - cutting and colour helpers shared with the calibration;
* ``settle`` - has the tray stopped moving (every frame, cheap);
* ``segment`` - find each die against the empty tray, split touching ones;
* ``kinds`` - tell the owner's die kinds apart (size, shape, colour);
* ``templates`` - read a top face against the owner's face photos, any turn;
* ``pips`` - count a pip d6's pips (a second opinion);
* ``pipnet`` - a small trained network's view of a pip d6's face (a third);
* ``reader`` - all of it for one frame: values, confidences, refusals, crops;
* ``wiring`` - ``DiceWatcher``: a roll prompt arms it, a settled tray answers it;
* ``synthetic`` - drawn dice for tests (beside the real photos, never instead);
* ``evaluate`` - ``python -m hardware.dice.evaluate CALIBRATION_DIR TEST_DIR``.

Nothing is imported here, on purpose: ``calibration.dice`` and ``reader``
import each other's modules, and a package that imports nothing keeps that
free of import cycles.
"""
