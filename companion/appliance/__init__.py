"""The box as an appliance (issue 6): what turns the table service into
something that runs unattended on a Raspberry Pi.

* ``notify`` - sd_notify spoken directly over ``$NOTIFY_SOCKET`` (READY,
  STATUS, STOPPING) and the watchdog thread (WATCHDOG=1 at half of
  ``$WATCHDOG_USEC``), for the ``Type=notify`` unit in systemd/.
* ``safemode`` - the "start did not finish" marker: a start after one that
  never became ready runs without hardware backends, and says why.
* ``discovery`` - the mDNS advert (``<name>.local``, ``_http._tcp``) and the
  IP addresses to show, for tablets that cannot resolve ``.local``.
* ``pairing`` - which tablets may change a game: the PAIR link button, codes
  shown on a paired tablet, hashed revocable tokens, rate limits.
* ``access`` - pairing per Socket.IO connection: the token from ``auth``,
  the check before every change (``not-paired``), the pairing events' answers.
* ``controls`` - what the box's buttons do to the game on the table (NEXT's
  default answers, UNDO, PAIR), behind ``hardware.buttons.TableControl``.
* ``health`` - the health view's data (each part, disk, versions, recent
  errors, safe mode) and the diagnostics bundle.
* ``bootconfig`` - the config.txt / cmdline.txt lines the LED backend needs
  (printed by systemd/install.sh, applied only when asked).

Every module imports its outside library (zeroconf) only where it is used, so
the rest runs and is tested anywhere.
"""
