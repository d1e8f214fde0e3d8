// @ts-check
// Underground Kings' board: the mines (value, defence, depth, overseer, the squads on each), every
// seat's mines and developed veins, the camp's four piles, the deck and the hand. A seat picks a squad
// from its hand, then the mine it goes to (or its people's camp pile, to retreat); to draw, it clicks
// the deck or a camp pile.
//
// Drawn from the view's wire form (meeple.games.kings.view.KingsView) and the catalog of the 80 cards.

/** @typedef {import("../js/board.js").BoardContext} Ctx */

import { show } from "./fit.js";

const PEOPLE_COLOUR = { orcs: "#5a8f29", goblins: "#a3a019", dwarves: "#a4492f", giants: "#4f6d8f" };
const MINE_W = 96, MINE_H = 118, CARD_W = 62, CARD_H = 74;

function card(ctx, id) {
  return ctx.catalog.cards[id];
}

/** A squad side: the people's colour and the strength. */
function squad(ctx, id, x, y, w = CARD_W, h = CARD_H) {
  const { svg } = ctx;
  const c = card(ctx, id);
  return svg("g", { class: "squad", dataset: { card: id } },
    svg("rect", { class: "hit", x, y, width: w, height: h, rx: 5, fill: PEOPLE_COLOUR[c.people], stroke: "#2b2622" }),
    svg("text", { x: x + w / 2, y: y + h / 2 + (h > 30 ? 8 : 5), "text-anchor": "middle", class: h > 30 ? "title" : "small", fill: "#fff" }, c.strength),
    h > 30 ? svg("text", { x: x + w / 2, y: y + 12, "text-anchor": "middle", class: "small", fill: "#fff", dataset: { fit: w - 6 } }, ctx.word(c.people)) : null,
    h > 50 ? mineLine(ctx, c.mine, x + w / 2, y + h - 6, "#fff", w - 6) : null);
}

function mineLine(ctx, m, x, y, fill = "#2b2622", width = 0) {
  return ctx.svg("text", { x, y, "text-anchor": "middle", class: "label", fill, dataset: { fit: width } },
    ctx.t("{value}pt d{defence} ↓{depth}", m) + (m.overseer ? ` ${ctx.t("+O")}` : ""));
}

/** A mine side: value, defence, depth, overseer. */
function mineFace(ctx, m, x, y, w, h, extra = []) {
  const { svg } = ctx;
  return [
    svg("rect", { class: "hit", x, y, width: w, height: h, rx: 6, fill: "#d9c9a8", stroke: "#6b5a3a" }),
    svg("text", { x: x + 8, y: y + 22, class: "title" }, ctx.t("{n} pt", { n: m.value })),
    svg("text", { x: x + 8, y: y + 38, class: "label", dataset: { fit: w - 12 } }, ctx.t("defence {n}", { n: m.defence })),
    svg("text", { x: x + 8, y: y + 50, class: "label", dataset: { fit: w - 12 } }, ctx.t("depth {n}", { n: m.depth })),
    m.overseer ? svg("text", { x: x + 8, y: y + 62, class: "label", fill: "#a4492f", dataset: { fit: w - 12 } }, ctx.t("overseer")) : null,
    ...extra,
  ];
}


/**
 * Draw the seat's view; offer its legal commands.
 * @param {Ctx} ctx
 */
