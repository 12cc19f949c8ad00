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
