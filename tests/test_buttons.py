"""The box's buttons (hardware/buttons, companion/appliance/controls.py) with
gpiozero's MockFactory: presses and holds drive a real Table (SQLite in
tmp_path) through its single writer. NEXT answers only defaults and never a
roll or a draw; UNDO acts only when held; PAIR pairs the tablet that asked;
the status LED answers each press; a panel that cannot start says why."""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from service_process import SETUP, play_until

from companion.appliance.controls import BoxControls, CurrentGame
from companion.appliance.pairing import Grant, Pairing
from companion.config import PairingSettings
from companion.engine.prompts import Option, Prompt
from companion.games.ravenloft.nextstep import next_answer
from companion.table import Table, Tables
from hardware.buttons import ButtonConfig, ButtonPanel, Outcome
from polling import wait_for

NEXT, UNDO, PAIR, LIGHT = 5, 6, 13, 26
HOLD = 0.3
WIRED = ButtonConfig(next_pin=NEXT, undo_pin=UNDO, pair_pin=PAIR, status_led_pin=LIGHT, hold_seconds=HOLD, bounce_ms=0)
#: Carrionette, Sam and Beau at Vallaki: after "A Brother's Vigil" (the first card) she attacks one of two heroes.
TIE = {"phase": "monster", "monsters": {"carrionette": "vallaki"},
       "heroes": [{"hero": "sorcerer", "player": "Sam", "at": "vallaki"},
                  {"hero": "druid", "player": "Beau", "at": "vallaki"}]}


@pytest.fixture
def factory() -> Iterator[Any]:
    """gpiozero's MockFactory: the tests that press buttons are skipped without gpiozero."""
    mock = pytest.importorskip("gpiozero.pins.mock", reason="gpiozero is not installed (the 'appliance' extra)")
    made = mock.MockFactory()
    yield made
    made.reset()


@pytest.fixture
def pairing(tmp_path: Path) -> Pairing:
    return Pairing(tmp_path / "state", PairingSettings(), iterations=1000)


def table_at(tables: Tables, origin: dict[str, object]) -> Table:
    return tables.get(tables.store.create_game("ravenloft", "Buttons", origin))


PanelMaker = Callable[..., ButtonPanel]


@pytest.fixture
def panel_for(factory: Any, pairing: Pairing) -> Iterator[PanelMaker]:
    made: list[ButtonPanel] = []

    def make(table: Table | None, config: ButtonConfig = WIRED, **controls: Any) -> ButtonPanel:
        control = controls.pop("control", None) or BoxControls(lambda: table, pairing, **controls)
        made.append(ButtonPanel(config, control, pin_factory=factory).start())
        return made[-1]

    yield make
    for panel in made:
        panel.close()


def press(factory: Any, panel: ButtonPanel, pin: int, held: float = 0.0) -> None:
    mock = factory.pin(pin)
    mock.drive_low()
    if held:
        time.sleep(held)
    mock.drive_high()
    assert panel.settle(5.0)


def light_states(factory: Any) -> list[bool]:
    return [bool(s.state) for s in factory.pin(LIGHT).states]


def blinked_and_back_on(factory: Any, since: int) -> bool:
    states = light_states(factory)[since:]
    return False in states and states[-1] is True


# -- NEXT ------------------------------------------------------------------------------------------

def test_next_never_guesses_a_draw_and_blinks_the_light(tables: Tables, factory: Any, panel_for: PanelMaker) -> None:
    table = table_at(tables, {"position": TIE})
    panel = panel_for(table)
    assert wait_for(lambda: factory.pin(LIGHT).state)  # lit: the service runs
    before, shown = table.version, len(light_states(factory))
    press(factory, panel, NEXT)
    assert table.version == before and table.game.prompt is not None and table.game.prompt.key == "monster-card"
    assert panel.health.last["done"] is False and "never guesses a draw" in str(panel.health.last["why"])
    assert wait_for(lambda: blinked_and_back_on(factory, shown))


def test_next_takes_the_first_of_two_heroes_to_attack(tables: Tables, factory: Any, panel_for: PanelMaker) -> None:
    table = table_at(tables, {"position": TIE})
    play_until(table, "attack-target")  # the first card, A Brother's Vigil, then its item draw
    prompt = table.game.prompt
    assert prompt is not None and prompt.key == "attack-target" and len(prompt.options) == 2
    panel = panel_for(table)
    press(factory, panel, NEXT)
    assert table.game.inputs[-1] == {"key": "attack-target", "answer": "hero:sorcerer"}
    assert panel.health.last["done"] is True and panel.health.presses == 1


