"""The seam every game plugs into: a ``GamePack``.

Why one interface: the box serves several games, and nothing outside a game's
own folder may know which one is played (docs/engine.md, "Writing a pack").
The table, the service, the box's buttons, the LEDs, the command line and the
tablet's shell talk to a game only through what is declared here; a pack
answers each question for its game. Packs are found by id in
``companion.games.registry``, the one place that names them.

What a pack gives:

* ``rules``: the engine's ``Rules`` (origin -> state, inputs -> prompts and
  effects), and the game's ``id`` and ``title``;
* views, which are the protocol (docs/protocol.md), never the state
  dataclass: ``public_view`` is what everyone at the table may see (the shared
  screen, the LEDs, every seat), ``seat_view`` what one seat alone may see
  (a secret pact, a planned move); ``pack_view`` is the drawing data and names
  a tablet needs once (the board, the components);
* ``tabletop``: what is physically on the table now (pieces, counts, tracks), from which the
  shell derives what to put back, a phase's summary, the setup checklist;
* ``seats``: who plays; prompts name the seat that answers and who may see them;
* ``action_menu``: concrete actions for an ``action`` prompt, with labels;
* ``next_answer``: what the box's NEXT button answers (engine/defaults.py);
* ``leds``: its board shape and LED looks, or None for a game with no LED board;
* ``owner_data``: its owner-data desk, or None when its data cannot be corrected;
* ``dice_sets``: the box's own dice, where they differ from another box's of the same kind
  (its Monster dice), each calibrated for the camera on its own (docs/dice.md "Dice sets");
* ``cli``: its command-line part (``companion play --game ID``, its own commands);
* ``web``: its tablet module, a folder of static files the shell loads.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from companion.engine.defaults import Suggestion
from companion.engine.dice import DiceSet
from companion.engine.effects import Nature
from companion.engine.game import Game, Rules, Step
from companion.engine.prompts import Prompt
from companion.engine.tabletop import Tabletop

if TYPE_CHECKING:
    from companion.workers import Workers
    from hardware.leds import BoardShape, Looks

View = dict[str, object]
Policy = Callable[[Prompt, object], object]


@dataclass(frozen=True)
class Seat:
    """One place at the table: ``id`` is what prompts and views name (a hero id, ``p1``,
    ``dm``); ``name`` is how the tablet shows it."""

    id: str
    name: str


@dataclass(frozen=True)
class PackWeb:
    """The pack's tablet module: ``folder`` holds its static files, served under
    ``/packs/<id>/``; ``module`` is the file the shell imports from it.

    ``family`` is an optional second folder, served under ``/packs/<id>/family/``: the
    tablet code a family of packs shares (the editions of one game). Each pack of the
    family declares the same folder, so no pack's module names another pack, and the
    shell and the service stay ignorant of families: to them it is one more folder."""

    folder: Path
    module: str = "pack.js"
    family: Path | None = None


class OwnerDataDesk(Protocol):
    """What the service needs to let an owner correct a pack's data (docs/game-data.md)."""

    def parse(self, data: object) -> Any:
        """A checked document (a ``Refusal`` listing every problem when its shape is wrong)."""
        ...

    def check(self, data: object) -> tuple[dict[str, object], dict[str, object]]:
        """The effective pack files and the data status (a ``Refusal`` listing every problem)."""
        ...

    def pack_view(self, data: object) -> View:
        ...

    def empty(self) -> dict[str, object]:
        ...


class PackCli(Protocol):
    """A pack's part of the ``companion`` command."""

    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        """The options ``companion play --game ID`` takes to set up a game."""
        ...

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        """The ``setup`` origin those options give (ValueError naming the bad option)."""
        ...

    def policy(self, name: str, seed: int) -> Policy:
        """``random`` (seeded) or ``first``: who answers a played game's prompts."""
        ...

    def step(self, game: Game, policy: Policy) -> Step:
        """Answer the current prompt with ``policy``, the pack's way (a refused action drawn
        again, a phase ended when none holds)."""
        ...

    def summary(self, game: Game) -> list[str]:
        """The table in a few lines, from the state alone."""
        ...

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        """Commands of this pack's own (Ravenloft: ``demo``, ``resolve``)."""
        ...


