// The form of one Effect (a Monster card's Event, a Perk card, a hero's special action):
// which primitive of the edition's library it is, its params and its words. The
// primitives differ by edition (each names its own in its library.js), the way each
// param is entered does not: a villager, a place, a symbol or a monster is picked from
// the box's own, a yes/no is a tick, a `nested` param (a sequence's steps) is a list of
// Effects of the same library, anything else is a whole number.
//
// A library: { kinds: {kind: {label, params: [names], nested?: name}}, words: {param: label},
//              flags: [names], negative: [names that may go below 1] }.

import { h } from "/js/dom.js";

/** A symbol as the owner reads it: its name where the box gives one, else its id and colour. */
export function symbolWord(symbols, id) {
  if (id === "frenzy") return "Frenzy";
  const sym = symbols[id] || {};
  const upper = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;
  return sym.name ? upper(sym.name) : `${upper(id)}${sym.colour ? ` (${sym.colour})` : ""}`;
}

/** A new step of a sequence: the first kind that does something by itself. */
function firstStepKind(library) {
  return Object.keys(library.kinds).find((k) => k !== "none" && k !== "manual" && !library.kinds[k].nested) || "none";
}

/** A new param's value: the first of the box's villagers, places, symbols or monsters, a tick, one step. */
export function defaultParam(library, kind, name, ctx) {
  if (library.kinds[kind]?.nested === name) return [freshEffect(library, firstStepKind(library), ctx)];
  if (name === "villager") return ctx.villagers[0]?.id ?? "";
  if (name === "location") return ctx.places[0]?.id ?? "";
  if (name === "symbol") return Object.keys(ctx.symbols)[0] ?? "";
  if (name === "monster") return ctx.monsters[0]?.id ?? "";
  if ((library.flags || []).includes(name)) return library.defaults?.[name] ?? false;
  return library.defaults?.[name] ?? 1;
}

/** An Effect as it is saved: words left empty (its own, or a step's) are its kind's. */
export function effectFields(library, effect) {
  const spec = library.kinds[effect.kind];
  const params = { ...(effect.params || {}) };
  if (spec && spec.nested && Array.isArray(params[spec.nested])) params[spec.nested] = params[spec.nested].map((step) => effectFields(library, step));
  return { kind: effect.kind, params, text: String(effect.text || "").trim() || spec?.label || effect.kind };
}

export function freshEffect(library, kind, ctx) {
  const effect = { kind, params: {}, text: "" };
  for (const name of library.kinds[kind].params) effect.params[name] = defaultParam(library, kind, name, ctx);
  return effect;
}

function kindSelect(app, effect, library, ctx, prefix, without) {
  const kinds = Object.entries(library.kinds).filter(([kind]) => !without.includes(kind));
  return h("select", { class: "select", "data-testid": `${prefix}-kind`, "aria-label": "What happens",
    onchange: (e) => {
      // The words were the other kind's: a new kind is described anew.
      Object.assign(effect, freshEffect(library, e.target.value, ctx));
      app.render();
    } },
    kinds.map(([kind, { label }]) => h("option", { value: kind, selected: effect.kind === kind }, label)),
    library.kinds[effect.kind] ? null : h("option", { value: effect.kind, selected: true }, `${effect.kind} (kept as it is)`));
}

/**
 * Kind, params and text of an Effect of `library`; `prefix` names its data-testids.
 * `optionalSymbol`: any kind may say which symbol it is about (a Monster card's Event).
 * `without`: kinds not offered here (a sequence's steps are no sequence).
 */
export function effectEditor(app, effect, library, ctx, prefix, { optionalSymbol = false, without = [] } = {}) {
  const spec = library.kinds[effect.kind];
  const params = spec ? [...spec.params] : [];
  if (spec && optionalSymbol && !params.includes("symbol")) params.push("symbol?");
  return h("div", { class: "effect-editor", "data-testid": `${prefix}-effect` },
    kindSelect(app, effect, library, ctx, prefix, without),
    params.map((raw) => {
      const optional = raw.endsWith("?");
      const name = raw.replace("?", "");
      if (spec.nested === name) return stepsEditor(app, effect, name, library, ctx, prefix);
      return h("label", { class: "ed-row" }, h("span", {}, optional ? library.words.optionalSymbol || "About which symbol (optional)" : library.words[name] || name),
        paramInput(effect, name, library, ctx, `${prefix}-param`, optional));
    }),
    h("input", { class: "text-input", type: "text", "data-testid": `${prefix}-text`, placeholder: "What it says, in your words", value: effect.text || "",
                 oninput: (e) => { effect.text = e.target.value; } }));
}

/** A sequence's steps: each an Effect of the same library (but no sequence), in order; one at least. */
function stepsEditor(app, effect, name, library, ctx, prefix) {
  const steps = Array.isArray(effect.params[name]) ? effect.params[name] : (effect.params[name] = []);
  const without = Object.keys(library.kinds).filter((k) => library.kinds[k].nested);
  return h("div", { class: "effect-steps", "data-testid": `${prefix}-steps` },
    steps.map((step, i) => h("div", { class: "effect-step", "data-testid": `${prefix}-step`, "data-index": i },
      h("span", { class: "label" }, `Then ${i + 1}:`),
      effectEditor(app, step, library, ctx, `${prefix}-step`, { without }),
      steps.length > 1 ? h("button", { class: "btn btn-small", type: "button", "data-testid": `${prefix}-step-remove`, "aria-label": "Remove this step",
                                       onclick: () => { steps.splice(i, 1); app.render(); } }, "✕") : null)),
    h("button", { class: "btn", type: "button", "data-testid": `${prefix}-step-add`,
                  onclick: () => { steps.push(freshEffect(library, firstStepKind(library), ctx)); app.render(); } }, "+ Add a step"));
}

function choices(name, ctx) {
  if (name === "villager") return ctx.villagers.map((v) => [v.id, v.name]);
  if (name === "location") return ctx.places.map((l) => [l.id, l.name]);
  if (name === "monster") return ctx.monsters.map((m) => [m.id, m.name]);
  if (name === "symbol") return Object.keys(ctx.symbols).map((id) => [id, symbolWord(ctx.symbols, id)]);
  return null;
}

function paramInput(effect, name, library, ctx, testid, optional) {
  const value = effect.params[name];
  const set = (v) => { if (optional && (v === "" || v == null)) delete effect.params[name]; else effect.params[name] = v; };
  const attrs = { "data-testid": testid, "data-param": name };
  const options = choices(name, ctx);
  if (options) {
    return h("select", { class: "select", ...attrs, onchange: (e) => set(e.target.value) },
      optional ? h("option", { value: "", selected: value == null }, "— none —") : null,
      options.map(([id, label]) => h("option", { value: id, selected: value === id }, label)));
  }
  if ((library.flags || []).includes(name)) {
    return h("input", { type: "checkbox", class: "check-input", ...attrs, checked: Boolean(value), onchange: (e) => set(e.target.checked) });
  }
  const low = (library.negative || []).includes(name) ? -10 : 1;
  return h("input", { class: "text-input num-input", type: "number", step: 1, min: low, max: 10, ...attrs,
                      value: String(value ?? 1), oninput: (e) => { if (e.target.value !== "") set(Math.trunc(Number(e.target.value))); } });
}