export function render(ctx) {
  const { svg, view: v, t } = ctx;
  const sel = ctx.selected;
  const legal = ctx.legal;
  const seats = v.peoples.length || (ctx.seats ?? 2);
  const central = v.mines.filter((m) => m.owner === null);
  const width = Math.max(8, central.length + 1) * (MINE_W + 10) + 200;
  // a seat's mines wrap in lines that leave room for the backs of its hand: every one stays on the drawing
  const perLine = Math.max(1, Math.floor((width - 24 - 10 * 22 - 20) / (MINE_W + 10)));
  const ownedBy = Array.from({ length: seats }, (_, s) => v.mines.filter((m) => m.owner === s));
  const rowHs = ownedBy.map((owned) => MINE_H + 76 + (Math.max(1, Math.ceil(owned.length / perLine)) - 1) * (MINE_H + 10));
  const seatsY = 42 + MINE_H + 40;
  const rowYs = rowHs.map((_, s) => seatsY + rowHs.slice(0, s).reduce((a, b) => a + b, 0));
  const campY = seatsY + rowHs.reduce((a, b) => a + b, 0) + 10;
  const handY = campY + 130;
  const height = handY + CARD_H + 30;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "kings", role: "img", "aria-label": t("Underground Kings board") });
  const status = v.phase === "over" ? t("The game is over") : `${v.phase === "draw" ? t("Draw step") : t("Play step")} · ${ctx.turn ? ctx.turn.line : ctx.seatName(v.turn)} · ${t("deck {n}", { n: v.deck_size })}` +
    (v.must_draw_deck ? ` · ${t("must draw from the deck")}` : "");
  root.append(svg("text", { x: 4, y: 18, class: "title", dataset: { fit: width - 8 } }, status));

  const drawMine = (m, x, y) => {
    const g = svg("g", { class: "mine", dataset: { mine: m.number } },
      ...mineFace(ctx, m.mine, x, y, MINE_W, MINE_H, [
        svg("text", { x: x + MINE_W - 8, y: y + 18, "text-anchor": "end", class: "small" }, `#${m.number}`),
      ]));
    m.stack.forEach((id, i) => {
      const chip = squad(ctx, id, x + 6 + (i % 4) * 22, y + 70 + Math.floor(i / 4) * 24, 20, 22);
      if (i === m.stack.length - 1) chip.querySelector("rect").setAttribute("stroke-width", "2.5");
      g.append(chip);
    });
    ctx.offer(g, legal.filter((c) => c.type === "play" && c.card === sel && c.mine === m.number));
    return g;
  };
  // the central mines, and the deck
  root.append(svg("text", { x: 4, y: 36, class: "label" }, t("Central mines")));
  central.forEach((m, i) => root.append(drawMine(m, i * (MINE_W + 10), 42)));
  const deckX = width - 190;
  const deck = svg("g", { class: "deck" },
    ...(v.deck_top ? mineFace(ctx, v.deck_top, deckX, 42, MINE_W, MINE_H) : [svg("rect", { class: "hit", x: deckX, y: 42, width: MINE_W, height: MINE_H, rx: 6, fill: "#eee", stroke: "#999" })]),
    svg("text", { x: deckX + MINE_W / 2, y: 42 + MINE_H + 14, "text-anchor": "middle", class: "small" }, t("deck: {n} cards", { n: v.deck_size })));
  ctx.offer(deck, legal.filter((c) => c.type === "draw_deck"));
  root.append(deck);
  // each seat: people, score, owned mines, developed, the backs of its hand
  for (let s = 0; s < seats; s++) {
    const y = rowYs[s], rowH = rowHs[s];
    const people = v.peoples[s];
    root.append(svg("g", { class: ["seat-row", `seat-${s}`], dataset: { seat: s } },
      svg("rect", { x: 0, y: y - 16, width: width - 4, height: rowH - 8, rx: 8, fill: v.turn === s && v.phase !== "over" ? "#fff3d6" : "#fffdf9", stroke: "#d9d1c7" }),
      svg("circle", { cx: 12, cy: y, r: 6, class: "seat-fill" }),
      svg("text", { x: 24, y: y + 4, class: "label", dataset: { fit: width - 32 } }, `${ctx.seatName(s)}${s === v.seat ? ` · ${t("you")}` : ""} · ` +
        t("king of the {people}", { people: people ? ctx.word(people) : "?" }) + ` · ${t("{n} points", { n: v.scores[s] ?? 0 })}`),
      svg("text", { x: 24, y: y + 18, class: "small", dataset: { fit: width - 32 } }, t("developed: {mines}", { mines: (v.developed[s] || []).map((/** @type {any} */ m) => t("{n}pt", { n: m.value })).join(", ") || t("none") }) +
        ` · ${t("hand: {n} cards", { n: (v.hand_backs[s] || []).length })}` +
        ((v.open_hands[s] || []).length ? ` ${t("(seen: {cards})", { cards: v.open_hands[s].map((/** @type {number} */ id) => `${ctx.word(card(ctx, id).people)} ${card(ctx, id).strength}`).join(", ") })}` : ""))));
    const owned = ownedBy[s];
    owned.forEach((m, i) => root.append(drawMine(m, 24 + (i % perLine) * (MINE_W + 10), y + 26 + Math.floor(i / perLine) * (MINE_H + 10))));
    if (s !== v.seat) {
      const bx = 24 + Math.min(owned.length, perLine) * (MINE_W + 10) + 10;
      (v.hand_backs[s] || []).slice(0, 10).forEach((m, i) => {
        root.append(svg("g", { class: "back" },
          svg("rect", { x: bx + i * 22, y: y + 30, width: 20, height: 28, rx: 3, fill: "#d9c9a8", stroke: "#6b5a3a" }),
          svg("text", { x: bx + 10 + i * 22, y: y + 48, "text-anchor": "middle", class: "small" }, m.value),
          svg("title", {}, m.overseer ? t("mine side: {value}pt, defence {defence}, depth {depth}, overseer", m) : t("mine side: {value}pt, defence {defence}, depth {depth}", m))));
      });
    }
  }
  // the camp: a pile per people, the top squad showing
  root.append(svg("text", { x: 4, y: campY - 6, class: "label" }, t("Camp")));
  ctx.catalog.peoples.forEach((people, p) => {
    const pile = v.camp[p] || [];
    const x = p * (CARD_W + 40);
    const g = svg("g", { class: "camp-pile", dataset: { people } },
      svg("rect", { class: "hit", x: x - 4, y: campY - 2, width: CARD_W + 8, height: CARD_H + 24, rx: 6, fill: "#f3ece2", stroke: PEOPLE_COLOUR[people], "stroke-dasharray": "4 3" }),
      pile.length ? squad(ctx, pile[pile.length - 1], x, campY + 2) : svg("text", { x: x + CARD_W / 2, y: campY + 40, "text-anchor": "middle", class: "small" }, t("empty")),
      svg("text", { x: x + CARD_W / 2, y: campY + CARD_H + 16, "text-anchor": "middle", class: "small", dataset: { fit: CARD_W + 4 } }, `${ctx.word(people)}: ${pile.length}`));
    const here = legal.filter((c) => (c.type === "draw_camp" && c.people === people) ||
      (c.type === "retreat" && c.card === sel && card(ctx, sel).people === people));
    ctx.offer(g, here);
    root.append(g);
  });
  root.append(svg("text", { x: 4 * (CARD_W + 40) + 10, y: campY + 40, class: "small" }, t("discarded: {n}", { n: v.discard.length })));
  // the hand
  root.append(svg("text", { x: 4, y: handY - 8, class: "title", dataset: { fit: width - 8 } }, v.seat === null ? t("Watching: no hand") : t("Your hand") + (sel !== null ? ` · ${t("now click a mine (or the camp to retreat)")}` : "")));
  const usable = new Set(legal.filter((c) => c.card !== undefined).map((c) => c.card));
  v.hand.forEach((id, i) => {
    const g = squad(ctx, id, i * (CARD_W + 8), handY);
    if (usable.has(id)) ctx.selects(g, id);
    root.append(g);
  });
  show(ctx.root, root);
}