class GamePack(Protocol):
    """One game on the box. Made on demand by the registry; holds no game's state."""

    @property
    def id(self) -> str:
        ...

    @property
    def title(self) -> str:
        ...

    @property
    def rules(self) -> Rules:
        ...

    @property
    def quiet_effects(self) -> frozenset[str]:
        """Effect kinds too small to name an input in the history (a die as rolled, a note)."""
        ...

    @property
    def effect_natures(self) -> Mapping[str, Nature]:
        """What each effect kind it emits is: a physical step, a note or a question's result
        (companion/engine/effects.py). Every view's effects carry it as ``nature``."""
        ...

    @property
    def phase_marks(self) -> frozenset[str]:
        """Effect kinds that begin a stretch of play a tablet keeps on screen as a whole (the
        Monster Phase begins where ``hero-phase-ended`` is): a view's ``recent_effects`` start at
        the newest input with one. Empty: they are simply the last inputs' effects."""
        ...

    @property
    def phase_ends(self) -> frozenset[str]:
        """Effect kinds that end that stretch (the Monster Phase ends where the next ``turn`` is);
        empty: it runs until the next one begins. The shell keeps the phase's steps in view until
        it ends, then shows its summary (the tabletop's changes from its start)."""
        ...

    @property
    def phase_name(self) -> str:
        """What the table calls that stretch ("the Monster Phase", "the Dungeon Master's turn")."""
        ...

    def pack_view(self, game: Game | None = None) -> View:
        """Drawing data and names: the shipped pack's, or the data ``game`` plays with."""
        ...

    def data_id(self, game: Game) -> str:
        """Names the data a game plays with ("" for the shipped pack)."""
        ...

    def public_view(self, game: Game) -> View:
        """What everyone may see: the shared screen, the LEDs, every seat."""
        ...

    def seat_view(self, game: Game, seat: str) -> View:
        """What ``seat`` alone may see, beside the public view ({} for a game with no secrets)."""
        ...

    def seats(self, game: Game) -> list[Seat]:
        ...

    def anytime_by(self, game: Game, move: object) -> str | None:
        """The seat making a move made at any time (``{"anytime": move}``), or None when anyone at
        the table may make it: the table refuses it from any other seat's device, as it does an
        answer (docs/engine.md, "Who answers")."""
        ...

    def tabletop(self, game: Game) -> Tabletop:
        """What any player could see on the real table now: pieces and where they are, counts
        and tracks, in the game's words (companion/engine/tabletop.py). The shell derives from it
        what to put back after an undo, a phase's summary, the setup checklist and the history's
        physical changes. Public: a secret card is a count ("a card in Ana's hand"), never a name."""
        ...

    def outcome(self, game: Game) -> str | None:
        """How the game ended ("won", "lost: terror", "Ana wins" ...), None while it goes on."""
        ...

    def action_menu(self, game: Game, seat: str | None) -> list[View]:
        """Concrete labelled answers to the current ``action`` prompt, for ``seat`` (None: the shared screen)."""
        ...

    def next_answer(self, prompt: Prompt | None) -> Suggestion:
        ...

    def owner_data(self) -> OwnerDataDesk | None:
        ...

    def dice_sets(self) -> tuple[DiceSet, ...]:
        """The box's own dice sets, from its data (none: it rolls the shared set of every kind)."""
        ...

    def leds(self) -> "PackLeds | None":
        ...

    def forecaster(self) -> "PackForecast | None":
        """The pack's forecast of what its automatic side will do next (None: it has none)."""
        ...

    def cli(self) -> PackCli:
        ...

    def web(self) -> PackWeb:
        ...


class PackLeds(Protocol):
    """A pack's LED board: its shape for the layout and calibration, and how its views and
    effects look under the board (hardware/leds draws; the pack says what)."""

    def shape(self, data: Mapping[str, object] | None) -> "BoardShape":
        """The board's shape with the owner's data, if any (locations, connections, named
        tracks, mats, seats, and the pack's shipped default layout)."""
        ...

    def looks(self) -> "Looks":
        """The pack's looks: its ``CueBook`` (an animation per effect kind) and its scene
        (the still picture of its public view)."""
        ...


class PackForecast(Protocol):
    """A forecast of the coming automatic phase: chances worked out from the game, which it
    never changes (views, plain data). A forecast view may hold ``glow``: ``{location: 0..1}``,
    how threatened each location is, which the LEDs draw under the board as a dim glow (the
    service reads nothing else of it; the pack's tablet module shows the rest)."""

    def forecast(self, game: Game, seconds: float | None = None, stop: Callable[[], bool] | None = None,
                 progress: Callable[[View], None] | None = None, workers: Workers | None = None) -> View | None:
        """The forecast now, in at most about ``seconds`` (None: the pack's default); None when
        there is none to give (not the moment for one) or ``stop`` (asked now and then) said True:
        the game has moved on and nobody waits for this one any more. A forecast that gets better
        with time hands each better one to ``progress`` on the way (the first at once, an estimate
        saying so), and returns the last. ``workers``: the service's worker processes, which the
        pack may share its work out to (``companion.workers``: its tasks, its ``Ticket`` called off
        when ``stop`` says so); ``seconds`` is then the time on the clock."""
        ...

    def what_if(self, game: Game, action: Mapping[str, object], stop: Callable[[], bool] | None = None) -> View | None:
        """The forecast after the active player's ``action``, tried on a copy of the game
        (IllegalInput when the rules refuse it); None when ``stop`` (asked now and then) said
        True: the tablet that asked has gone."""
        ...

    def what_ifs(self, game: Game) -> list[View]:
        """``{"action": ..., "forecast": ...}`` for every action the active player may take now."""
        ...


__all__ = ["GamePack", "PackForecast", "OwnerDataDesk", "PackCli", "PackLeds", "PackWeb", "Policy", "Seat", "View"]

