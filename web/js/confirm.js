// A confirmation for a change that is hard to take back: ending a phase with actions
// left, a choice that is for good, going back several steps. One dialog at a time, over
// the screen (outside it, so a redraw does not drop it); a new view of the game closes
// it unanswered, since what it asked about may no longer hold.

import { h } from "./dom.js";

let open = null; // { el, resolve }

/** Close the dialog on screen, if any, as a "no". */
export function dismissConfirm() {
  if (!open) return;
  const { el, resolve } = open;
  open = null;
  el.remove();
  resolve(false);
}

/**
 * Ask before a change: ``title`` in big letters, ``text`` under it, ``lines`` as a list
 * (the pieces to put back), ``yes`` and ``no`` as the two buttons' words.
 * Resolves true for yes, false for no (or when the view moves on).
 */
export function askConfirm({ title, text = "", lines = [], yes = "Yes", no = "No, go back", key = "" }) {
  dismissConfirm();
  return new Promise((resolve) => {
    const answer = (value) => { if (!open) return; open = null; el.remove(); resolve(value); };
    const el = h("div", { class: "confirm-backdrop", "data-testid": "confirm-backdrop",
                          onclick: (e) => { if (e.target === e.currentTarget) answer(false); } },
      h("div", { class: "confirm-dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-title",
                 "data-testid": "confirm", "data-key": key },
        h("h2", { id: "confirm-title" }, title),
        text ? h("p", { class: "confirm-text" }, text) : null,
        lines.length ? h("ul", { class: "confirm-lines", "data-testid": "confirm-lines" },
          lines.map((line) => h("li", { "data-testid": "confirm-line" }, line))) : null,
        h("div", { class: "confirm-buttons" },
          h("button", { class: "btn btn-huge", type: "button", "data-testid": "confirm-no", onclick: () => answer(false) }, no),
          h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "confirm-yes",
                        onclick: () => answer(true) }, yes))));
    open = { el, resolve };
    document.body.append(el);
    el.querySelector("[data-testid=confirm-no]").focus();
  });
}
