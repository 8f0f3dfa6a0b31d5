// DOM helpers: elements from data (text only: no HTML from data), and regions that are redrawn
// only when what they show has changed. A redrawn region gives the focus back to the element
// with the same `data-k` key, so a person's place on the page survives any number of events.

/** An element: `h("button", {class, onclick, text, ...attrs}, ...children)`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(4)) {
    if (c === null || c === undefined || c === false || c === "") continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Redraw `el`'s content with `build()` when `key` differs from the last drawn one. Focus inside
 * the region moves to the new element with the same `data-k` (or the same position in a group).
 */
export function region(el, key, build) {
  if (el.__key === key) return false;
  el.__key = key;
  const active = document.activeElement;
  const had = active && el.contains(active) && active !== el;
  const fk = had ? active.getAttribute("data-k") : null;
  const group = had ? active.closest("[data-group]") : null;
  const index = group ? [...group.querySelectorAll("[data-k]")].indexOf(active) : -1;
  const groupName = group?.getAttribute("data-group");
  const content = build();
  el.replaceChildren(...[content].flat(4).filter((c) => c !== null && c !== undefined && c !== false));
  if (had) {
    let target = fk ? el.querySelector(`[data-k="${CSS.escape(fk)}"]`) : null;
    if (!target && groupName) {
      const items = [...el.querySelectorAll(`[data-group="${CSS.escape(groupName)}"] [data-k]`)];
      target = items[Math.min(index, items.length - 1)] || null;
    }
    if (target) target.focus({ preventScroll: true });
  }
  return true;
}

/** A child element of `parent` made once (by class) and kept. */
export function part(parent, cls, tag = "div", attrs = {}) {
  let el = parent.querySelector(`:scope > .${cls}`);
  if (!el) {
    el = h(tag, { ...attrs, class: cls });
    parent.append(el);
  }
  return el;
}

/** Text that screen readers read and eyes do not see. */
export function sr(text) {
  return h("span", { class: "sr-only" }, text);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A decorative SVG of one path on a 100 × 100 box, filled with the text colour. */
export function svgPath(d, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", d);
  svg.append(path);
  return svg;
}
