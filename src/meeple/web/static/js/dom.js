// @ts-check
// Small DOM helpers: build HTML and SVG elements from a tag, attributes and children.
// No framework: a page re-draws the part that changed from the data it holds.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class" && Array.isArray(value)) {
      el.setAttribute("class", value.filter(Boolean).join(" "));
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "label"). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: svg("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace the children of `el` by `children`. */
export function mount(el, ...children) {
  el.replaceChildren();
  fill(el, {}, children);
  return el;
}

/** A short message at the top of the page; errors stay until clicked. */
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div", { class: ["toast", kind], onclick: () => item.remove() }, text);
  box.append(item);
  if (kind !== "error") setTimeout(() => item.remove(), 4000);
  return item;
}

/** Seat names as players see them. */
export function seatName(seat, players) {
  if (seat === null || seat === undefined) return t("spectator");
  if (seat === -1) return t("the engine");
  const p = players && players[seat];
  if (p && p.name) return t("{name} (seat {n})", { name: p.name, n: seat });
  if (p && p.kind === "bot") return t("seat {n} ({bot} bot)", { n: seat, bot: t(p.bot) });
  return t("seat {n}", { n: seat });
}
