// Gophers' board: the open spread of the burrow book (its holes, tunnels, supplies, stores, portals and
// gifts), the pawns, every seat's piles and basket, the die, the gift cards and the hand. A seat clicks a
// hole to place or walk, the die to roll, a dig card to dig, a gift card to keep it; to collect, it picks
// cards from its hand and chooses among the collections that hold them.
//
// Drawn from the view's wire form (meeple.games.gophers.view.View) and the catalog of the book's spreads.

const KIND_COLOUR = { acorn: "#8d5524", berry: "#7b2d8b", wheat: "#c9a227", dig: "#6b6b6b" };
const LETTER = { acorn: "A", berry: "B", wheat: "W", dig: "D" };
const GAP = 96, R = 24, TOP = 66, LEFT = 40;

const cardName = (c) => (c.kind === "dig" ? "D" : `${LETTER[c.kind]}${c.value}`);
const cardsName = (cards) => cards.map(cardName).join(" + ");

function cardPicture(ctx, c, x, y, w = 34, h = 48) {
  const { svg } = ctx;
  return svg("g", { class: "gcard", dataset: { card: cardName(c) } },
    svg("rect", { class: "hit", x, y, width: w, height: h, rx: 4, fill: KIND_COLOUR[c.kind], stroke: "#2b2622" }),
    svg("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", class: "title", fill: "#fff" }, c.kind === "dig" ? "dig" : c.value),
    svg("text", { x: x + w / 2, y: y + 11, "text-anchor": "middle", class: "small", fill: "#fff" }, c.kind));
}

function labelText(l) {
  switch (l.kind) {
    case "supply": return [`${l.supply}`, `${l.count}`];
    case "store": return ["store", `${l.count}`];
    case "portal": return ["portal", ""];
    case "gift": return ["gift", ""];
    default: return ["", ""];
  }
}

export function describe(c) {
  switch (c.type) {
    case "place": return `put your pawn on hole ${c.hole}`;
    case "roll": return "roll the die";
    case "dig": return "play a dig card";
    case "move": return `walk to hole ${c.dest}` + (c.jumped.length ? `, jumping seat ${c.jumped.join(", ")}` : "");
    case "take_gift": return `keep ${cardName(c.card)}`;
    case "collect": return `collect ${cardsName(c.plus)}${c.minus.length ? ` − ${cardsName(c.minus)}` : ""}`;
    case "pass": return "do not collect";
    case "deal": return "deal";
    case "open": return "open the book";
    default: return c.type;
  }
}

function countOf(cards) {
  const m = new Map();
  for (const c of cards) m.set(cardName(c), (m.get(cardName(c)) || 0) + 1);
  return m;
}

