"""The table's hardware: the LED board (``hardware.leds``), the dice camera
(``hardware.camera``, ``hardware.dice``) and the box's buttons
(``hardware.buttons``). Mechanism only, below the games: nothing here imports a
game pack or the table; a pack hands the LEDs its board and looks, and a device
follows a game through ``hardware.followed.FollowedTable``.

Each device kind has one small interface and several backends chosen by
configuration, never guessed. A backend imports its hardware library only
inside itself, so everything else (and the tests) runs on any machine. A
device that fails to start is reported with the reason and the game goes on
without it.
"""
