// @ts-check
// The board context every board module draws with, and the generic board of games without one.
//
// A board module (static/boards/<game>.js, or a third-party game's own; docs/web.md) exports
//   export function render(ctx) { ... }
// and draws ctx.view (the seat's view, in its JSON wire form) into ctx.root. It makes
// things clickable only through ctx.offer(element, commands), with commands taken from
// ctx.legal: so a seat can make only legal choices. Two more exports are optional: `turn(ctx)`, whose
// turn it is and why a seat may act outside it (js/turns.js), and `touched(record, ctx)`, the elements a
// record touched, marked after each drawing (js/highlight.js).

import { h, mount, seatName, svg } from "./dom.js";
import { LANG, t } from "./i18n.js";

/**
 * A command (or any value of the wire form): a JSON object with its `type` and its fields.
 * @typedef {{type: string, [field: string]: any}} Command
 */
/**
 * A seat as the lobby describes it.
 * @typedef {{seat: number, kind: string, name?: string | null, bot?: string | null, taken?: boolean, online?: boolean}} Player
 */
/**
 * A record as a seat saw it, with what a player reads of it (`text`, in the page's language).
 * @typedef {{seq: number, actor: number, command: Command, events?: any[], text?: string}} SeenRecord
 */
/**
 * What a page hands a board: the position and how to act on it.
 * @typedef {object} BoardOptions
 * @property {string} game the game's id
 * @property {any} view the seat's view in its JSON wire form
 * @property {Command[]} legal the seat's legal commands (empty when it may not act, and in the debugger)
 * @property {number | null} seat this seat; null for a spectator
 * @property {number} seats the seat count
 * @property {Player[]} players the lobby's players
 * @property {any} catalog the game's printed tables (GET /api/web/boards/GAME)
 * @property {SeenRecord[]} records the records as this seat saw them
 * @property {any} outcome the outcome once the match is over, else null
 * @property {number[]} [toAct] the seats that may act now (the server's `to_act`; the play page only)
 * @property {import("./turns.js").Turn | null} [turn] whose turn it is as the page says it: a board writes
 *   `turn.line` where it says who acts, so that it agrees with the badge and the players panel (js/turns.js)
 * @property {boolean} interactive false in the debugger and for spectators: draw, offer nothing
 * @property {(command: Command) => string | null} [textOf] the server's text of a legal command
 * @property {Record<string, string>} [words] the game's own words in the page's language (card and place names)
 * @property {string | null} [picture] the game's own text picture of the table as this seat sees it (the play
 *   socket's `picture`, asked for on the generic page), in the page's language where the game draws in it
 * @property {(command: Command) => void} play play a legal command
 * @property {() => void} redraw draw the position again
 */
/**
 * How a command reads on a button.
 * @typedef {(command: Command) => string} Label
 */
/**
 * The context a board's `render(ctx)` draws with (docs/web.md, "A board of your own").
 * @typedef {BoardOptions & {
 *   root: Element,
 *   h: typeof h,
 *   svg: typeof svg,
 *   describe: typeof describe,
 *   key: typeof key,
 *   seatName: (seat: number | null) => string,
 *   t: typeof t,
 *   lang: string,
 *   word: (english: string) => string,
 *   memo: {selected: any},
 *   readonly selected: any,
 *   select: (value: any) => void,
 *   offer: <E extends Element>(el: E, commands: Command[], label?: Label, how?: {target?: boolean}) => E,
 *   selects: <E extends Element>(el: E, value: any) => E,
 *   choose: (commands: Command[], label?: Label) => void,
 *   commands: (type: string, where?: (command: Command) => boolean) => Command[],
 * }} BoardContext
 */

/**
 * A plain one-line label for a command in its wire form, where the server sent no text:
 * {"type": "bid", "quantity": 2} -> "bid quantity 2".
 * @param {Command} command
 * @returns {string}
 */
