// @ts-check
// Gophers' board: the open spread of the burrow book (its holes, tunnels, supplies, stores, portals and
// gifts), the pawns, every seat's piles, basket and what this seat knows of its hand, the die, the gift
// cards (face down where this seat has not seen them), the collection being laid and the hand (the
// beginner rules: the open bank). A seat clicks a hole to place or walk, the die to roll, a dig card to
// dig, a gift card to keep it; to collect, it lays cards one by one (a card of its hand, or of the bank
// and its own pile in the beginner rules), then collects, or does not collect before laying any.
//
// Drawn from the view's wire form (meeple.games.gophers.view.View) and the catalog of the book's spreads.
// Commands name cards as "A7", "B10", "W1", "D"; a walk's jumped seats are the bits of `jumps`.

/** @typedef {import("../js/board.js").BoardContext} Ctx */

import { show } from "./fit.js";

const KIND_COLOUR = { acorn: "#8d5524", berry: "#7b2d8b", wheat: "#c9a227", dig: "#6b6b6b" };
const LETTER = { acorn: "A", berry: "B", wheat: "W", dig: "D" };
const GAP = 96, R = 24, TOP = 66, LEFT = 40;

const cardName = (c) => (c === null ? "?" : c.kind === "dig" ? "D" : `${LETTER[c.kind]}${c.value}`);
const cardsName = (cards) => cards.map(cardName).join(" + ");
/** @param {number} n */
const nth = (n) => (n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");

/** A card face; `cls` names where it lies ("gcard": the hand, "gift", "laid-card", "bank-card", "pile-card"). */
function cardPicture(ctx, c, x, y, w = 34, h = 48, cls = "gcard") {
  const { svg } = ctx;
  if (c === null) { // a card this seat has not seen
    return svg("g", { class: [cls, "back"], dataset: { card: "?" } },
      svg("rect", { class: "hit", x, y, width: w, height: h, rx: 4, fill: "#5b4636", stroke: "#2b2622" }),
      svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", class: "title", fill: "#c8b18a" }, "?"));
  }
  return svg("g", { class: cls, dataset: { card: cardName(c) } },
    svg("rect", { class: "hit", x, y, width: w, height: h, rx: 4, fill: KIND_COLOUR[c.kind], stroke: "#2b2622" }),
    svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", class: "title", fill: "#fff", dataset: { fit: w - 4 } }, c.kind === "dig" ? ctx.t("dig") : c.value),
    svg("text", { x: x + w / 2, y: y + 11, "text-anchor": "middle", class: "small", fill: "#fff", dataset: { fit: w - 4 } }, ctx.word(c.kind)));
}

/**
 * A hole's label as its two lines: what it is, and how many.
 * @param {Ctx} ctx
 * @param {any} l the label (catalog)
 */
function labelText(ctx, l) {
  switch (l.kind) {
    case "supply": return [ctx.word(l.supply), `${l.count}`];
    case "store": return [ctx.t("store"), `${l.count}`];
    case "portal": return [ctx.t("portal"), ""];
    case "gift": return [ctx.t("gift"), ""];
    default: return ["", ""];
  }
}


/** The add and subtract commands that lay a card of this name (`sides`: which of the two apply here). */
function laying(legal, c, sides = ["add", "subtract"]) {
  const name = cardName(c);
  return legal.filter((x) => sides.includes(x.type) && x.card === name);
}

/**
 * Draw the seat's view; offer its legal commands.
 * @param {Ctx} ctx
 */
export function render(ctx) {
  const { svg, view: v, t } = ctx;
  const legal = ctx.legal;
  const book = ctx.catalog;
  const spread = v.spread ? book.spreads[v.spread - 1] : null;
  const seats = v.positions.length || (ctx.seats ?? 2);
  const gridW = LEFT * 2 + (book.cols - 1) * GAP;
  const gridH = TOP + (book.rows - 1) * GAP + 50;
  const panelX = gridW + 20, panelW = 290;
  const width = panelX + panelW;
  // under the grid: the die and dig, then the gift cards or the laid cards, then collect / do not collect
  // (on a row of their own when the cards leave no room beside them)
  const strip = Math.max(v.laid[0].length + v.laid[1].length, v.gift_offer.length);
  const buttonsBelow = 170 + strip * 40 + 10 + 2 * 116 > gridW;
  const handY = Math.max(gridH + 80 + (buttonsBelow ? 66 : 0) + (v.known_deck.length ? 14 : 0), TOP + seats * 92 + 30);
  // hands have no limit: cards wrap in rows of the board's width (the beginner rules: the bank, then the pile)
  const perRow = Math.max(1, Math.floor(width / 40));
  const rowsOf = (n) => Math.max(1, Math.ceil(n / perRow));
  const mine = v.seat === null ? [] : v.plus[v.seat] || [];
  const handRows = v.variant === "beginner" ? rowsOf(v.bank.length) + rowsOf(mine.length) : rowsOf(v.hand.length);
  const height = handY + handRows * 58 + (v.variant === "beginner" ? 76 : 52);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "gophers", role: "img", "aria-label": t("Gophers board") });
  // the end's reason: the outcome's text in the page's language where the page has the outcome, else the view's English
  const why = ctx.outcome && ctx.outcome.text ? ctx.outcome.text : ctx.lang === "en" ? v.end_reason : null;
  const status = v.phase === "over" ? (why ? t("Over: {why}", { why }) : t("The game is over")) : `${t("Spread {n}", { n: v.spread || "—" })} · ${t(v.phase)} · ${ctx.turn ? ctx.turn.line : t("{seat} to move", { seat: ctx.seatName(v.current) })}` +
    (v.roll ? ` · ${t("rolled {n}", { n: v.roll })}` : "") + (v.variant === "beginner" ? "" : ` · ${t("deck {n}", { n: v.deck_size })}`) +
    (v.turned ? ` · ${t("turned the page")}` : "") + (v.jumped.length ? ` · ${t("jumped {seats}", { seats: v.jumped.map(ctx.seatName).join(", ") })}` : "") +
    (v.productive ? ` · ${t("productive turn")}` : "");
  root.append(svg("text", { x: 4, y: 18, class: "title", dataset: { fit: width - 8 } }, status));
  const at = (hole) => [LEFT + (hole % book.cols) * GAP, TOP + Math.floor(hole / book.cols) * GAP];
  root.append(svg("rect", { x: 4, y: TOP - 38, width: gridW - 8, height: gridH - 10, rx: 10, fill: "#c8b18a" }));
  // tunnels, then holes with their labels
  if (spread) {
    for (const [a, b] of spread.tunnels) {
      const [ax, ay] = at(a), [bx, by] = at(b);
      root.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, stroke: "#5b4636", "stroke-width": 14, "stroke-linecap": "round" }));
    }
  }
  const holes = book.rows * book.cols;
  for (let hole = 0; hole < holes; hole++) {
    const [x, y] = at(hole);
    const l = spread ? spread.labels[hole] : { kind: "nothing" };
    const fill = l.kind === "portal" ? "#3d405b" : l.kind === "gift" ? "#e07a5f" : l.kind === "store" ? "#81b29a" : "#3b2f2a";
    const [top, count] = labelText(ctx, l);
    const g = svg("g", { class: "hole", dataset: { hole, label: l.kind } },
      svg("circle", { class: "hit", cx: x, cy: y, r: R, fill, stroke: "#2b2622" }),
      svg("text", { x: x - R + 2, y: y - R - 2, class: "small" }, `${hole}`),
      l.kind === "supply" ? svg("circle", { cx: x, cy: y - 5, r: 7, fill: KIND_COLOUR[l.supply] }) : null,
      top ? svg("text", { x, y: y + (l.kind === "supply" ? 12 : 4), "text-anchor": "middle", class: "small", fill: "#fff" }, l.kind === "supply" ? count : top) : null,
      l.kind === "store" ? svg("text", { x, y: y + 15, "text-anchor": "middle", class: "small", fill: "#fff" }, count) : null,
      svg("title", {}, l.kind === "supply" ? t("hole {hole}: supply of {kind}, {n}", { hole, kind: ctx.word(l.supply), n: l.count })
        : l.kind === "store" ? t("hole {hole}: store, {n}", { hole, n: l.count }) : t(`hole {hole}: ${l.kind}`, { hole })));
    ctx.offer(g, legal.filter((c) => (c.type === "place" && c.hole === hole) || (c.type === "move" && c.dest === hole)));
    root.append(g);
  }
  v.positions.forEach((hole, s) => {
    if (hole < 0) return;
    const [x, y] = at(hole);
    const dx = ((s % 3) - 1) * 20, dy = s >= 3 ? 20 : 0;
    root.append(svg("g", { class: ["pawn", `seat-${s}`], dataset: { seat: s } },
      svg("circle", { cx: x + dx, cy: y + dy + R + 6, r: 9, class: "seat-fill", stroke: "#fff", "stroke-width": 2 }),
      svg("text", { x: x + dx, y: y + dy + R + 9, "text-anchor": "middle", class: "small", fill: "#fff" }, s)));
  });
  // the die
  const die = svg("g", { class: "die" },
    svg("rect", { class: "hit", x: 10, y: gridH + 2, width: 46, height: 46, rx: 8, fill: "#fff", stroke: "#2b2622" }),
    svg("text", { x: 33, y: gridH + 32, "text-anchor": "middle", class: "title" }, v.roll || "?"));
  ctx.offer(die, legal.filter((c) => c.type === "roll"));
  root.append(die);
  const digs = legal.filter((c) => c.type === "dig");
  if (digs.length) {
    const dig = svg("g", { class: "dig-button" },
      svg("rect", { class: "hit", x: 66, y: gridH + 2, width: 90, height: 46, rx: 8, fill: KIND_COLOUR.dig, stroke: "#2b2622" }),
      svg("text", { x: 111, y: gridH + 30, "text-anchor": "middle", class: "label", fill: "#fff", dataset: { fit: 82 } }, t("play a dig")));
    ctx.offer(dig, digs);
    root.append(dig);
  }
  // the gift cards on show: all of them to the mover, the ones this seat has seen to the others
  if (v.gift_offer.length) {
    const mover = v.seat === v.current;
    root.append(svg("text", { x: 170, y: gridH + 16, class: "label" },
      mover ? t("Keep one gift:") : t("{seat} keeps one of {n} gift cards", { seat: ctx.seatName(v.current), n: v.gift_offer.length })));
    v.gift_offer.forEach((c, i) => {
      const g = cardPicture(ctx, c, 170 + i * 40, gridH + 22, 34, 40, "gift");
      if (c !== null) ctx.offer(g, legal.filter((x) => x.type === "take_gift" && x.card === cardName(c)));
      root.append(g);
    });
  }
  // every seat: piles, basket, score
  const knownDeck = v.known_deck.map((/** @type {[number, any]} */ [i, c]) => t("{card} {n}{nth}", { card: cardName(c), n: i + 1, nth: t(nth(i + 1)) }));
  for (let s = 0; s < seats; s++) {
    const y = TOP - 38 + s * 92;
    const plus = v.plus[s] || [], minus = v.minus[s] || [];
    const basketAt = v.baskets[s];
    const held = v.baskets.flatMap((holder, owner) => (holder === s && owner !== s ? [owner] : []));
    const known = s === v.seat ? [] : v.known_hands[s] || [];
    root.append(svg("g", { class: ["seat-panel", `seat-${s}`], dataset: { seat: s } },
      svg("rect", { x: panelX, y, width: panelW, height: 84, rx: 8, fill: (ctx.turn ? ctx.turn.acting.includes(s) : v.current === s) && v.phase !== "over" ? "#fff3d6" : "#fffdf9", stroke: "#d9d1c7" }),
      svg("circle", { cx: panelX + 12, cy: y + 14, r: 6, class: "seat-fill" }),
      svg("text", { x: panelX + 24, y: y + 18, class: "label", dataset: { fit: panelW - 30 } }, `${ctx.seatName(s)}${s === v.seat ? ` · ${t("you")}` : ""} · ${t("score {n}", { n: v.scores[s] ?? 0 })}`),
      svg("text", { x: panelX + 8, y: y + 36, class: "small", dataset: { fit: panelW - 14 } }, (v.variant === "beginner" ? "" : `${t("hand {n}", { n: v.hand_sizes[s] ?? 0 })} · `) +
        t("digs {n}", { n: v.own_digs[s] ?? 0 }) + (known.length ? ` ${t("(you know {cards})", { cards: cardsName(known) })}` : "") +
        (basketAt !== undefined && basketAt !== s ? ` · ${t("basket with {seat}", { seat: ctx.seatName(basketAt) })}` : "") +
        (held.length ? ` · ${t("holds the basket of {seats}", { seats: held.map(ctx.seatName).join(", ") })}` : "") + (v.collectors.includes(s) ? ` · ${t("collecting")}` : "")),
      svg("text", { x: panelX + 8, y: y + 54, class: "small", dataset: { fit: panelW - 14 } }, `${t("pile")} + ${cardsName(plus) || "—"}`.slice(0, 50)),
      svg("text", { x: panelX + 8, y: y + 70, class: "small", dataset: { fit: panelW - 14 } }, `${t("pile")} − ${cardsName(minus) || "—"}`.slice(0, 50))));
  }
  if (knownDeck.length) {
    root.append(svg("text", { x: 4, y: handY - 23, class: ["small", "known-deck"], dataset: { fit: width - 8 } }, t("you know in the deck: {cards} from the top", { cards: knownDeck.join(", ") }).slice(0, 140)));
  }
  // the collection being laid, card by card: added cards, then subtracted ones
  const [added, subtracted] = v.laid;
  const collector = v.collectors.length ? v.collectors[0] : null;
  const laidX = 170, laidY = gridH + 22;
  if (added.length || subtracted.length) {
    root.append(svg("text", { x: laidX, y: gridH + 16, class: "label" }, t("{seat} lays:", { seat: ctx.seatName(collector) })));
    [...added.map((c) => [c, "+"]), ...subtracted.map((c) => [c, "−"])].forEach(([c, sign], i) => {
      const g = cardPicture(ctx, c, laidX + i * 40, laidY, 34, 40, "laid-card");
      g.classList.add(sign === "+" ? "added" : "subtracted");
      g.append(svg("text", { x: laidX + i * 40 + 3, y: laidY + 38, class: "small", fill: "#fff" }, sign));
      root.append(g);
    });
  }
  const buttonsX = buttonsBelow ? laidX : laidX + strip * 40 + 10, buttonsY = buttonsBelow ? laidY + 48 : laidY;
  [["collect", t("collect"), "#2e8b57"], ["pass", t("do not collect"), "#7f6a55"]].forEach(([type, text, fill], i) => {
    const cmds = legal.filter((c) => c.type === type);
    if (!cmds.length) return;
    const b = svg("g", { class: `${type}-button` },
      svg("rect", { class: "hit", x: buttonsX + i * 116, y: buttonsY, width: 110, height: 40, rx: 8, fill, stroke: "#2b2622" }),
      svg("text", { x: buttonsX + i * 116 + 55, y: buttonsY + 25, "text-anchor": "middle", class: "label", fill: "#fff", dataset: { fit: 102 } }, text));
    ctx.offer(b, cmds);
    root.append(b);
  });
  // the hand (the beginner rules have none: the open bank, and the seat's own pile to give change from)
  const laysSome = legal.some((c) => c.type === "add" || c.type === "subtract");
  if (v.variant === "beginner") {
    root.append(svg("text", { x: 4, y: handY - 8, class: "title", dataset: { fit: width - 8 } }, t("The bank") + (laysSome ? ` · ${t("click a card to take it")}` : "")));
    v.bank.forEach((c, i) => {
      const g = cardPicture(ctx, c, (i % perRow) * 40, handY + Math.floor(i / perRow) * 58, 36, 54, "bank-card");
      ctx.offer(g, laying(legal, c, ["add"]));
      root.append(g);
    });
    const pileY = handY + rowsOf(v.bank.length) * 58 + 24;
    if (mine.length) {
      root.append(svg("text", { x: 4, y: pileY - 8, class: "label", dataset: { fit: width - 8 } }, t("Your pile") + (laysSome ? ` · ${t("click a card to give it as change")}` : "")));
      mine.forEach((c, i) => {
        const g = cardPicture(ctx, c, (i % perRow) * 40, pileY + Math.floor(i / perRow) * 58, 36, 54, "pile-card");
        ctx.offer(g, laying(legal, c, ["subtract"]));
        root.append(g);
      });
    }
  } else {
    root.append(svg("text", { x: 4, y: handY - 8, class: "title", dataset: { fit: width - 8 } }, v.seat === null ? t("Watching: no hand") :
      t("Your hand") + (laysSome ? ` · ${t("click a card to lay it in the collection")}` : "")));
    v.hand.forEach((c, i) => {
      const g = cardPicture(ctx, c, (i % perRow) * 40, handY + Math.floor(i / perRow) * 58, 36, 54);
      ctx.offer(g, laying(legal, c));
      root.append(g);
    });
  }
  show(ctx.root, root);
}

