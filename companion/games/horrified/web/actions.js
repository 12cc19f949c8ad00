// The original's hero actions on the prompt panel (the shell asks its pack module for the body of
// an action question). The menu the companion sends holds one Move per place and one Share; two of
// its choices are the players' to shape before they are sent, as the rules let them:
//   - a Move from a place with villagers: "You may take any number of Villagers in your Hero's space
//     with you" - some, none or all of them, ticked on a short list;
//   - a Share between the heroes in one space: which item (or relic) goes to whom, each way, all of it
//     one action.
// Everything else is one button per action of the menu, finishers last, as the shell draws it.

import { h } from "/js/dom.js";

const FINISHERS = ["end", "skip", "done"];

/** Whether a menu action is shaped by the players first (it opens its form instead of being sent). */
function shaped(action) {
  return action.action === "share" || (action.action === "move" && Array.isArray(action.villagers) && action.villagers.length > 0);
}

function plain(action) {
  const { label, ...answer } = action;
  return answer;
}

/** Open the form of a menu action (a Move with villagers at hand, or a Share): from a button or a board tap. */
export function shape(app, action) {
  app.ui.editing = { ...plain(action), label: action.label };
  app.ui.picks = action.action === "move" ? Object.fromEntries(action.villagers.map((v) => [v, true])) : {};
  app.refreshPrompt();
}

/** A tap on a glowing place: a Move there with villagers at hand opens its form (family/taps.js sends it whole). */
export function escortTaps(app, targets) {
  for (const action of app.view.actions || []) {
    const target = targets[action.to];
    if (target && target.kind === "move" && shaped(action)) target.run = () => shape(app, action);
  }
  return targets;
}

export function actionBody(app, prompt) {
  const editing = app.ui.editing;
  if (editing && editing.action === "move") return escortForm(app, editing);
  if (editing && editing.action === "share") return shareForm(app, editing);
  const menu = app.view.actions || [];
  if (!menu.length) return h("p", { class: "subtle" }, "No actions are offered.");
  const button = (action) => h("button", {
    class: `btn action${FINISHERS.includes(action.action) ? " btn-finish" : ""}`, type: "button", "data-testid": "action",
    "data-action": action.action, "data-to": action.action === "move" ? action.to : null,
    onclick: () => (shaped(action) ? shape(app, action) : app.answer(plain(action))),
  }, h("span", { class: "opt-main" }, shaped(action) ? shapedLabel(app, action) : action.label));
  return [h("div", { class: "options" }, menu.filter((a) => !FINISHERS.includes(a.action)).map(button)),
    h("div", { class: "finishers" }, menu.filter((a) => FINISHERS.includes(a.action)).map(button))];
}

function shapedLabel(app, action) {
  return action.action === "move" ? `Move to ${app.names.place(action.to)}…` : "Share items…";
}

function formButtons(app, send, label, disabled = false) {
  return h("div", { class: "finishers" },
    h("button", { class: "btn", type: "button", "data-testid": "form-cancel",
                  onclick: () => { app.ui.editing = null; app.ui.picks = {}; app.refreshPrompt(); } }, "Cancel"),
    h("button", { class: "btn btn-primary btn-huge btn-finish", type: "button", "data-testid": "form-send", disabled,
                  onclick: send }, label));
}

// -- Move: which villagers come along -------------------------------------------------------------------------
function escortForm(app, move) {
  const { names } = app;
  const picks = app.ui.picks;
  const along = move.villagers.filter((v) => picks[v]);
  const tick = (v) => h("label", { class: "check-row" },
    h("input", { type: "checkbox", "data-testid": "escort", "data-id": v, checked: Boolean(picks[v]),
                 onchange: (event) => { picks[v] = event.target.checked; app.refreshPrompt(); } }),
    h("span", {}, names.villager(v)));
  const words = along.length ? `Move to ${names.place(move.to)} with ${along.map((v) => names.villager(v)).join(", ")}`
    : `Move to ${names.place(move.to)} alone`;
  return h("div", { class: "escort-form", "data-testid": "escort-form", "data-to": move.to },
    h("p", { class: "prompt-hint" }, "Who comes along? Any number of the villagers here may, or none."),
    h("div", { class: "options" }, move.villagers.map(tick)),
    formButtons(app, () => app.answer({ action: "move", to: move.to, villagers: along }), words));
}

// -- Share: who gets what, each way ---------------------------------------------------------------------------
function shareForm(app, share) {
  const { names, view } = app;
  const picks = app.ui.picks;
  const heroes = [...new Set(share.give.flatMap((g) => [g.from, g.to]))].filter((id) => view.state.heroes[id]);
  const things = heroes.flatMap((from) => [
    ...view.state.heroes[from].items.map((id) => ({ key: `item:${id}`, give: { item: id }, from, name: names.item(id) })),
    ...(view.state.heroes[from].relics || []).map((id) => ({ key: `relic:${id}`, give: { relic: id }, from, name: names.relic(id) })),
  ]);
  const gives = things.filter((t) => picks[t.key]).map((t) => ({ ...t.give, from: t.from, to: picks[t.key] }));
  const row = (t) => h("li", {}, h("label", {}, h("span", {}, t.name),
    h("select", { class: "select", "data-testid": "share-select", "data-thing": t.key, "aria-label": `${t.name}: who gets it`,
                  onchange: (event) => { picks[t.key] = event.target.value; app.refreshPrompt(); } },
      [["", "keeps it"], ...heroes.filter((to) => to !== t.from).map((to) => [to, `to ${names.hero(to)}`])].map(([value, text]) =>
        h("option", { value, selected: (picks[t.key] || "") === value }, text)))));
  const mine = (from) => things.filter((t) => t.from === from);
  return h("div", { class: "share-editor", "data-testid": "share-editor" },
    h("p", { class: "prompt-hint" }, "Choose who gets each item; every hand-over together, either way, is one action."),
    heroes.map((from) => h("section", { class: "share-hero", "data-testid": "share-hero", "data-id": from },
      h("h3", {}, `${names.hero(from)} gives`),
      mine(from).length ? h("ul", { class: "share-list" }, mine(from).map(row)) : h("p", { class: "subtle" }, "Nothing to give."))),
    formButtons(app, () => app.answer({ action: "share", give: gives }),
      gives.length ? `Share: ${gives.length} item${gives.length === 1 ? "" : "s"} change hands (1 action)` : "Choose what changes hands",
      gives.length === 0));
}
