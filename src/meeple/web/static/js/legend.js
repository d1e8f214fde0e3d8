// @ts-check
// The legend of each bundled game's board: every abbreviation, number format and symbol the board draws,
// shown as the board shows it (in the page's language) with a sentence of what it means.
//
// An entry is {show, mark, say}: `show` lists the board's own strings (made with the same message ids and
// the game's words as the board, so the two cannot drift apart in either language), `mark` draws a symbol the
// board uses without words, and `say` is the explanation, from the page's string table (strings.js). tests/web/test_rules_help.py
// reads every string a drawn board shows and holds each abbreviation among it to a legend entry.

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";

/**
 * What an entry is made from: the page's table and the game's words and printed tables.
 * @typedef {{t: (id: string, params?: Record<string, any>) => string, word: (english: string) => string, catalog: any}} LegendContext
 * @typedef {{show?: (c: LegendContext) => string[], mark?: () => Element, say: string}} Entry
 */

/** A small square of `fill`, with an optional outline, as a symbol. */
const square = (fill, stroke = "#2b2622", width = 1) => svg("svg", { viewBox: "0 0 20 20", class: "legend-mark", "aria-hidden": "true" },
  svg("rect", { x: 2, y: 2, width: 16, height: 16, rx: 3, fill, stroke, "stroke-width": width }));
/** A round hole of `fill`, as the Gophers board draws one. */
const hole = (fill, dot = null) => svg("svg", { viewBox: "0 0 20 20", class: "legend-mark", "aria-hidden": "true" },
  svg("circle", { cx: 10, cy: 10, r: 8, fill, stroke: "#2b2622" }), dot ? svg("circle", { cx: 10, cy: 8, r: 3, fill: dot }) : null);
/** A symbol of several shapes on a 20-unit square. */
const mark = (...shapes) => svg("svg", { viewBox: "0 0 20 20", class: "legend-mark", "aria-hidden": "true" }, ...shapes);

const first = (/** @type {string} */ s) => s.split(/[\s-]+/)[0];
const last = (/** @type {string} */ s) => s.split(/[\s-]+/).pop() || s;
/** The mine line of an Underground Kings card ("3pt d2 ↓2"), cut into its three parts. */
const mineParts = (/** @type {LegendContext} */ c) => c.t("{value}pt d{defence} ↓{depth}", { value: 3, defence: 2, depth: 2 }).split(" ");

