"""The threat forecast on the tablet, in Chromium against the real service (docs/forecast.md):
during a Hero Phase the board glows dimly under each threatened place and the forecast panel
lists each hero's and villager's chances; "What if…?" on an action of the menu shows the forecast
after it without playing it, and is dismissed; the game stays where it was (same version, nothing
played); once the Monster Phase starts the glow and the panel are gone.

The Ravenloft game starts from a position with two Monster cards left, so each forecast takes a
few hundredths of a second. The numbers on screen are checked against the pack's own forecaster,
run here on the same position."""

from __future__ import annotations

from typing import Any, Callable

import requests

from companion.engine.game import Game
from companion.games.registry import pack_makers
from forecast_fixtures import AWAY, POSITION, expected
from ui_helpers import GAME, Server, shot, tap_action, version

GLOW_MOST = 0.6  # the opacity of a place at 1.0 (family/forecast.js)

def percent(x: float) -> str:
    """As the panel words a chance (whole percent; never 0 % or 100 % for one that is not)."""
    p = round(x * 100)
    return "0%" if x <= 0 else "100%" if x >= 1 else "<1%" if p == 0 else ">99%" if p == 100 else f"{p}%"


def shown_figure(cell: Any, found: dict[str, float]) -> None:
    """A figure as the panel shows it: the chance with the choices made at random, then the
    range the active player's choices give it (only where they change it)."""
    assert cell.get_by_test_id("forecast-main").inner_text() == percent(found["random"])
    low, high = percent(found["low"]), percent(found["high"])
    ranges = cell.get_by_test_id("forecast-range")
    assert ranges.count() == (low != high)
    if low != high:
        assert ranges.inner_text().endswith(f"can make it {low}–{high}")


def glow_on_board(page: Any) -> dict[str, float]:
    spots = page.locator("[data-testid=threat-glow] [data-testid=threat-spot]")
    found = {}
    for i in range(spots.count()):
        spot = spots.nth(i)
        level = float(spot.get_attribute("data-glow"))
        assert abs(float(spot.get_attribute("opacity")) - level * GLOW_MOST) < 0.002  # the opacity comes from the glow
        found[spot.get_attribute("data-id")] = level
    return found


def row(page: Any, kind: str, ident: str) -> Any:
    return page.locator(f"[data-testid=forecast-row][data-kind={kind}][data-id='{ident}']")


ESTIMATE = """() => {
  const kept = window.companion.forecast;
  const made = JSON.parse(JSON.stringify(kept));
  Object.assign(made.forecast, { exact: false, estimated: ["ambush"], estimate_error: 0.021 });
  made.forecast.characters.find((c) => c.id === "sorcerer").attacked = { low: 0.2, high: 0.45, random: 0.3 };
  window.companion.acceptForecast(made);
  return kept;
}"""


def shown_as_estimate(page: Any) -> None:
    """The same forecast as if a card had been estimated and the player's choices moved a chance
    (the shell takes it as a pushed one): never shown as exact, the likely figure first and the
    range under it; then the real forecast again."""
    kept = page.evaluate(ESTIMATE)
    panel = page.get_by_test_id("forecast")
    assert panel.get_attribute("data-exact") == "false" and page.get_by_test_id("forecast-estimate").count() == 1
    attacked = row(page, "hero", "sorcerer").get_by_test_id("forecast-attacked")
    assert attacked.get_by_test_id("forecast-main").inner_text() == "≈ 30%"  # the chance with the choices at random first
    assert attacked.get_by_test_id("forecast-range").inner_text().endswith("can make it 20%–45%")  # the range second
    assert all(cell.startswith("≈ ") for cell in page.get_by_test_id("forecast-defeated").all_inner_texts())
    assert "Ambush" in page.get_by_test_id("forecast-estimated").inner_text()
    assert "±2 points" in page.get_by_test_id("forecast-estimated").inner_text()
    page.evaluate("(kept) => window.companion.acceptForecast(kept)", kept)
    assert page.get_by_test_id("forecast").get_attribute("data-exact") == "true"


def import_game(server: Server) -> str:
    game_file = {"format": "companion-game", "version": 1, "game": "ravenloft", "name": "The coming Monster Phase",
                 "origin": {"position": POSITION}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=10).json()
    assert reply["ok"], reply
    return str(reply["game_id"])