export function describe(command) {
  const parts = [command.type];
  for (const [k, v] of Object.entries(command)) {
    if (k === "type") continue;
    parts.push(`${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return parts.join(", ").replace(", ", " ");
}

/**
 * Stable text for comparing two wire values.
 * @param {any} value
 * @returns {string}
 */
export function key(value) {
  return JSON.stringify(value);
}

/**
 * Build the context a board draws with.
 * @param {Element} root where the board draws
 * @param {Chooser} chooser the choice bar for several commands at one click
 * @param {BoardOptions} options the position and how to act on it
 * @param {{selected: any}} memo kept across draws of one position
 * @returns {BoardContext}
 */
export function makeContext(root, chooser, options, memo) {
  // the server's text of a legal command (legal_text, in the page's language), else its plain form
  /** @type {(label: Label) => Label} */
  const spoken = (label) => (c) => (options.textOf && options.textOf(c)) || label(c);
  /** @type {BoardContext} */
  const ctx = {
    ...options,
    root,
    h,
    svg,
    describe,
    key,
    seatName: (s) => seatName(s, options.players),
    t, // the page's string table (i18n.js): the board's own labels
    lang: LANG, // the page's language: "en" or "ru"
    word: (w) => (options.words && options.words[w]) || w, // the game's word (a card's name) in the page's language
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
      const go = (/** @type {Event} */ event) => {
        event.stopPropagation();
        if (commands.length === 1) options.play(commands[0]);
        else chooser.show(commands, spoken(label));
      };
      el.addEventListener("click", go);
      el.addEventListener("keydown", (e) => {
        if (e instanceof KeyboardEvent && (e.key === "Enter" || e.key === " ")) go(e);
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
      const go = (/** @type {Event} */ event) => {
        event.stopPropagation();
        ctx.select(chosen ? null : value);
      };
      el.addEventListener("click", go);
      el.addEventListener("keydown", (e) => {
        if (e instanceof KeyboardEvent && (e.key === "Enter" || e.key === " ")) go(e);
      });
      return el;
    },
    /** Offer `commands` as a row of choices at once (e.g. collections that fit the selected cards). */
    choose(commands, label = describe) {
      if (options.interactive && commands.length) chooser.show(commands, spoken(label));
    },
    /** The legal commands of one type, optionally filtered. */
    commands(type, where = (_c) => true) {
      return (options.legal || []).filter((c) => c.type === type && where(c));
    },
  };
  return ctx;
}

/** The choice bar under a board: several commands for one click, each a button. */
export class Chooser {
  /**
   * @param {HTMLElement} el the bar
   * @param {(command: Command) => void} play plays the chosen command
   */
  constructor(el, play) {
    this.el = el;
    this.play = play;
  }
  /**
   * @param {Command[]} commands
   * @param {Label} label
   */
  show(commands, label) {
    mount(
      this.el,
      h("span", { class: "choose-title" }, t("Choose:")),
      commands.map((c) => h("button", { class: "act target choice", onclick: () => this.play(c) }, label(c))),
      h("button", { class: "cancel", onclick: () => this.clear() }, t("Cancel")),
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
 * @param {BoardContext} ctx
 */
export function render(ctx) {
  const said = (c) => (ctx.textOf && ctx.textOf(c)) || describe(c);
  const buttons = (ctx.legal || []).map((c) => ctx.offer(h("button", { class: "command" }, said(c)), [c]));
  const told = (ctx.records || []).filter((r) => r.text).slice(-8).map((r) => h("li", {}, r.text));
  mount(
    ctx.root,
    h("section", { class: "generic" },
      // the game's own picture of the table, as its render draws it (text: shown as it is, never as markup)
      ctx.picture ? h("pre", { class: "picture", "aria-label": t("The table") }, ctx.picture) : null,
      told.length ? h("h3", {}, t("What happened")) : null,
      told.length ? h("ol", { class: "told" }, told) : null,
      h("h3", {}, t("Your commands")),
      buttons.length ? h("div", { class: "commands" }, buttons) : h("p", { class: "muted" }, ctx.interactive ? t("Nothing to do now.") : "—"),
      h("details", { class: "view-data" }, h("summary", {}, t("The view, as data")), tree(ctx.view)),
    ),
  );
}