export function render(ctx) {
  const { svg, view: v } = ctx;
  const legal = ctx.legal;
  const book = ctx.catalog;
  const spread = v.spread ? book.spreads[v.spread - 1] : null;
  const seats = v.positions.length || (ctx.seats ?? 2);
  const gridW = LEFT * 2 + (book.cols - 1) * GAP;
  const gridH = TOP + (book.rows - 1) * GAP + 50;
  const panelX = gridW + 20, panelW = 290;
  const width = panelX + panelW;
  const handY = Math.max(gridH + 80, TOP + seats * 92 + 30);
  const height = handY + 110;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "gophers", role: "img", "aria-label": "Gophers board" });
  const status = v.phase === "over" ? `Over: ${v.end_reason}` : `Spread ${v.spread || "—"} · ${v.phase} · seat ${v.current} to move` +
    (v.roll ? ` · rolled ${v.roll}` : "") + ` · deck ${v.deck_size}`;
  root.append(svg("text", { x: 4, y: 18, class: "title" }, status));
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
    const [top, count] = labelText(l);
    const g = svg("g", { class: "hole", dataset: { hole } },
      svg("circle", { class: "hit", cx: x, cy: y, r: R, fill, stroke: "#2b2622" }),
      svg("text", { x: x - R + 2, y: y - R - 2, class: "small" }, `${hole}`),
      l.kind === "supply" ? svg("circle", { cx: x, cy: y - 5, r: 7, fill: KIND_COLOUR[l.supply] }) : null,
      top ? svg("text", { x, y: y + (l.kind === "supply" ? 12 : 4), "text-anchor": "middle", class: "small", fill: "#fff" }, l.kind === "supply" ? count : top) : null,
      l.kind === "store" ? svg("text", { x, y: y + 15, "text-anchor": "middle", class: "small", fill: "#fff" }, count) : null,
      svg("title", {}, `hole ${hole}: ${l.kind}${l.kind === "supply" ? ` of ${l.supply}, ${l.count}` : l.kind === "store" ? `, ${l.count}` : ""}`));
    ctx.offer(g, legal.filter((c) => (c.type === "place" && c.hole === hole) || (c.type === "move" && c.dest === hole)), describe);
    root.append(g);
  }
  v.positions.forEach((hole, s) => {
    if (hole < 0) return;
    const [x, y] = at(hole);
    const dx = ((s % 3) - 1) * 12, dy = s >= 3 ? 10 : -2;
    root.append(svg("g", { class: ["pawn", `seat-${s}`], dataset: { seat: s } },
      svg("circle", { cx: x + dx, cy: y + dy + R - 4, r: 9, class: "seat-fill", stroke: "#fff", "stroke-width": 2 }),
      svg("text", { x: x + dx, y: y + dy + R, "text-anchor": "middle", class: "small", fill: "#fff" }, s)));
  });
  // the die
  const die = svg("g", { class: "die" },
    svg("rect", { class: "hit", x: 10, y: gridH + 2, width: 46, height: 46, rx: 8, fill: "#fff", stroke: "#2b2622" }),
    svg("text", { x: 33, y: gridH + 32, "text-anchor": "middle", class: "title" }, v.roll || "?"));
  ctx.offer(die, legal.filter((c) => c.type === "roll"), describe);
  root.append(die);
  const digs = legal.filter((c) => c.type === "dig");
  if (digs.length) {
    const dig = svg("g", { class: "dig-button" },
      svg("rect", { class: "hit", x: 66, y: gridH + 2, width: 90, height: 46, rx: 8, fill: KIND_COLOUR.dig, stroke: "#2b2622" }),
      svg("text", { x: 111, y: gridH + 30, "text-anchor": "middle", class: "label", fill: "#fff" }, "play a dig"));
    ctx.offer(dig, digs, describe);
    root.append(dig);
  }
  // the gift cards offered to this seat
  if (v.gift_offer.length) {
    root.append(svg("text", { x: 170, y: gridH + 16, class: "label" }, "Keep one gift:"));
    v.gift_offer.forEach((c, i) => {
      const g = cardPicture(ctx, c, 170 + i * 40, gridH + 22, 34, 40);
      ctx.offer(g, legal.filter((x) => x.type === "take_gift" && ctx.key(x.card) === ctx.key(c)), describe);
      root.append(g);
    });
  } else if (v.gift_size) {
    root.append(svg("text", { x: 170, y: gridH + 30, class: "label" }, `seat ${v.current} looks at ${v.gift_size} gift cards`));
  }
  // every seat: piles, basket, score
  for (let s = 0; s < seats; s++) {
    const y = TOP - 38 + s * 92;
    const plus = v.plus[s] || [], minus = v.minus[s] || [];
    const basketAt = v.baskets[s];
    root.append(svg("g", { class: ["seat-panel", `seat-${s}`], dataset: { seat: s } },
      svg("rect", { x: panelX, y, width: panelW, height: 84, rx: 8, fill: v.current === s && v.phase !== "over" ? "#fff3d6" : "#fffdf9", stroke: "#d9d1c7" }),
      svg("circle", { cx: panelX + 12, cy: y + 14, r: 6, class: "seat-fill" }),
      svg("text", { x: panelX + 24, y: y + 18, class: "label" }, `${ctx.seatName(s)}${s === v.seat ? " · you" : ""} · score ${v.scores[s] ?? 0}`),
      svg("text", { x: panelX + 8, y: y + 36, class: "small" }, `hand ${v.hand_sizes[s] ?? 0} · digs ${v.own_digs[s] ?? 0}` +
        (basketAt !== undefined && basketAt !== s ? ` · basket with seat ${basketAt}` : "") + (v.collectors.includes(s) ? " · collecting" : "")),
      svg("text", { x: panelX + 8, y: y + 54, class: "small" }, `pile + ${cardsName(plus) || "—"}`.slice(0, 50)),
      svg("text", { x: panelX + 8, y: y + 70, class: "small" }, `pile − ${cardsName(minus) || "—"}`.slice(0, 50))));
  }
  if (v.bank.length) root.append(svg("text", { x: 4, y: handY - 28, class: "small" }, `bank: ${cardsName(v.bank)}`.slice(0, 120)));
  // the hand; while collecting, picked cards narrow the collections offered
  const collects = legal.filter((c) => c.type === "collect");
  const picked = new Set(ctx.memo.picked || []);
  root.append(svg("text", { x: 4, y: handY - 8, class: "title" }, v.seat === null ? "Watching: no hand" :
    "Your hand" + (collects.length ? " · pick cards to narrow the collections" : "")));
  v.hand.forEach((c, i) => {
    const g = cardPicture(ctx, c, i * 40, handY, 36, 54);
    if (collects.length && ctx.interactive) {
      g.classList.add(picked.has(i) ? "selected" : "act");
      g.addEventListener("click", () => {
        const next = new Set(ctx.memo.picked || []);
        if (next.has(i)) next.delete(i);
        else next.add(i);
        ctx.memo.picked = [...next];
        ctx.redraw();
      });
    }
    root.append(g);
  });
  if (collects.length || legal.some((c) => c.type === "pass")) {
    const want = countOf([...picked].map((i) => v.hand[i]));
    const fits = collects.filter((c) => {
      const have = countOf([...c.plus, ...c.minus]);
      for (const [k, n] of want) if ((have.get(k) || 0) < n) return false;
      return true;
    });
    const shown = fits.slice(0, 40).concat(legal.filter((c) => c.type === "pass"));
    ctx.choose(shown, (c) => describe(c) + (c === fits[39] && fits.length > 40 ? ` (… ${fits.length - 40} more)` : ""));
  }
  ctx.root.replaceChildren(root);
}