def test_the_threat_glow_a_what_if_shown_and_dismissed_and_the_game_unchanged(
        server: Server, new_tablet: Callable[..., Any]) -> None:
    game_id = import_game(server)
    page = new_tablet()
    page.goto(f"{server.url}#/game/{game_id}")
    # an estimate is pushed first, then better ones: the exact one comes last
    page.locator(f"{GAME} [data-testid=forecast][data-ready=yes][data-exact=true]").wait_for()
    now, after = expected(), expected(AWAY)

    assert glow_on_board(page) == now["glow"] and now["glow"]
    panel = page.get_by_test_id("forecast")
    assert panel.get_attribute("data-exact") == "true" and page.get_by_test_id("forecast-estimate").count() == 0
    sorcerer = next(c for c in now["characters"] if c["id"] == "sorcerer")  # type: ignore[union-attr, index]
    shown_figure(row(page, "hero", "sorcerer").get_by_test_id("forecast-attacked"), sorcerer["attacked"])
    keeping = row(page, "hero", "sorcerer").get_by_test_id("forecast-keeping").inner_text()
    assert keeping.endswith(percent(sorcerer["defeated_keeping_items"]["random"])) and "never discard" in keeping
    assert row(page, "villager", "bildrath").count() == 1 and "Vallaki" in row(page, "hero", "sorcerer").inner_text()
    assert "Terror rises by" in page.get_by_test_id("forecast-terror").inner_text()
    shown_as_estimate(page)

    page.get_by_test_id("what-if").click()
    page.get_by_test_id("what-if-hint").wait_for()
    page.get_by_test_id("prompt").locator("[data-testid=action][data-action=move][data-to='lake-zarovich']").first.click()
    page.locator("[data-testid=forecast][data-what-if=yes][data-ready=yes]").wait_for()
    assert "Lake Zarovich" in page.get_by_test_id("what-if-label").inner_text()
    assert "Nothing was played" in page.get_by_test_id("what-if-label").inner_text()
    assert "Lake Zarovich" in row(page, "hero", "sorcerer").inner_text()  # where the Sorcerer would stand
    assert page.get_by_test_id("threat-glow").get_attribute("data-what-if") == "yes"
    assert glow_on_board(page) == after["glow"] != now["glow"]
    page.set_viewport_size({"width": 1280, "height": 1240})  # the board and the panel together
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "threat-forecast-what-if")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert version(page) == 0 and server.version(game_id) == 0  # nothing was sent to the game
    assert page.locator("[data-testid=token-hero][data-id='sorcerer']").get_attribute("data-location") == "vallaki"

    page.get_by_test_id("what-if-dismiss").click()
    page.locator("[data-testid=forecast][data-what-if=no][data-ready=yes]").wait_for()
    assert glow_on_board(page) == now["glow"]
    assert version(page) == 0 and server.version(game_id) == 0

    tap_action(page, "end")  # the Monster Phase starts: no forecast of it any more
    assert page.get_by_test_id("forecast").count() == 0
    assert page.locator("[data-testid=threat-spot]").count() == 0


def test_the_original_edition_shows_the_family_s_forecast_too(server: Server, new_tablet: Callable[..., Any]) -> None:
    """The family's code on the original Horrified: its glow, its panel and a what-if asked by
    tapping a glowing place on the board (the shell's own action menu), dismissed, nothing played."""
    original = pack_makers("")["horrified"]()
    cards = [c["id"] for c in original.pack_view()["cards"]]  # type: ignore[union-attr, index]
    position = {"phase": "hero", "monsters": {"mummy": "museum"},
                "heroes": [{"hero": "mayor", "player": "Ana", "at": "museum"}],
                "played_cards": cards[2:]}
    game = Game(original.rules, {"position": position})
    forecaster = original.forecaster()
    assert forecaster is not None
    now = forecaster.forecast(game)
    assert now is not None
    move = next(a for a in original.action_menu(game, None) if a["action"] == "move")
    after = forecaster.what_if(game, {k: v for k, v in move.items() if k != "label"})
    game_file = {"format": "companion-game", "version": 1, "game": "horrified", "name": "The mummy's next move",
                 "origin": {"position": position}, "journal": []}
    reply = requests.post(f"{server.url}api/games/import", json=game_file, timeout=10).json()
    assert reply["ok"], reply

    page = new_tablet()
    page.goto(f"{server.url}#/game/{reply['game_id']}")
    page.locator(f"{GAME} [data-testid=forecast][data-ready=yes][data-exact=true]").wait_for()
    assert glow_on_board(page) == now["glow"] and now["glow"]
    assert row(page, "hero", "mayor").count() == 1

    page.get_by_test_id("what-if").click()
    page.locator(f"[data-testid=loc][data-id='{move['to']}'][data-target]").click()
    page.locator("[data-testid=forecast][data-what-if=yes][data-ready=yes]").wait_for()
    assert glow_on_board(page) == after["glow"]
    page.get_by_test_id("what-if-dismiss").click()
    page.locator("[data-testid=forecast][data-what-if=no][data-ready=yes]").wait_for()
    assert version(page) == 0 and server.version(reply["game_id"]) == 0
