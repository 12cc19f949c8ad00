// Tiny DOM builders: h() for HTML elements, s() for SVG elements.
//
// h("button", {class: "big", "data-testid": "x", onclick: fn}, "text", child, [more])
// Attributes: `class`, `style` (a string), `on<event>` handlers, booleans
// (true sets an empty attribute, false/null/undefined leaves it out), anything
// else is set with setAttribute. Children: nodes, strings, numbers, arrays;
// null/false/undefined are skipped.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "style") {
      el.style.cssText = String(value); // through the CSSOM: the box's CSP refuses style attributes
    } else if (name === "value" && "value" in el && !(el instanceof SVGElement)) {
      el.value = value;
    } else if (name === "checked" || name === "disabled" || name === "selected") {
      el[name] = Boolean(value);
      if (value) el.setAttribute(name, "");
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Fold accents and case away, for filtering option lists by what a person types. */
export function folded(text) {
  return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** A <details> that stays as the player left it when its screen is drawn again: `shown` is read
 *  when it is drawn, and `told(open)` is called on the tap itself. The toggle event comes a task
 *  later; a screen drawn again in between (a view arriving, a choice made at once) would
 *  otherwise close what the player had just opened. */
export function keptDetails(attrs, shown, told, summary, ...children) {
  const el = h("details", { ...attrs, open: shown }, h("summary", { onclick: () => told(!el.open) }, summary), ...children);
  el.addEventListener("toggle", () => told(el.open));
  return el;
}

const sheets = new Map();

/** A pack's own stylesheet, added to the page once; resolves when it applies (or fails to load).
 *  A pack module awaits it before it is used, so its first screen is drawn styled: drawn before,
 *  its unstyled first frames are wider than a phone and the page jumps. */
export function packStylesheet(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.addEventListener("load", () => resolve(true));
      link.addEventListener("error", () => resolve(false)); // the screens still work, unstyled
      document.head.appendChild(link);
    }));
  }
  return sheets.get(href);
}
