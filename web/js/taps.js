// Tap safety: a tap counts only on the button that was under the finger when it went
// down, and not within GUARD_MS after that button appeared or changed because of
// something another device did (its answer redrew this screen). Without this, a finger
// already on its way lands on whatever was just drawn there and runs an action nobody
// chose. A redraw this tablet caused itself (its own answer, a screen it opened) arms
// nothing: the player is waiting for it. Keyboard activation (detail 0) is not a tap.
//
// Each render stamps its buttons: a button that looks the same as one drawn before at
// the same place (same test id, id, action and words) keeps its old time, so an answer
// elsewhere does not block buttons that did not change.

export const GUARD_MS = 350;
const TAPPABLE = "button, [role=button]"; // buttons, and the board's places that take a tap

const drawnAt = new WeakMap(); // button -> when it was drawn looking as it does
let stamps = new Map(); // signature -> time, from the last render
let down = null; // { button, counts } of the last pointerdown

function signature(button) {
  const box = button.getBoundingClientRect();
  const d = button.dataset;
  return [d.testid, d.id, d.action, d.face, d.value, button.textContent.trim(),
    Math.round(box.left / 8), Math.round(box.top / 8)].join("|");
}

/** After a render of ``root``: when each button was drawn. ``remote``: another device caused it. */
export function stampButtons(root, remote) {
  const now = performance.now();
  const next = new Map();
  for (const button of root.querySelectorAll(TAPPABLE)) {
    const sig = signature(button);
    const time = stamps.has(sig) ? stamps.get(sig) : remote ? now : -Infinity;
    drawnAt.set(button, time);
    next.set(sig, time);
  }
  stamps = next;
}

function freshFor(button, now) {
  const time = drawnAt.has(button) ? drawnAt.get(button) : -Infinity;
  return now - time < GUARD_MS;
}

/** Install the guard once for the page; ``onIgnored(button)`` says so on screen. */
export function guardTaps(doc, onIgnored) {
  doc.addEventListener("pointerdown", (event) => {
    const button = event.target.closest && event.target.closest(TAPPABLE);
    const now = performance.now();
    down = button ? { button, counts: !freshFor(button, now), age: now - (drawnAt.get(button) ?? -Infinity) } : null;
  }, true);
  doc.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(TAPPABLE);
    if (!button || event.detail === 0) return; // not a button, or the keyboard
    const ok = down && down.button === button && down.counts;
    // What the guard did with the last tap, for a look from outside (a test, the developer tools).
    doc.documentElement.dataset.lastTap = ok ? "counted" : !down || down.button !== button ? "ignored:moved" : "ignored:fresh";
    doc.documentElement.dataset.lastTapAge = down ? String(Math.round(Math.min(down.age, 1e9))) : "";
    down = null;
    if (ok) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    onIgnored(button);
  }, true);
}