def test_next_ends_the_hero_phase_and_undo_held_takes_it_back(tables: Tables, factory: Any,
                                                              panel_for: PanelMaker) -> None:
    table = tables.get(tables.create("ravenloft", "Friday", SETUP))
    play_until(table, "hero-action")
    inputs = len(table.game.inputs)
    panel = panel_for(table)
    press(factory, panel, NEXT)
    assert table.game.inputs[-1] == {"key": "hero-action", "answer": {"action": "end"}}
    assert table.game.prompt is not None and table.game.prompt.key == "monster-card"
    press(factory, panel, UNDO, held=HOLD + 0.3)
    assert len(table.game.inputs) == inputs and table.game.prompt is not None
    assert table.game.prompt.key == "hero-action" and table.view()["can_redo"] is True


def test_a_short_press_of_undo_does_nothing(tables: Tables, factory: Any, panel_for: PanelMaker) -> None:
    table = table_at(tables, {"position": TIE})
    table.act({"key": "monster-card", "answer": "a-brothers-vigil"}, table.version)
    panel = panel_for(table)
    press(factory, panel, UNDO)
    assert table.version == 1 and panel.health.presses == 0


def test_undo_with_nothing_to_undo_is_refused(tables: Tables, factory: Any, panel_for: PanelMaker) -> None:
    table = table_at(tables, {"position": TIE})
    panel = panel_for(table)
    press(factory, panel, UNDO, held=HOLD + 0.3)
    assert table.version == 0
    assert panel.health.last["done"] is False and "refused (illegal)" in str(panel.health.last["why"])


def test_next_with_no_game_open_is_refused(factory: Any, panel_for: PanelMaker) -> None:
    panel = panel_for(None)
    press(factory, panel, NEXT)
    assert panel.health.last == {**panel.health.last, "done": False, "why": "no game is open on a tablet"}


def test_the_buttons_follow_the_game_a_tablet_opened_last(tables: Tables, factory: Any, panel_for: PanelMaker) -> None:
    first, second = table_at(tables, {"position": TIE}), tables.get(tables.create("ravenloft", "Other", SETUP))
    play_until(second, "hero-action")
    current = CurrentGame(tables)
    panel = panel_for(None, control=BoxControls(current))
    current.remember(first.game_id)
    current.remember(second.game_id)
    press(factory, panel, NEXT)
    assert second.game.inputs[-1]["key"] == "hero-action" and first.version == 0
    current.forget(second.game_id)
    assert current() is None


# -- PAIR ------------------------------------------------------------------------------------------

def test_pair_pairs_the_tablet_that_asked(factory: Any, pairing: Pairing, panel_for: PanelMaker) -> None:
    grants: list[Grant] = []
    panel = panel_for(None, on_paired=grants.append)
    pairing.ask("sid-1", "Kitchen tablet", "192.168.1.20")
    press(factory, panel, PAIR)
    assert panel.health.last["done"] is True and "press counted" in str(panel.health.last["why"])
    assert wait_for(lambda: bool(grants), timeout=5)  # decided once the presses in a row are over
    assert [g.client for g in grants] == ["sid-1"] and grants[0].device.name == "Kitchen tablet"
    assert pairing.device_of(grants[0].token) == grants[0].device


def test_two_presses_pair_the_tablet_shown_press_twice(factory: Any, pairing: Pairing,
                                                      panel_for: PanelMaker) -> None:
    """A stranger waits too (press once): the owner's tablet says twice, and two presses pair it."""
    grants: list[Grant] = []
    panel = panel_for(None, on_paired=grants.append)
    pairing.ask("stranger", "Stranger", "192.168.1.66")
    assert pairing.ask("owner", "Owner", "192.168.1.20")["presses"] == 2
    press(factory, panel, PAIR)
    press(factory, panel, PAIR)
    assert wait_for(lambda: bool(grants), timeout=5)
    assert [g.client for g in grants] == ["owner"] and [d.name for d in pairing.devices()] == ["Owner"]


def test_pair_with_nobody_asking_is_refused(factory: Any, panel_for: PanelMaker) -> None:
    panel = panel_for(None)
    shown = len(light_states(factory))
    press(factory, panel, PAIR)
    assert panel.health.last["done"] is False and "no tablet asked" in str(panel.health.last["why"])
    assert wait_for(lambda: blinked_and_back_on(factory, shown))


