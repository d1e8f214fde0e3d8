// The board context every board module draws with, and the generic board of games without one.
//
// A board module (static/boards/<game>.js, or a third-party game's own; docs/web.md) exports
//   export function render(ctx) { ... }
// and draws ctx.view (the seat's view, in its JSON wire form) into ctx.root. It makes
// things clickable only through ctx.offer(element, commands), with commands taken from
// ctx.legal: so a seat can make only legal choices.

import { h, mount, seatName, svg } from "./dom.js";

/** A readable one-line label for a command in its wire form: {"type": "bid", "quantity": 2} -> "bid quantity 2". */
export function describe(command) {
  const parts = [command.type];
  for (const [k, v] of Object.entries(command)) {
    if (k === "type") continue;
    parts.push(`${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return parts.join(", ").replace(", ", " ");
}

/** Stable text for comparing two wire values. */
export function key(value) {
  return JSON.stringify(value);
}

/**
 * Build the context a board draws with.
 *  options: {view, legal, seat, seats, players, catalog, records, outcome, interactive, play, redraw, game}
 */
export function makeContext(root, chooser, options, memo) {
  // the server's text of a legal command (legal_text, in the page's language), else the board's own label
  const spoken = (label) => (c) => (options.textOf && options.textOf(c)) || label(c);
  const ctx = {
    ...options,
    root,
    h,
    svg,
    describe,
    key,
    seatName: (s) => seatName(s, options.players),
    memo, // survives re-draws of one position: {selected}
    get selected() {
      return memo.selected ?? null;
    },
    /** Select something (a card, a source) and draw again; null clears. */
    select(value) {
      memo.selected = value;
      chooser.clear();
      options.redraw();
    },
    /** Make `el` act on `commands` (legal ones): one plays at once, several are offered as choices. */
    offer(el, commands, label = describe, { target = true } = {}) {
      if (!options.interactive || !commands || commands.length === 0) return el;
      el.classList.add("act");
      if (target) el.classList.add("target");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      const go = (event) => {
        event.stopPropagation();
        if (commands.length === 1) options.play(commands[0]);
        else chooser.show(commands, spoken(label));
      };
      el.addEventListener("click", go);
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") go(e);
      });
      return el;
    },
    /** Make `el` select `value` when clicked (a first step: the card before the cell). */
    selects(el, value) {
      if (!options.interactive) return el;
      const chosen = key(memo.selected) === key(value);
      el.classList.add(chosen ? "selected" : "act");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
      const go = (event) => {
        event.stopPropagation();
        ctx.select(chosen ? null : value);
      };
      el.addEventListener("click", go);
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") go(e);
      });
      return el;
    },
    /** Offer `commands` as a row of choices at once (e.g. collections that fit the selected cards). */
    choose(commands, label = describe) {
      if (options.interactive && commands.length) chooser.show(commands, spoken(label));
    },
    /** The legal commands of one type, optionally filtered. */
    commands(type, where = () => true) {
      return (options.legal || []).filter((c) => c.type === type && where(c));
    },
  };
  return ctx;
}

/** The choice bar under a board: several commands for one click, each a button. */
export class Chooser {
  constructor(el, play) {
    this.el = el;
    this.play = play;
  }
  show(commands, label) {
    mount(
      this.el,
      h("span", { class: "choose-title" }, "Choose:"),
      commands.map((c) => h("button", { class: "act target choice", onclick: () => this.play(c) }, label(c))),
      h("button", { class: "cancel", onclick: () => this.clear() }, "Cancel"),
    );
    this.el.hidden = false;
  }
  clear() {
    this.el.replaceChildren();
    this.el.hidden = true;
  }
}

/** A JSON value as a collapsible tree. */
export function tree(value, label = null, depth = 0) {
  const head = label === null ? null : h("span", { class: "tree-key" }, label);
  if (value === null || typeof value !== "object") {
    const cls = value === null ? "null" : typeof value;
    return h("div", { class: "tree-leaf" }, head, head ? ": " : null, h("span", { class: `tree-${cls}` }, JSON.stringify(value)));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (entries.length === 0) {
    return h("div", { class: "tree-leaf" }, head, head ? ": " : null, Array.isArray(value) ? "[]" : "{}");
  }
  const summary = Array.isArray(value) ? `[${entries.length}]` : value.type ? `${value.type}` : "{…}";
  return h(
    "details",
    { class: "tree", open: depth < 2 || null },
    h("summary", {}, head, head ? " " : null, h("span", { class: "tree-summary" }, summary)),
    entries.map(([k, v]) => tree(v, k, depth + 1)),
  );
}

/**
 * The generic board: what happened and every legal command, in the game's own words (the server's
 * Game.text of each record and command, in the page's language), and the view as data underneath.
 */
export function render(ctx) {
  const said = (c) => (ctx.textOf && ctx.textOf(c)) || describe(c);
  const buttons = (ctx.legal || []).map((c) => ctx.offer(h("button", { class: "command" }, said(c)), [c]));
  const told = (ctx.records || []).filter((r) => r.text).slice(-8).map((r) => h("li", {}, r.text));
  mount(
    ctx.root,
    h("section", { class: "generic" },
      told.length ? h("h3", {}, "What happened") : null,
      told.length ? h("ol", { class: "told" }, told) : null,
      h("h3", {}, "Your commands"),
      buttons.length ? h("div", { class: "commands" }, buttons) : h("p", { class: "muted" }, ctx.interactive ? "Nothing to do now." : "—"),
      h("details", { class: "view-data" }, h("summary", {}, "The view, as data"), tree(ctx.view)),
    ),
  );
}