const KIND_OF = { A: "acorn", B: "berry", W: "wheat" };

/**
 * What a card, a hole or the die is and does: the details panel (js/zoom.js).
 * @param {import("../js/zoom.js").AboutContext} ctx
 * @param {Element} el
 * @returns {import("../js/zoom.js").Described | null}
 */
export function about(ctx, el) {
  const data = /** @type {SVGElement} */ (el).dataset || {};
  if (data.card !== undefined && el.tagName.toLowerCase() === "g") {
    if (data.card === "?") return { title: "?", text: ctx.about.unseen };
    if (data.card === "D") return { title: ctx.word("dig"), text: ctx.about.dig };
    const kind = KIND_OF[/** @type {keyof KIND_OF} */ (data.card[0])];
    return kind ? { title: `${ctx.word(kind)} ${data.card.slice(1)}`, text: ctx.about[kind] } : null;
  }
  if (el.classList.contains("hole") && data.label) {
    const title = (el.querySelector(":scope > title") || { textContent: "" }).textContent || "";
    return { title, text: ctx.about[data.label] || ctx.about.nothing };
  }
  if (el.classList.contains("die")) return { title: ctx.t("Die"), text: ctx.about.die };
  return null;
}

/**
 * Whose turn it is (js/turns.js): the mover's, but after a turn of the book every player on a supply or a
 * store may collect at its hole, in turn order from the mover, during the mover's turn.
 * @param {{view: any, t: (id: string, params?: any) => string}} ctx
 */
