// Straszydła's game data page: every tile, creature, imp, pact card, help-card row and cube
// colour of the box with where it comes from (the rulebook, the owner's check, or our guess).
// The owner confirms a guess against their own box, or corrects its values here: the record's
// fields open as a small form, and Save sends the owner-data document (the shared desk checks it
// with the pack's own loader; a refusal names each problem and keeps what was saved before).
// Only what differs from the box's values is kept, keyed by the record's id.

import { h } from "/js/dom.js";

const STATE_WORDS = { rulebook: "in the rulebook", confirmed: "you confirmed it", guess: "our guess" };
const HIDDEN = new Set(["id", "verified", "verified_fields", "note"]);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const clone = (value) => JSON.parse(JSON.stringify(value));

function game(app) {
  return app.route.game || app.screenPack || "straszydla";
}

export async function startData(app) {
  const reply = await app.conn.request("data_get", { game: game(app) });
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  app.szData = reply;
  app.render();
}

async function send(app, data, done) {
  const reply = await app.conn.request("data_save", { game: game(app), data });
  if (!reply.ok) {
    app.szEdit = app.szEdit && { ...app.szEdit, problems: reply.error.problems || [reply.error.message] };
    app.render();
    return;
  }
  if (done) app.szEdit = null;
  await startData(app);
}

function saved(app) {
  return clone(app.szData.data || {});
}

async function confirm(app, key) {
  const data = saved(app);
  await send(app, { ...data, confirmed: [...new Set([...(data.confirmed || []), key])] }, false);
}

// -- a record and where its correction goes ----------------------------------------------------------------

/** "tiles.tiles.centrum": the record in the files as the box has them now; "tiles.size": a value set whole. */
function recordOf(files, key) {
  const [stem, part, id] = key.split(".");
  const body = files[`${stem}.json`] || {};
  return id === undefined ? body[part] : (body[part] || []).find((r) => r.id === id);
}

function withCorrection(data, key, fields) {
  const [stem, part, id] = key.split(".");
  const changes = (data.changes ||= {});
  const file = (changes[stem] ||= {});
  if (id === undefined) (file.set ||= {})[part] = fields;
  else (file[part] ||= {})[id] = { ...(file[part][id] || {}), ...fields };
  data.confirmed = [...new Set([...(data.confirmed || []), key])];  // entered from the owner's own box
  return data;
}

function withoutCorrection(data, key) {
  const [stem, part, id] = key.split(".");
  const file = (data.changes || {})[stem] || {};
  if (id === undefined) delete (file.set || {})[part];
  else delete (file[part] || {})[id];
  data.confirmed = (data.confirmed || []).filter((k) => k !== key);
  return data;
}

/** The fields the owner changed, against the record as it was opened. */
function changedFields(edit) {
  const fields = {};
  for (const [name, value] of Object.entries(edit.values)) if (!same(value, edit.record[name])) fields[name] = value;
  return fields;
}

async function saveEdit(app) {
  const edit = app.szEdit;
  const fields = changedFields(edit);
  if (!Object.keys(fields).length) { app.szEdit = null; app.render(); return; }
  const whole = edit.key.split(".").length === 2;  // a value set whole (the board's size) is sent whole
  await send(app, withCorrection(saved(app), edit.key, whole ? { ...edit.values } : fields), true);
}

function open(app, key) {
  const record = clone(recordOf(app.szData.files, key));
  const values = Object.fromEntries(Object.entries(record).filter(([name]) => !HIDDEN.has(name)));
  app.szEdit = { key, record, values, problems: [] };
  app.render();
}

// -- the form ------------------------------------------------------------------------------------------------

function elementIds(app) {
  return ((app.szData.files["elements.json"] || {}).elements || []).map((e) => e.id);
}

const CHOICES = { time: ["day", "night"], kind: ["centre", "suburb", "district"] };

function choicesOf(app, name) {
  return CHOICES[name] || (name === "stack" || name === "element" ? elementIds(app) : null);
}

function numberInput(value, set, name) {
  return h("input", { class: "text-input sz-number", type: "number", step: "1", value: String(value), "data-field": name,
    oninput: (e) => set(e.target.value === "" ? e.target.value : Number(e.target.value)) });
}

