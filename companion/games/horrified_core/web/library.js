// The family's library of printed components (#/data/cards, /items, /perks,
// /heroes): the page, saving an entry (into the working copy of datastatus.js,
// saved at once; what the owner typed from their own box counts as confirmed), the
// parts of an entry's form, and the items (name, colour, strength, where it is put),
// which every edition prints alike. The other tabs are the edition's, handed in
// as `edition.library.tabs` ({page: (app, ctx) => parts}), with `itemTypes`
// ([[id, words]]) for the items.

import { h } from "/js/dom.js";
import { sentence } from "/js/connection.js";
import { checksPanel, clone, dataHead, edition, editWork, loadingPage, saveBar, saveDoc, stateBadge, statusOf, workFiles } from "./datastatus.js";

/** What a tab draws from: the working copy's files, the pack's symbols, villagers and the main board's places. */
export function libraryContext(app) {
  const files = workFiles(app);
  return {
    files,
    symbols: (app.packCache || app.pack || {}).symbols || {},
    villagers: files["villagers.json"].villagers,
    places: files["board.json"].locations.filter((l) => (l.area ?? "board") === "board"),
  };
}

// -- saving an entry ---------------------------------------------------------------------------------------
/** Put the fields of one element (none: leave them as they are) into an owner-data document, and
 * confirm it if asked: the one way an entry goes in, from the library or from the table. */
export function putEntry(doc, stem, id, fields, confirm) {
  if (fields) ((doc.changes[stem] ||= {})[stem] ||= {})[id] = clone(fields);
  const key = `${stem}.${stem}.${id}`;
  if (confirm && !doc.confirmed.includes(key)) doc.confirmed.push(key);
}

/** Put the fields of one element into the working copy, confirm it if asked, and save. */
export async function enter(app, stem, id, fields, confirm) {
  editWork(app, (work) => putEntry(work, stem, id, fields, confirm), { render: false });
  const saved = await saveDoc(app);
  if (saved) { app.data.form = null; app.render(); }
  else app.render();
}

export function formButtons(app, testid, onSave, label = "Save this and use it") {
  return h("div", { class: "cal-buttons" },
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": testid, disabled: app.data.saving, onclick: onSave },
      app.data.saving ? "Saving…" : label),
    h("button", { class: "btn btn-huge", type: "button", "data-testid": "lib-form-cancel", onclick: () => { app.data.form = null; app.render(); } }, "Cancel"));
}

export function formErrors(form) {
  return form.errors && form.errors.length
    ? h("ul", { class: "cal-problems", "data-testid": "lib-form-errors" }, form.errors.map((e) => h("li", {}, e))) : null;
}

// -- items ----------------------------------------------------------------------------------------------------
export function itemDraft(item) {
  return { name: item.name, type: item.type, strength: item.strength, location: item.location };
}

/** An item draft as the item's fields, or what keeps it from being saved (`errors`). */
export function itemFields(d) {
  return { errors: d.name.trim() ? [] : ["Give the item its name."],
           fields: { name: d.name.trim(), type: d.type, strength: d.strength, location: d.location } };
}

/** An item's form rows: name, type, strength and where it is put. */
export function itemEditor(d, ctx) {
  return [
    h("label", { class: "field" }, "Name", h("input", { class: "text-input", type: "text", "data-testid": "item-name", value: d.name, oninput: (e) => { d.name = e.target.value; } })),
    h("label", { class: "field" }, "Type", h("select", { class: "select", "data-testid": "item-type", onchange: (e) => { d.type = e.target.value; } },
      edition.library.itemTypes.map(([id, label]) => h("option", { value: id, selected: d.type === id }, label)))),
    h("label", { class: "field" }, "Strength", h("select", { class: "select", "data-testid": "item-strength", onchange: (e) => { d.strength = Number(e.target.value); } },
      [1, 2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: d.strength === n }, String(n))))),
    h("label", { class: "field" }, "Where it is put", h("select", { class: "select", "data-testid": "item-location", onchange: (e) => { d.location = e.target.value; } },
      ctx.places.map((l) => h("option", { value: l.id, selected: d.location === l.id }, l.name)))),
  ];
}

function itemForm(app, ctx) {
  const form = app.data.form;
  const d = form.draft;
  const save = () => {
    const { errors, fields } = itemFields(d);
    form.errors = errors;
    if (form.errors.length) { app.render(); return; }
    enter(app, "items", form.target, fields, true);
  };
  return h("section", { class: "panel lib-form", "data-testid": "lib-item-form", "data-id": form.target },
    h("h2", {}, `Item: ${d.name || form.target}`),
    itemEditor(d, ctx),
    formErrors(form), formButtons(app, "lib-item-save", save));
}

export function itemsTab(app, ctx) {
  const items = ctx.files["items.json"].items;
  const places = Object.fromEntries(ctx.files["board.json"].locations.map((l) => [l.id, l.name]));
  return [
    app.data.form && app.data.form.type === "item" ? itemForm(app, ctx) : null,
    h("section", { class: "panel" }, h("h2", {}, `Items (${items.length})`),
      h("ul", { class: "data-elements", "data-testid": "lib-items" }, items.map((item) => {
        const state = statusOf(app, `items.items.${item.id}`)?.state || (item.verified ? "confirmed" : "guess");
        return h("li", { class: `data-element state-row-${state}`, "data-testid": "lib-item", "data-id": item.id, "data-state": state },
          h("div", { class: "data-element-text" }, h("strong", {}, item.name),
            h("small", {}, `${item.type} ${item.strength} · ${places[item.location] || item.location}`)),
          stateBadge(state),
          h("button", { class: "btn", type: "button", "data-testid": "lib-item-edit", "data-id": item.id, onclick: () => {
            app.data.form = { type: "item", target: item.id, draft: itemDraft(item) };
            app.render();
            window.scrollTo(0, 0);
          } }, "Edit"));
      }))),
  ];
}

// -- the screen -----------------------------------------------------------------------------------------------------
const TITLES = { cards: "Monster cards", items: "Items", perks: "Perk cards", heroes: "Hero tables" };

export function renderLibrary(app) {
  const page = app.route.page;
  const title = TITLES[page] || "Card library";
  if (!app.data || !app.data.loaded) return loadingPage(app, title);
  if (!app.packCache) {
    app.loadPack(edition.game).then(() => { if (app.route.name === "data") app.render(); }, (e) => app.showBanner("error", sentence(String(e.message || e))));
  }
  if (app.data.form && app.data.form.page !== page) {
    if (app.data.form.page) app.data.form = null; // a form of another tab is dropped on switching tabs
  }
  if (app.data.form && !app.data.form.page) app.data.form.page = page;
  const ctx = libraryContext(app);
  const tab = (edition.library.tabs || {})[page] || (page === "items" ? itemsTab : null);
  const body = tab ? tab(app, ctx) : h("p", { "data-testid": "lib-no-page" }, "This box has no such page.");
  return h("div", { class: "page data-page", "data-testid": `screen-library-${page}` },
    ...dataHead(app, title),
    h("div", { class: "lib-body" }, h("div", { class: "lib-main" }, body), h("div", { class: "lib-side" }, saveBar(app), checksPanel(app))));
}