# -- the panel itself ------------------------------------------------------------------------------

class Exploding:
    def __init__(self) -> None:
        self.calls = 0

    def next(self) -> Outcome:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("boom")
        return Outcome(True, "fine")

    def undo(self) -> Outcome:
        return Outcome(True)

    def pair_pressed(self, at: float | None = None) -> Outcome:
        return Outcome(True)


def test_a_failing_action_is_a_refusal_and_the_next_press_still_works(factory: Any, panel_for: PanelMaker,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    control = Exploding()
    panel = panel_for(None, control=control)
    press(factory, panel, NEXT)
    assert panel.health.last["why"] == "failed: boom" and "NEXT button's action failed" in caplog.text
    press(factory, panel, NEXT)
    assert panel.health.last["done"] is True and control.calls == 2


def test_a_pin_in_use_disables_the_panel_with_the_reason_and_frees_the_others(factory: Any) -> None:
    squatter = importlib.import_module("gpiozero").LED(PAIR, pin_factory=factory)
    panel = ButtonPanel(WIRED, Exploding(), pin_factory=factory).start()
    assert panel.health.state == "disabled" and "GPIOPinInUse" in panel.health.reason
    assert panel.health.to_plain()["pins"] == WIRED.pins()
    squatter.close()
    again = ButtonPanel(WIRED, Exploding(), pin_factory=factory).start()  # nothing was left reserved
    assert again.health.state == "ok"
    again.close()
    panel.close()


def test_no_buttons_wired_is_off_and_touches_no_pin(factory: Any) -> None:
    panel = ButtonPanel(ButtonConfig(), Exploding(), pin_factory=factory).start()
    assert panel.health.state == "off"
    panel.close()


def test_close_is_safe_twice_releases_the_pins_and_ignores_later_presses(factory: Any) -> None:
    control = Exploding()
    panel = ButtonPanel(WIRED, control, pin_factory=factory).start()
    panel.close()
    panel.close()
    assert panel.health.state == "stopped" and not factory.pin(LIGHT).state
    panel.press("next")
    assert control.calls == 0
    again = ButtonPanel(WIRED, control, pin_factory=factory).start()
    assert again.health.state == "ok"
    again.close()


def test_an_unknown_button_name_is_a_bug() -> None:
    with pytest.raises(ValueError, match="no button called 'nxet'"):
        ButtonPanel(WIRED, Exploding()).press("nxet")


# -- what NEXT answers, prompt by prompt -------------------------------------------------------------

def choice(key: str, *ids: str, kind: str = "choice") -> Prompt:
    return Prompt(kind, key, f"{key}?", options=tuple(Option(i, i.title()) for i in ids))  # type: ignore[arg-type]


@pytest.mark.parametrize("prompt, answer", [
    (choice("monster-order", "strahd/monster", "carrionette/monster"), "strahd/monster"),
    (choice("attack-target", "hero:sorcerer", "hero:ranger"), "hero:sorcerer"),
    (choice("roll-perk", "sorcerer:lucky", "keep"), "keep"),
    (choice("dig-more", "silver-needle", "stop"), "stop"),
    (Prompt("action", "hero-action", "Sam's turn"), {"action": "end"}),
    (Prompt("action", "distanced-advance", "from afar?"), {"action": "skip"}),
])
def test_next_answers_the_defaults(prompt: Prompt, answer: object) -> None:
    assert next_answer(prompt).answer == answer


@pytest.mark.parametrize("prompt, why", [
    (Prompt("roll", "monster-dice", "Roll 2 Monster dice.", die="monster", count=2), "never guesses a roll"),
    (Prompt("roll", "defeat", "Roll the d20.", die="d20", count=1), "never guesses a roll"),
    (choice("item", "potion", "axe", kind="draw"), "never guesses a draw"),
    (choice("defend", "discard", "fall"), "the players' decision"),
    (choice("move-monster-to", "krezk", "vallaki"), "the players' decision"),
    (Prompt("pick", "defend-items", "Which 1?", options=(Option("a", "A"), Option("b", "B")), min_picks=1,
            max_picks=1), "the players' decision"),
    (Prompt("action", "manual-event", "Do what the card says."), "the players' decision"),
    (choice("a-key-from-a-later-version", "x", "y"), "the players' decision"),
    (None, "the game is over"),
])
def test_next_has_no_default_for_chance_or_real_decisions(prompt: Prompt | None, why: str) -> None:
    suggestion = next_answer(prompt)
    assert not suggestion.given and why in suggestion.why
