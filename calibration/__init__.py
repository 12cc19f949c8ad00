"""Owner-facing calibration procedures and their saved results (in the state
directory, versioned, exportable and restorable). Today: which LED sits under
which part of the board (``calibration.leds``)."""