function fieldInput(app, name, value, set) {
  const choices = choicesOf(app, name);
  if (choices) {
    return h("select", { class: "select", "data-field": name, onchange: (e) => set(e.target.value) },
      choices.map((c) => h("option", { value: c, selected: c === value }, c)));
  }
  if (typeof value === "boolean") return h("input", { type: "checkbox", checked: value, "data-field": name, onchange: (e) => set(e.target.checked) });
  if (typeof value === "number") return numberInput(value, set, name);
  if (Array.isArray(value)) {
    return h("input", { class: "text-input", type: "text", value: value.join(", "), "data-field": name,
      oninput: (e) => set(e.target.value.split(",").map((x) => x.trim()).filter(Boolean)) });
  }
  if (value && typeof value === "object") return countsInput(app, name, value, set);
  return h("input", { class: "text-input", type: "text", value: String(value ?? ""), "data-field": name, oninput: (e) => set(e.target.value) });
}

/** Cubes by element ("produces"), or the board's columns and rows: a number for each. */
function countsInput(app, name, value, set) {
  const keys = name === "produces" ? elementIds(app) : Object.keys(value);
  return h("span", { class: "sz-counts" }, keys.map((k) => h("label", {}, ` ${k} `, numberInput(value[k] || 0, (n) => {
    const next = { ...value, [k]: n };
    if (name === "produces" && !n) delete next[k];
    set(next);
  }, `${name}.${k}`))));
}

function editForm(app) {
  const edit = app.szEdit;
  const ids = elementIds(app).join(", ");
  return h("div", { class: "sz-data-form", "data-testid": "sz-data-form" },
    Object.entries(edit.values).map(([name, value]) => h("label", { class: "sz-data-field" }, h("span", {}, name), " ",
      fieldInput(app, name, value, (v) => { edit.values[name] = v; }))),
    Object.values(edit.values).some(Array.isArray) ? h("p", { class: "subtle" }, `Elements are written by id: ${ids}.`) : null,
    edit.problems.map((p) => h("p", { class: "hint", "data-testid": "sz-data-problem" }, p)),
    h("button", { class: "btn btn-primary", type: "button", "data-testid": "sz-data-save", onclick: () => saveEdit(app) }, "Save my box's values"),
    " ", h("button", { class: "btn", type: "button", "data-testid": "sz-data-cancel", onclick: () => { app.szEdit = null; app.render(); } }, "Cancel"));
}

// -- the page ------------------------------------------------------------------------------------------------

function stateWords(e) {
  return e.changed ? "you corrected it" : STATE_WORDS[e.state] || e.state;
}

function recordLine(app, e) {
  const editing = app.szEdit && app.szEdit.key === e.key;
  return h("li", { "data-testid": "sz-data-element", "data-key": e.key, "data-state": e.state, "data-changed": e.changed ? "yes" : "no" },
    h("strong", {}, e.name), ` — ${stateWords(e)}`, e.note && !e.changed ? h("span", { class: "subtle" }, ` (${e.note})`) : null, " ",
    e.state === "guess" ? h("button", { class: "btn", type: "button", "data-testid": "sz-data-confirm", onclick: () => confirm(app, e.key) },
      "It is right on my box") : null, " ",
    editing ? null : h("button", { class: "btn", type: "button", "data-testid": "sz-data-edit", onclick: () => open(app, e.key) }, "Correct"),
    e.changed && !editing ? h("button", { class: "btn", type: "button", "data-testid": "sz-data-undo",
      onclick: () => send(app, withoutCorrection(saved(app), e.key), false) }, "Back to the box's value") : null,
    editing ? editForm(app) : null);
}

export function dataScreen(app) {
  const loaded = app.szData;
  const head = h("header", { class: "page-head" }, h("button", { class: "btn", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "Straszydła: the game data"), app.connectionPill());
  if (!loaded) return h("div", { class: "page", "data-testid": "screen-data" }, head, h("p", {}, "Opening the box…"));
  const byKind = {};
  for (const element of loaded.status.elements) (byKind[element.kind] ||= []).push(element);
  return h("div", { class: "page", "data-testid": "screen-data" }, head,
    h("p", { class: "subtle" }, "Most of this box's card data is not printed in the rulebook: what is marked “our guess” may be wrong. Check it against your box: confirm it, or correct its values (new games play with them; games in play take them at their next step)."),
    (loaded.problems || []).map((p) => h("p", { class: "hint" }, p)),
    Object.entries(byKind).map(([kind, elements]) => h("section", { class: "panel" }, h("h2", {}, kind),
      h("ul", {}, elements.map((e) => recordLine(app, e))))));
}