/**
 * What a squad, a mine, the deck, a camp pile or a card in another hand is and does: the details panel (js/zoom.js).
 * @param {import("../js/zoom.js").AboutContext} ctx
 * @param {Element} el
 * @returns {import("../js/zoom.js").Described | null}
 */
export function about(ctx, el) {
  const data = /** @type {SVGElement} */ (el).dataset || {};
  const is = (/** @type {string} */ c) => el.classList.contains(c);
  const titled = () => (el.querySelector(":scope > title") || { textContent: "" }).textContent || "";
  if (is("squad") && data.card !== undefined) {
    const c = ctx.catalog.cards[Number(data.card)];
    return { title: `${ctx.word(c.people)} ${c.strength}`, text: ctx.about.squad };
  }
  if (is("mine") && data.mine !== undefined) {
    const overseer = [...el.querySelectorAll(":scope > text")].some((t) => t.textContent === ctx.t("overseer"));
    return { title: `#${data.mine}`, text: ctx.about.mine + (overseer ? ` ${ctx.about.overseer}` : "") };
  }
  if (is("deck")) return { title: ctx.t("Deck"), text: ctx.about.deck };
  if (is("camp-pile") && data.people) return { title: `${ctx.t("Camp")}: ${ctx.word(data.people)}`, text: ctx.about.camp };
  if (is("back")) return { title: titled(), text: ctx.about.back };
  return null;
}

/**
 * What a record touched on this board (js/highlight.js): the mines a squad went to, turned up, captured
 * or developed, the deck and the camp piles drawn from or retreated to.
 * @param {{events?: any[]}} record
 * @param {Ctx} ctx
 * @returns {string[]}
 */
export function touched(record, ctx) {
  const mine = (/** @type {number} */ n) => `.mine[data-mine="${n}"]`;
  const pile = (/** @type {string} */ people) => `.camp-pile[data-people="${people}"]`;
  /** @type {string[]} */
  const out = [];
  for (const e of record.events || []) {
    switch (e.type) {
      case "squad_played":
        out.push(mine(e.mine));
        break;
      case "mine_turned":
        out.push(mine(e.number));
        break;
      case "mine_captured":
        out.push(mine(e.mine), `.seat-row[data-seat="${e.owner}"]`);
        break;
      case "mine_developed":
        out.push(`.seat-row[data-seat="${e.seat}"]`);
        break;
      case "retreated":
        if (ctx.catalog.cards[e.card]) out.push(pile(card(ctx, e.card).people));
        break;
      case "drew_deck":
        out.push(".deck");
        break;
      case "drew_camp":
        out.push(pile(e.people));
        break;
      default:
        break;
    }
  }
  return out;
}