/** @type {Record<string, Entry[]>} */
export const LEGENDS = {
  saboteur: [
    { mark: () => mark(svg("rect", { x: 2, y: 2, width: 16, height: 16, rx: 3, fill: "#2e8b57" }),
      svg("path", { d: "M7,5 v10 M13,5 v10 M7,8 h6 M7,12 h6", stroke: "#e9c46a", "stroke-width": 1.5 })),
    say: t("The start card, with a ladder: every tunnel must lead back to it.") },
    { show: (c) => [c.t("goal")], mark: () => square("#3b2f2a", "#8b7355"), say: t("A goal card, face down: the gold or coal lies under it.") },
    { show: (c) => [c.t("gold?"), c.t("coal?")], say: t("A goal you looked at with a map, and what lies under it (only you see this).") },
    { show: (c) => [c.t("GOLD"), c.t("coal")], say: t("A goal the tunnel reached, turned over: the gold ends the round.") },
    { mark: () => mark(svg("path", { d: "M10,2 V10", stroke: "#f3e6cc", "stroke-width": 5 }), svg("circle", { cx: 10, cy: 10, r: 3.5, fill: "#3b2f2a" })),
      say: t("A dark dot: a dead end; nothing passes through it.") },
    { mark: () => mark(svg("path", { d: "M7,3 v14 M13,3 v14 M7,8 h6 M7,12 h6", stroke: "#e9c46a", "stroke-width": 1.6 })),
      say: t("A ladder (Deluxe): joins its tunnel to the start.") },
    { mark: () => mark(svg("rect", { x: 3, y: 4, width: 6, height: 12, rx: 2, fill: "#2e8b57" }), svg("rect", { x: 11, y: 4, width: 6, height: 12, rx: 2, fill: "#2f6690" })),
      say: t("A green or a blue door (Deluxe): a team cannot take the gold through a door of the other colour.") },
    { mark: () => mark(svg("path", { d: "M10,3 l5,6 -5,8 -5,-8z", fill: "#d35db2" })),
      say: t("A crystal (Deluxe): geologists are paid a gold nugget for each crystal on the board.") },
    { show: (c) => [c.t("pick"), c.t("lamp"), c.t("cart")], say: t("The tools an action card breaks or repairs: pickaxe, lantern, cart.") },
    { mark: () => mark(...["#c0392b", "#2e8b57", "#7f6a55", "#2f6690", "#8e44ad"].map((fill, i) => svg("rect", { x: 1 + i * 3.7, y: 6, width: 3.4, height: 8, fill }))),
      say: t("The colour band of an action card: red breaks a tool, green repairs one, brown is a rockfall, blue a map, purple a Deluxe card.") },
    { show: (c) => ["pickaxe broken", "lantern broken", "cart broken"].map((f) => first(c.t(f))), mark: () => square("#f4c7c3", "#a55"),
      say: t("A broken tool in front of a player: they cannot lay path cards until it is repaired.") },
    { show: (c) => [c.t("trapped")], mark: () => square("#e5d4f0", "#a55"), say: t("Trapped (Deluxe): no path cards and no gold this round.") },
    { show: (c) => [c.t("thief")], say: t("Theft (Deluxe): the player steals a gold nugget from another at payout.") },
    { show: (c) => [c.t("{n} face down", { n: 2 })], say: t("Cards a player passed with, face down.") },
    { show: (c) => [c.t("pile {n}", { n: 40 })], say: t("Cards left in the draw pile.") },
    { show: (c) => [c.t("horiz."), c.t("vert.")], say: t("Card names, shortened: horizontal, vertical.") },
    { show: (c) => [first(c.word("t-vertical")), last(c.word("curve-a")), last(c.word("curve-b"))],
      say: t("Letters in card names: T is a T-shaped junction; A and B are the two ways a curve turns.") },
  ],
  kings: [
    { show: (c) => [mineParts(c)[0], c.t("{n} pt", { n: 3 })], say: t("The mine's value in points: its owner scores it once it is developed, and loses it if not.") },
    { show: (c) => [mineParts(c)[1]], say: t("Defence: how many squads on a central mine capture it.") },
    { show: (c) => [mineParts(c)[2]], say: t("Depth: how many workers of other peoples develop the mine.") },
    { show: (c) => [c.t("+O"), c.t("overseer")], say: t("Overseer: the mine also needs one squad of its owner's own people on top of the workers.") },
    { show: () => ["#3"], say: t("The mine's number.") },
    { mark: () => mark(svg("rect", { x: 4, y: 1, width: 12, height: 18, rx: 2, fill: "#5a8f29" }), svg("text", { x: 10, y: 14, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, "7")),
      say: t("A squad: its people (the colour) and its strength, 0 to 9. A squad goes only on a weaker one; a 0 beats a 9.") },
    { mark: () => mark(svg("rect", { x: 2, y: 5, width: 7, height: 9, fill: "#a3a019", stroke: "#2b2622" }), svg("rect", { x: 11, y: 5, width: 7, height: 9, fill: "#4f6d8f", stroke: "#2b2622", "stroke-width": 2.5 })),
      say: t("Chips on a mine: the squads played there; the top one has a thick edge.") },
    { show: (c) => [`${c.word("orcs")}: 2`], say: t("A camp pile: its people and how many squads lie in it.") },
  ],
  mordred: [
    { show: () => ["£5", "+£1"], say: t("Pounds. +£1: the extra cost of building away from your own buildings (not on the border).") },
    { show: (c) => [c.t("V"), c.t("T"), c.t("C"), `${c.t("V")}2`, `${c.t("T")}1`, `${c.t("C")}0`], say: t("Village, town, castle, on the buildings; beside a player's name, how many of each they have on the map (V2: two villages).") },
    { show: (c) => [c.t("{n} points", { n: 5 })], say: t("A building's points, scored at the end.") },
    { show: () => ["A", "B", "C"], say: t("The rows of the Money table: declare one and roll two dice.") },
    { show: () => ["1: £2", "6: 2⚔"], say: t("A cell of the row: a die's face and what it pays. A black cell (⚔) pays as many pounds, brings as many of Mordred's warriors and moves your marker as many spaces along the road.") },
    { show: () => ["-3", "0", "3"], say: t("Spaces of Mordred's road; 0 is the dragon.") },
    { show: (c) => [c.t("E N G L A N D")], mark: () => square("#5d8c4a", "#111", 3.5), say: t("The border with England: areas with a thick black edge.") },
    { show: (c) => { const a = c.catalog && c.catalog.areas && c.catalog.areas[0]; if (!a) return []; const name = c.word(a.name); return [name === a.name ? a.code : name.slice(0, 3).toUpperCase()]; },
      say: t("An area's short name; its full name is written at the bottom.") },
    { mark: () => mark(svg("rect", { x: 1, y: 4, width: 5.5, height: 12, fill: "#5d8c4a" }), svg("rect", { x: 7.3, y: 4, width: 5.5, height: 12, fill: "#9a8c7a" }), svg("rect", { x: 13.6, y: 4, width: 5.5, height: 12, fill: "#3b2f2a" })),
      say: t("Green: forest; grey: mountains; dark: Mordred's castle.") },
    { mark: () => mark(svg("path", { d: "M4,3 h12 v7 q0,7 -6,9 q-6,-2 -6,-9z", fill: "#111", stroke: "#e9c46a" })), say: t("One of Mordred's warriors.") },
  ],
  gophers: [
    { show: () => ["A", "B", "W", "D", "A2", "B5", "W3"], say: t("Cards: A acorns, B berries, W wheat, with their values; D a dig card.") },
    { show: (c) => [`${c.t("pile")} + A2`], say: t("The face-up pile: cards added in collections, and gifts; they score.") },
    { show: (c) => [`${c.t("pile")} − B1`], say: t("The face-down pile: cards subtracted in collections; they count against you.") },
    { show: () => ["?"], say: t("A card you have not seen, or the die before it is rolled.") },
    { mark: () => hole("#3b2f2a", "#8d5524"), say: t("A supply: the colour of its kind and how many to collect there.") },
    { show: (c) => [c.t("store")], mark: () => hole("#81b29a"), say: t("A store: collect that many supplies of any kinds.") },
    { show: (c) => [c.t("portal")], mark: () => hole("#3d405b"), say: t("A portal: ending a walk here turns the book.") },
    { show: (c) => [c.t("gift")], mark: () => hole("#e07a5f"), say: t("A gift: ending a walk here shows three cards; keep one.") },
    { show: () => ["7"], say: t("Small numbers beside the holes: the holes' numbers.") },
  ],
};

/**
 * The legend of `game` as list items (none for a game without one).
 * @param {string} game
 * @param {LegendContext} c
 * @returns {HTMLElement[]}
 */
export function legendItems(game, c) {
  return (LEGENDS[game] || []).map((entry) => {
    const shown = entry.show ? entry.show(c).filter(Boolean) : [];
    return h("li", { class: "legend-item" },
      entry.mark ? entry.mark() : null,
      shown.map((s) => h("b", { class: "legend-token" }, s)),
      h("span", { class: "legend-text" }, entry.say));
  });
}

/**
 * Draw the legend of `game` into `box` (a <details> with a <ul>); hide the box for a game without one.
 * @param {HTMLElement} box
 * @param {string} game
 * @param {LegendContext} c
 */
export function renderLegend(box, game, c) {
  const items = legendItems(game, c);
  box.hidden = items.length === 0;
  const list = box.querySelector("ul");
  if (list) list.replaceChildren(...items);
}