export function turn(ctx) {
  const v = ctx.view;
  if (v.phase === "over") return { mover: null };
  if (v.phase === "collect" && v.collectors.length && v.collectors[0] !== v.current) {
    return { mover: v.current, does: ctx.t("collect"), why: ctx.t("after a turn of the book, every player standing on a supply or a store may collect there") };
  }
  return { mover: v.current };
}

/**
 * What a record touched on this board (js/highlight.js): holes and pawns placed and walked, the die, the
 * seat panels whose piles, hands and baskets changed, the cards laid.
 * @param {{events?: any[]}} record
 * @param {{view: any}} ctx
 * @returns {string[]}
 */
export function touched(record, ctx) {
  const v = ctx.view;
  const hole = (/** @type {number} */ h) => `.hole[data-hole="${h}"]`;
  const pawn = (/** @type {number} */ s) => `.pawn[data-seat="${s}"]`;
  const panel = (/** @type {number} */ s) => `.seat-panel[data-seat="${s}"]`;
  /** @type {string[]} */
  const out = [];
  for (const e of record.events || []) {
    switch (e.type) {
      case "placed": case "moved":
        out.push(hole(e.type === "placed" ? e.hole : e.dest), pawn(e.seat));
        break;
      case "rolled": case "book_rolled":
        out.push(".die");
        break;
      case "dig_played": case "gift_taken": case "passed": case "card_drawn":
        out.push(panel(e.seat));
        break;
      case "card_laid":
        out.push(panel(e.seat), `.laid-card[data-card="${cardName(e.card)}"]`);
        break;
      case "collected":
        out.push(panel(e.seat));
        if ((v.positions[e.seat] ?? -1) >= 0) out.push(hole(v.positions[e.seat]));
        break;
      case "baskets_taken":
        out.push(panel(e.seat), panel(e.victim));
        break;
      case "basket_redeemed":
        out.push(panel(e.owner), panel(e.holder));
        break;
      default:
        break;
    }
  }
  return out;
}
