"""Issue 33, point 11: every game's screen on a phone (390 x 844) fits its width: the top bar wraps
(no hidden sideways scroller), Straszydła's 5 x 5 board fits, and nothing on the page is wider than
the phone, in any frame drawn since the page opened (a pack's own stylesheet applied late once
drew Straszydła's first frames 200 px too wide). Each game is opened on a phone as its players would: Ravenloft, the original Horrified
and Siege on the shared screen, Straszydła on a player's own phone."""

from __future__ import annotations

import random
from typing import Any, Callable

from companion.games.straszydla.packdata import load_pack
from companion.games.straszydla.setup import default_setup
from service_process import connect, ok
from ui_helpers import GAME, Server

PHONE = {"width": 390, "height": 844}
GAMES = {
    "ravenloft": {"monsters": ["baba-lysaga"], "heroes": [{"hero": "sorcerer", "player": "Sam"}, {"hero": "paladin", "player": "Ana"}]},
    "horrified": {"monsters": ["dracula", "creature"], "heroes": [{"hero": "mayor", "player": "Sam"}, {"hero": "courier", "player": "Ana"}]},
    "siege-of-barovia": {"players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cid"}], "dm": "box", "level": "normal", "seed": 1},
}


WIDER = """(width) => {
  const found = [];
  const bar = document.querySelector('.topbar');
  if (bar && bar.scrollWidth > bar.clientWidth + 1) found.push(`top bar ${bar.scrollWidth} px in ${bar.clientWidth}`);
  if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth} px`);
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    const out = r.width && r.right > width + 1;
    if (out && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1)) {
      found.push(`${el.className || el.tagName} ends at ${Math.round(r.right)} px: ${(el.textContent || '').slice(0, 40)}`);
    }
  }
  return found;
}"""

# Checks every frame the page draws, from the first: a screen drawn once too wide (before a
# stylesheet applies, say) makes the page jump sideways under the player's thumb.
EVERY_FRAME = f"""(() => {{
  const wider = {WIDER};
  window.__wider = [];
  const frame = () => {{
    const found = wider({PHONE["width"]});
    if (found.length && window.__wider.length < 5) window.__wider.push(found.slice(0, 4).join('; '));
    requestAnimationFrame(frame);
  }};
  requestAnimationFrame(frame);
}})();"""


def wider_than_the_phone(page: Any) -> list[str]:
    """What stuck out past the phone's right edge, or scrolled sideways inside itself (the top bar),
    in any frame drawn since the page opened and now."""
    now: list[str] = page.evaluate(WIDER, PHONE["width"])
    drawn: list[str] = page.evaluate("window.__wider")
    return drawn + now


def open_game(page: Any, url: str, game_id: str, seat: str | None = None) -> None:
    page.add_init_script(EVERY_FRAME)
    page.goto(f"{url}#/game/{game_id}")
    if seat is not None:
        page.locator(f"[data-testid=seat-claim][data-seat='{seat}']").click()
    page.locator(GAME).wait_for()


def test_ravenloft_horrified_and_siege_fit_a_phone_top_bar_and_all(server: Server, new_tablet: Callable[..., Any]) -> None:
    client = connect(server.url)
    try:
        games = {game: ok(client, "new_game", {"game": game, "name": "Phone", "setup": setup})["game_id"]
                 for game, setup in GAMES.items()}
    finally:
        client.disconnect()
    for game, game_id in games.items():
        phone = new_tablet(PHONE)
        open_game(phone, server.url, game_id)
        found = wider_than_the_phone(phone)
        assert found == [], (game, found)


def test_straszydla_5x5_board_fits_a_players_phone(server: Server, new_tablet: Callable[..., Any]) -> None:
    setup = default_setup(load_pack(), 4, random.Random(3))
    client = connect(server.url)
    try:
        game_id = ok(client, "new_game", {"game": "straszydla", "name": "Phone", "setup": setup})["game_id"]
    finally:
        client.disconnect()
    phone = new_tablet(PHONE)
    open_game(phone, server.url, game_id, seat="p2")
    assert phone.locator("[data-testid=sz-square]").count() == 25
    found = wider_than_the_phone(phone)
    assert found == [], found
