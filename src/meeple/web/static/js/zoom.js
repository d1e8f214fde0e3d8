// @ts-check
// The details panel of the play page: a larger picture of a card or square of the board and a sentence of what
// it does. On a desktop it follows the mouse (and the keyboard's focus) over the board; on a phone a long press
// on a card shows it (when the finger lifts), or the details button in the header turns taps into "show me" instead of "play".
//
// Independent of play.js and of the boards' drawing: a board module says what an element is by exporting
//   export function about(ctx, el) { return {title, text} or null }
// where ctx holds the page's table (t), the game's words (word), its printed tables (catalog) and its
// sentences (about: GET /api/web/boards/GAME's `about`, from the game's text catalog). The panel walks up
// from the element under the pointer to the board and shows the first one the board describes.

import { h, svg } from "./dom.js";

/** How long a finger rests on a card before its details show, in milliseconds. */
const PRESS = 450;
/** Classes and attributes of an offered element that its picture must not carry (the picture offers nothing). */
const OFFERED = ["act", "target", "selected"];

/**
 * @typedef {{t: (id: string, params?: Record<string, any>) => string, word: (english: string) => string,
 *   catalog: any, about: Record<string, string>, lang: string}} AboutContext
 * @typedef {{title: string, text: string}} Described
 * @typedef {(ctx: AboutContext, el: Element) => Described | null} About
 */

/**
 * The element of the board under `target` that the board describes, with its description.
 * @param {Element} board
 * @param {EventTarget | null} target
 * @param {About} about
 * @param {AboutContext} ctx
 * @returns {{el: Element, said: Described} | null}
 */
export function find(board, target, about, ctx) {
  for (let el = target instanceof Element ? target : null; el && el !== board; el = el.parentElement) {
    let said = null;
    try {
      said = about(ctx, el);
    } catch (e) {
      console.error(e);
      return null;
    }
    if (said && said.text) return { el, said };
  }
  return null;
}

/**
 * A copy of an SVG element drawn on its own, fitted to its box, with nothing clickable or findable in it.
 * @param {Element} el
 * @returns {SVGSVGElement | null}
 */
export function picture(el) {
  if (!(el instanceof SVGGraphicsElement)) return null;
  const box = el.getBBox();
  if (!box.width || !box.height) return null;
  const pad = 2;
  const copy = /** @type {Element} */ (el.cloneNode(true));
  for (const node of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of [...node.getAttributeNames()]) {
      if (name.startsWith("data-") || ["tabindex", "role", "aria-pressed", "id"].includes(name)) node.removeAttribute(name);
    }
    node.classList.remove(...OFFERED);
  }
  const root = el.closest("svg");
  return /** @type {SVGSVGElement} */ (svg("svg", {
    class: ["detail-picture", root ? root.getAttribute("class") : ""],
    viewBox: `${box.x - pad} ${box.y - pad} ${box.width + 2 * pad} ${box.height + 2 * pad}`,
    "aria-hidden": "true",
  }, copy));
}

/**
 * Watch `board` and show the details of what the pointer is on in `panel`.
 * @param {{board: HTMLElement, panel: HTMLElement, toggle: HTMLButtonElement | null,
 *   source: () => {about: About, ctx: AboutContext} | null}} parts
 */
export function installZoom({ board, panel, toggle, source }) {
  /** @type {Element | null} */
  let shown = null;
  let swallow = false; // the click that ends a long press shows, never plays
  /** @type {{at: number, x: number, y: number, target: EventTarget | null} | null} */
  let press = null; // a finger down on the board

  const hide = () => {
    shown = null;
    panel.hidden = true;
    panel.replaceChildren();
    delete document.body.dataset.detail;
  };
  /** Show what `target` is; true if the board describes it. */
  const show = (/** @type {EventTarget | null} */ target) => {
    const from = source();
    const found = from ? find(board, target, from.about, from.ctx) : null;
    if (!found) return false;
    if (found.el === shown && !panel.hidden) return true;
    shown = found.el;
    panel.replaceChildren(
      picture(found.el) || "",
      h("div", { class: "detail-words" }, h("h3", { class: "detail-title" }, found.said.title), h("p", { class: "detail-text" }, found.said.text)));
    panel.hidden = false;
    document.body.dataset.detail = "shown";
    return true;
  };
  const asking = () => toggle !== null && toggle.getAttribute("aria-pressed") === "true";

  board.addEventListener("pointerover", (e) => {
    if (e.pointerType === "mouse" && !show(e.target) && !asking()) hide();
  });
  board.addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse" && !asking()) hide();
  });
  board.addEventListener("focusin", (e) => { // the keyboard's focus, not a tap's or a click's
    if (e.target instanceof Element && e.target.matches(":focus-visible")) show(e.target);
  });
  // a long press, measured by the events' own times (never a timer): shown when the finger lifts, the
  // click that follows plays nothing
  board.addEventListener("pointerdown", (e) => {
    press = e.pointerType === "mouse" ? null : { at: e.timeStamp, x: e.clientX, y: e.clientY, target: e.target };
  });
  board.addEventListener("pointermove", (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) press = null; // a scroll, not a press
  });
  board.addEventListener("pointercancel", () => { press = null; });
  board.addEventListener("pointerup", (e) => {
    if (press && e.timeStamp - press.at >= PRESS && show(press.target)) swallow = true;
    press = null;
  });
  // in the capture phase, before the board's own handlers: a tap that asks for details plays nothing
  board.addEventListener("click", (e) => {
    if (swallow || asking()) {
      const described = show(e.target);
      if (swallow || described) {
        e.stopPropagation();
        e.preventDefault();
      }
      swallow = false;
    }
  }, true);
  board.addEventListener("contextmenu", (e) => {
    if (shown !== null) e.preventDefault(); // a long press shows details, not the browser's menu
  });
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const on = !asking();
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      document.body.dataset.asking = on ? "true" : "false";
      if (!on) hide();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hide();
  });
  // a new drawing replaces what was shown: keep the panel only while its element is on the board
  new MutationObserver(() => {
    if (shown !== null && !board.contains(shown)) hide();
  }).observe(board, { childList: true });
}
