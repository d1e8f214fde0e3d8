// @ts-check
// Saboteur's board: the maze with every card's tunnels, the goals (face down, with what this seat learned
// by a map), the players (tools, fronts, roles as this seat knows them, gold, face-down discards, what a
// hand swap showed this seat, dwarf cards put away), and the hand as card pictures. A seat picks a card,
// then where it goes.
//
// Drawn from the view's wire form (meeple.games.saboteur.view.View: the maze is `board`, its path cards
// `board.cells` and its goals `board.goals`) and the catalog of card kinds (meeple.web.catalogs.saboteur):
// edges are bit masks N=1, E=2, S=4, W=8.

/** @typedef {import("../js/board.js").BoardContext} Ctx */

import { show } from "./fit.js";

const N = 1, E = 2, S = 4, W = 8;
const CELL = 52; // a board cell, in SVG units
const EDGE_POINT = { [N]: [0.5, 0], [E]: [1, 0.5], [S]: [0.5, 1], [W]: [0, 0.5] };
const TURN = (m) => ((m << 2) | (m >> 2)) & 15;
const BITS = [N, E, S, W];
const TOOL_SHORT = { pickaxe: "pick", lantern: "lamp", cart: "cart" }; // message ids of the page's string table
const FRONT_LABEL = {
  "broken-pickaxe": "pickaxe broken", "broken-lantern": "lantern broken", "broken-cart": "cart broken",
  trapped: "trapped", theft: "thief",
};
/** A card in front of a player, as its badge says it: the label's first word, with a preposition kept with the
 * word it governs (Russian «в ловушке», not «в»). */
export function badge(/** @type {string} */ label) {
  const words = label.split(" ");
  return words[0].length <= 2 && words.length > 1 ? `${words[0]} ${words[1]}` : words[0];
}
const ACTION_COLOUR = {
  break: "#c0392b", repair: "#2e8b57", rockfall: "#7f6a55", map: "#2f6690", theft: "#8e44ad",
  hands_off: "#8e44ad", swap_hand: "#8e44ad", inspection: "#8e44ad", swap_hats: "#8e44ad", trapped: "#8e44ad",
  free: "#8e44ad",
};
// words of card names, as a card shows them
const SHORTER = { horizontal: "horiz.", vertical: "vert.", "горизонтали": "гориз.", "горизонталь": "гориз.", "вертикали": "верт.", "вертикаль": "верт." };
const LABEL_CHARS = 11; // characters of a 9-unit label line that fit a hand card
const ROLE_LABEL = {
  miner: "miner", saboteur: "saboteur", "green-miner": "green miner", "blue-miner": "blue miner", boss: "boss",
  profiteer: "profiteer", geologist: "geologist",
};

/**
 * A card kind's name as the page's language writes it (the game's word for it; the English id with spaces).
 * @param {Ctx} ctx
 * @param {string} name the English id (data.KINDS), e.g. "dead-curve-a"
 */
function said(ctx, name) {
  const word = ctx.word(name);
  return word === name ? name.replace(/-/g, " ") : word;
}

/** A card's tunnels as SVG, in a square of `size` at (x, y). */
function tunnels(ctx, kind, rotated, x, y, size) {
  const { svg } = ctx;
  const edges = rotated ? TURN(kind.edges) : kind.edges;
  const groups = kind.groups.map((g) => (rotated ? TURN(g) : g));
  const pt = (bit, f = 1) => {
    const [px, py] = EDGE_POINT[bit];
    return [x + size * (0.5 + (px - 0.5) * f), y + size * (0.5 + (py - 0.5) * f)];
  };
  const cx = x + size / 2, cy = y + size / 2;
  const width = size * 0.26;
  const parts = [];
  const joined = groups.reduce((a, g) => a | g, 0);
  groups.forEach((g, i) => {
    const bits = BITS.filter((b) => g & b);
    let d;
    if (bits.length === 1) {
      const [ex, ey] = pt(bits[0]);
      d = `M${ex},${ey} L${cx},${cy}`;
    } else if (bits.length === 2 && groups.length > 1) {
      const [ax, ay] = pt(bits[0]);
      const [bx, by] = pt(bits[1]);
      d = `M${ax},${ay} Q${cx},${cy} ${bx},${by}`;
    } else {
      d = bits.map((b) => { const [ex, ey] = pt(b); return `M${ex},${ey} L${cx},${cy}`; }).join(" ");
    }
    if (i > 0) parts.push(svg("path", { d, stroke: "#7a5c3e", "stroke-width": width + 4, fill: "none" }));
    parts.push(svg("path", { d, stroke: "#f3e6cc", "stroke-width": width, fill: "none", "stroke-linecap": "butt" }));
  });
  for (const b of BITS) {
    if (!(edges & b) || joined & b) continue; // a dead-end stub
    const [ex, ey] = pt(b);
    const [sx, sy] = pt(b, 0.45);
    parts.push(svg("path", { d: `M${ex},${ey} L${sx},${sy}`, stroke: "#f3e6cc", "stroke-width": width, fill: "none" }));
    parts.push(svg("circle", { cx: sx, cy: sy, r: width * 0.62, fill: "#3b2f2a" }));
  }
  if (groups.length === 0 && edges) parts.push(svg("circle", { cx, cy, r: width * 0.5, fill: "#3b2f2a" }));
  if (kind.ladder) {
    parts.push(svg("path", { d: `M${cx - 5},${cy - 8} v16 M${cx + 5},${cy - 8} v16 M${cx - 5},${cy - 3} h10 M${cx - 5},${cy + 3} h10`, stroke: "#e9c46a", "stroke-width": 1.6 }));
  }
  if (kind.door) {
    parts.push(svg("rect", { x: cx - 4, y: cy - 9, width: 8, height: 18, rx: 2, fill: kind.door === "green" ? "#2e8b57" : "#2f6690" }));
  }
  if (kind.crystals) {
    parts.push(svg("path", { d: `M${x + size - 11},${y + 4} l5,5 -5,6 -5,-6z`, fill: "#d35db2" }));
  }
  return parts;
}

/**
 * A card's name as the lines of its label: words joined while a line stays within `chars` characters,
 * at most `most` lines (the last one takes what is left), long words shortened.
 * @param {string} name words parted by hyphens or spaces
 * @returns {string[]}
 */
export function nameLines(name, chars = LABEL_CHARS, most = 3) {
  /** @type {string[]} */
  const lines = [];
  for (const word of name.split(/[-\s]+/).filter(Boolean).map((w) => SHORTER[/** @type {keyof SHORTER} */ (w)] || w)) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last].length + 1 + word.length <= chars || lines.length === most)) lines[last] += " " + word;
    else lines.push(word);
  }
  return lines;
}

/** The label lines of a card, centred at `cx` from `y` down, each squeezed to `width` if it is longer. */
function labelLines(svg, name, cx, y, width, attrs = {}) {
  return nameLines(name).map((line, i) => svg("text", {
    x: cx, y: y + i * 10, "text-anchor": "middle", class: "small", dataset: { fit: width }, ...attrs,
    ...(line.length > LABEL_CHARS ? { textLength: width, lengthAdjust: "spacingAndGlyphs" } : {}),
  }, line));
}

/** A card picture: a path card's tunnels, or an action card's name; its full name shows on hover. */
function cardPicture(ctx, kindId, x, y, w, h, rotated = false) {
  const { svg } = ctx;
  const kind = ctx.catalog.kinds[kindId];
  const g = svg("g", { class: "card", dataset: { kind: kind.name } });
  const name = said(ctx, kind.name);
  g.append(svg("rect", { class: "hit", x, y, width: w, height: h, rx: 5, fill: kind.category === "path" ? "#a47148" : "#f7f2ea", stroke: "#8b7355", "stroke-width": 1 }));
  if (kind.category === "path") {
    const lines = nameLines(name).length;
    const side = Math.min(w - 8, h - 8 - lines * 10);
    g.append(...tunnels(ctx, kind, rotated, x + (w - side) / 2, y + 3, side));
    g.append(...labelLines(svg, name, x + w / 2, y + h - 5 - (lines - 1) * 10, w - 6, { fill: "#fff" }));
  } else {
    const colour = ACTION_COLOUR[kind.action] || "#555";
    g.append(svg("rect", { x: x + 3, y: y + 3, width: w - 6, height: 16, rx: 3, fill: colour }));
    g.append(svg("text", { x: x + w / 2, y: y + 15, "text-anchor": "middle", class: "small", fill: "#fff", dataset: { fit: w - 8 } }, ctx.t(kind.action.replace(/_/g, " "))));
    g.append(...labelLines(svg, name, x + w / 2, y + 34, w - 6));
    if (kind.tools.length) {
      g.append(svg("text", { x: x + w / 2, y: y + h - 5, "text-anchor": "middle", class: "small", fill: colour, dataset: { fit: w - 6 } }, kind.tools.map((/** @type {keyof TOOL_SHORT} */ tool) => ctx.t(TOOL_SHORT[tool])).join("+")));
    }
  }
  g.append(svg("title", {}, name));
  return g;
}

function goalPicture(ctx, goal, index, x, y, known) {
  const { svg } = ctx;
  const g = svg("g", { class: "goal", dataset: { goal: index, ...(goal.kind ? { face: goal.kind } : {}) } });
  if (goal.kind === null) {
    g.append(svg("rect", { class: "hit", x, y, width: CELL, height: CELL, rx: 5, fill: "#3b2f2a", stroke: "#8b7355" }));
    g.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, "text-anchor": "middle", class: "label", fill: "#f2c38b", dataset: { fit: CELL - 6 } }, known ? (known === "gold" ? ctx.t("gold?") : ctx.t("coal?")) : ctx.t("goal")));
    if (known) g.append(svg("title", {}, ctx.t("you looked: {kind}", { kind: ctx.word(known) })));
  } else {
    const edges = ctx.catalog.goal_edges[goal.kind];
    const kind = { edges, groups: [edges], ladder: false, door: null, crystals: 0 };
    g.append(svg("rect", { class: "hit", x, y, width: CELL, height: CELL, rx: 5, fill: goal.kind === "gold" ? "#d4a017" : "#6e6259", stroke: "#3b2f2a" }));
    g.append(...tunnels(ctx, kind, goal.rotated, x, y, CELL));
    g.append(svg("text", { x: x + CELL / 2, y: y + 12, "text-anchor": "middle", class: "small", fill: "#fff" }, goal.kind === "gold" ? ctx.t("GOLD") : ctx.t("coal")));
  }
  return g;
}


/**
 * Draw the seat's view; offer its legal commands.
 * @param {Ctx} ctx
 */
export function render(ctx) {
  const { svg, view: v } = ctx;
  const { cells, goals } = v.board;
  const kindName = (/** @type {number} */ id) => said(ctx, ctx.catalog.kinds[id].name);
  const { t } = ctx;
  const role = (/** @type {string} */ r) => t(ROLE_LABEL[/** @type {keyof ROLE_LABEL} */ (r)]);
  const sel = ctx.selected; // a card kind id, once one is chosen
  const legal = ctx.legal;
  const withCard = (c) => sel !== null && c.card === sel;
  const pathMoves = legal.filter((c) => c.type === "path" && withCard(c));
  const rockfalls = legal.filter((c) => c.type === "rockfall" && withCard(c));
  // the maze's extent: every card, goal and legal target, with a margin
  const places = [[0, 0], ...ctx.catalog.goal_positions, ...cells.map((c) => [c.col, c.row]), ...pathMoves.map((c) => [c.col, c.row])];
  const cols = places.map((p) => p[0]), rows = places.map((p) => p[1]);
  const c0 = Math.min(...cols) - 1, c1 = Math.max(...cols) + 1, r0 = Math.min(...rows) - 1, r1 = Math.max(...rows) + 1;
  const mazeW = (c1 - c0 + 1) * CELL, mazeH = (r1 - r0 + 1) * CELL;
  const px = (col) => (col - c0) * CELL, py = (row) => (row - r0) * CELL + 24;
  const perRow = Math.min(v.seats, 6);
  const panelW = 150, panelH = 104;
  // beside the maze: the gold cards on offer, or the last round's result
  const lastResult = v.results.length ? v.results[v.results.length - 1] : null;
  const aside = v.offer.length || (lastResult && v.phase !== "play") ? Math.max(v.offer.length * 38, 180) + 14 : 0;
  const width = Math.max(mazeW + aside, perRow * (panelW + 8), 8 * 62 + 140);
  const playersY = mazeH + 40;
  const handY = playersY + Math.ceil(v.seats / perRow) * (panelH + 8) + 26;
  const height = handY + 110;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "saboteur", role: "img", "aria-label": t("Saboteur board") });
  const title = v.phase === "over" ? t("The game is over") : t("Round {n} of {total}", { n: v.round, total: ctx.catalog.rounds }) + ` · ${t(v.phase)}` +
    (ctx.turn && ctx.turn.line ? ` · ${ctx.turn.line}` : v.phase === "play" ? ` · ${t("{seat} to play", { seat: ctx.seatName(v.turn) })}` : "") + ` · ${t("pile {n}", { n: v.pile_size })}`;
  root.append(svg("text", { x: 4, y: 16, class: "title", dataset: { fit: width - 8 } }, title));
  root.append(svg("rect", { x: 0, y: 24, width: mazeW, height: mazeH, fill: "#4a3f36", rx: 6 }));
  // legal target cells for the chosen path card
  const byPlace = new Map();
  for (const c of pathMoves) {
    const k = `${c.col},${c.row}`;
    if (!byPlace.has(k)) byPlace.set(k, []);
    byPlace.get(k).push(c);
  }
  for (const [k, cmds] of byPlace) {
    const [col, row] = k.split(",").map(Number);
    const g = svg("g", { class: "cell", dataset: { col, row } },
      svg("rect", { class: "hit", x: px(col) + 2, y: py(row) + 2, width: CELL - 4, height: CELL - 4, rx: 5, fill: "#ffffff30", stroke: "#6ea8fe" }),
      ...tunnels(ctx, ctx.catalog.kinds[sel], cmds[0].rotated, px(col) + 6, py(row) + 6, CELL - 12).map((e) => { e.setAttribute("opacity", "0.35"); return e; }));
    ctx.offer(g, cmds);
    root.append(g);
  }
  // the start, the cards laid, the goals
  const start = { edges: ctx.catalog.start_edges, groups: [ctx.catalog.start_edges], ladder: true, door: null, crystals: 0 };
  root.append(svg("g", { class: "start" },
    svg("rect", { x: px(0), y: py(0), width: CELL, height: CELL, rx: 5, fill: "#2e8b57", stroke: "#1b5e3b" }),
    ...tunnels(ctx, start, false, px(0), py(0), CELL)));
  for (const cell of cells) {
    const g = svg("g", { class: "laid", dataset: { col: cell.col, row: cell.row, kind: ctx.catalog.kinds[cell.kind].name } },
      svg("rect", { class: "hit", x: px(cell.col), y: py(cell.row), width: CELL, height: CELL, rx: 4, fill: "#a47148", stroke: "#5b4636" }),
      ...tunnels(ctx, ctx.catalog.kinds[cell.kind], cell.rotated, px(cell.col), py(cell.row), CELL),
      svg("title", {}, kindName(cell.kind) + (cell.rotated ? ` ${t("(turned)")}` : "")));
    ctx.offer(g, rockfalls.filter((c) => c.col === cell.col && c.row === cell.row));
    root.append(g);
  }
  const known = new Map(v.known_goals.map(([i, kind]) => [i, kind]));
  goals.forEach((goal, i) => {
    const g = goalPicture(ctx, goal, i, px(goal.col), py(goal.row), known.get(i));
    ctx.offer(g, legal.filter((c) => c.type === "map" && withCard(c) && c.goal === i));
    root.append(g);
  });
  // the players
  const roleOf = new Map(v.inspected.map((/** @type {[number, string]} */ [s, r]) => [s, `${role(r)} ${t("(inspected)")}`]));
  if (v.role && v.seat !== null) roleOf.set(v.seat, role(v.role));
  if (lastResult && v.phase !== "play") lastResult.roles.forEach((/** @type {string} */ r, /** @type {number} */ s) => roleOf.set(s, role(r)));
  root.append(svg("text", { x: 4, y: playersY - 8, class: "title" }, t("Players")));
  for (let s = 0; s < v.seats; s++) {
    const x = (s % perRow) * (panelW + 8), y = playersY + Math.floor(s / perRow) * (panelH + 8);
    const onTurn = ctx.turn ? ctx.turn.acting.includes(s) : v.phase === "play" && v.turn === s;
    const g = svg("g", { class: ["player-panel", `seat-${s}`], dataset: { seat: s } },
      svg("rect", { class: "hit", x, y, width: panelW, height: panelH, rx: 8, fill: onTurn ? "#fff3d6" : "#fffdf9", stroke: "#b9ab9b" }),
      svg("circle", { cx: x + 12, cy: y + 14, r: 6, class: "seat-fill" }),
      svg("text", { x: x + 24, y: y + 18, class: "label", dataset: { fit: panelW - 30 } }, `${ctx.seatName(s)}${s === v.seat ? ` · ${t("you")}` : ""}`.slice(0, 24)),
      svg("text", { x: x + 8, y: y + 34, class: "small", dataset: { fit: panelW - 14 } }, t("{n} cards", { n: v.hand_sizes[s] ?? 0 }) + (roleOf.has(s) ? ` · ${roleOf.get(s)}` : "")));
    const fronts = v.front[s] || [];
    fronts.forEach((f, i) => {
      const item = svg("g", { class: "front", dataset: { front: f } },
        svg("rect", { class: "hit", x: x + 6 + i * 47, y: y + 42, width: 44, height: 16, rx: 3, fill: f.startsWith("broken") ? "#f4c7c3" : "#e5d4f0", stroke: "#a55" }),
        svg("text", { x: x + 28 + i * 47, y: y + 54, "text-anchor": "middle", class: "small", dataset: { fit: 40 } }, badge(t(FRONT_LABEL[/** @type {keyof FRONT_LABEL} */ (f)] || f))));
      item.append(svg("title", {}, t(FRONT_LABEL[/** @type {keyof FRONT_LABEL} */ (f)] || f)));
      ctx.offer(item, legal.filter((c) => c.type === "clear" && s === v.seat && c.removed === f && (sel === null || (c.cards || []).includes(sel))));
      g.append(item);
    });
    const gold = v.gold ? t("{n} gold", { n: v.gold[s] }) : s === v.seat && v.my_gold !== null ? t("{n} gold (yours)", { n: v.my_gold })
      : v.holds_gold ? (v.holds_gold[s] ? t("holds gold") : t("no gold")) : "";
    const discards = v.discard_counts[s] || 0;
    g.append(svg("text", { x: x + 8, y: y + 76, class: "small", dataset: { fit: panelW - 14 } },
      [gold, v.thieves.includes(s) ? t("thief") : "", discards ? t("{n} face down", { n: discards }) : ""].filter(Boolean).join(" · ")));
    // what this seat learned in secret of this player: a hand swap's cards, a dwarf card put away
    const learned = [];
    for (const k of v.known_hands) {
      if (k.holder !== s) continue;
      learned.push(t("you saw {cards}", { cards: k.cards.map(kindName).join(", ") }) +
        (k.sure < k.cards.length ? ` ${t("({n} still in hand)", { n: k.sure })}` : ""));
    }
    for (const [who, put] of v.put_away) {
      if (who === s) learned.push(t("put away: {card}", { card: put === null ? t("a dwarf card") : role(put) }));
    }
    if (learned.length) {
      const line = svg("text", { x: x + 8, y: y + 94, class: ["small", "learned"], dataset: { fit: panelW - 14 } }, learned.join("; ").slice(0, 30));
      line.append(svg("title", {}, learned.join("; ")));
      g.append(line);
    }
    const aimed = legal.filter((c) => ["break", "repair", "act", "swap_hand", "inspect"].includes(c.type) && withCard(c) && c.target === s)
      .concat(legal.filter((c) => c.type === "steal" && c.target === s));
    ctx.offer(g, aimed);
    root.append(g);
  }
  // the base game's gold offer
  if (v.offer.length) {
    root.append(svg("text", { x: mazeW + 10, y: 40, class: "label", dataset: { fit: aside - 14 } }, t("Choose a gold card:")));
    v.offer.forEach((value, i) => {
      const g = svg("g", { class: "gold-card", dataset: { value } },
        svg("rect", { class: "hit", x: mazeW + 10 + i * 38, y: 48, width: 34, height: 48, rx: 4, fill: "#f6d365", stroke: "#b8860b" }),
        svg("text", { x: mazeW + 27 + i * 38, y: 78, "text-anchor": "middle", class: "title" }, value));
      ctx.offer(g, legal.filter((c) => c.type === "take" && c.value === value));
      root.append(g);
    });
  }
  // the hand
  root.append(svg("text", { x: 4, y: handY - 8, class: "title", dataset: { fit: width - 8 } }, v.seat === null ? t("Watching: no hand") : t("Your hand") + (sel !== null ? ` · ${t("now click where it goes")}` : "")));
  const playable = new Set(legal.filter((c) => c.card !== undefined && c.type !== "discard").map((c) => c.card));
  const discardable = new Set(legal.filter((c) => c.type === "discard" || c.type === "clear").flatMap((c) => c.cards || []));
  v.hand.forEach((kindId, i) => {
    const g = cardPicture(ctx, kindId, i * 62, handY, 58, 92);
    g.dataset.slot = i;
    if (playable.has(kindId) || discardable.has(kindId)) ctx.selects(g, kindId);
    root.append(g);
  });
  const discards = sel === null ? [] : legal.filter((c) => c.type === "discard" && (c.cards || []).includes(sel));
  const pileX = Math.max(v.hand.length, 6) * 62 + 16;
  const mine = v.discarded.map(kindName);
  const pile = svg("g", { class: "discard-pile" },
    svg("rect", { class: "hit", x: pileX, y: handY, width: 110, height: 92, rx: 6, fill: "#efe7dc", stroke: "#8b7355", "stroke-dasharray": "4 3" }),
    svg("text", { x: pileX + 55, y: handY + 34, "text-anchor": "middle", class: "label", dataset: { fit: 102 } }, t("pass:")),
    svg("text", { x: pileX + 55, y: handY + 50, "text-anchor": "middle", class: "label", dataset: { fit: 102 } }, t("discard here")),
    mine.length ? svg("text", { x: pileX + 55, y: handY + 74, "text-anchor": "middle", class: "small", dataset: { fit: 102 } }, t("yours: {n} face down", { n: mine.length })) : null);
  if (mine.length) pile.append(svg("title", {}, t("you discarded: {cards}", { cards: mine.join(", ") })));
  ctx.offer(pile, discards);
  root.append(pile);
  // the last round's result
  if (lastResult && v.phase !== "play") {
    root.append(svg("text", { x: mazeW + 10, y: v.offer.length ? 120 : 40, class: "label", dataset: { fit: aside - 14 } }, t("Round {n}: the {team} won", { n: lastResult.number, team: ctx.word(lastResult.team) })));
  }
  show(ctx.root, root);
}

/**
 * What a card, a goal, the start or a card in front of a player is and does: the details panel (js/zoom.js).
 * @param {import("../js/zoom.js").AboutContext} ctx
 * @param {Element} el
 * @returns {import("../js/zoom.js").Described | null}
 */
export function about(ctx, el) {
  const data = /** @type {SVGElement} */ (el).dataset || {};
  const is = (/** @type {string} */ c) => el.classList.contains(c);
  if ((is("card") || is("laid")) && data.kind) {
    const kind = ctx.catalog.kinds.find((/** @type {any} */ k) => k.name === data.kind);
    if (!kind) return null;
    return { title: said(/** @type {any} */ (ctx), kind.name), text: kind.category === "path" ? ctx.about.path : ctx.about[kind.name] };
  }
  if (is("front") && data.front) return { title: ctx.t(FRONT_LABEL[/** @type {keyof FRONT_LABEL} */ (data.front)] || data.front), text: ctx.about[data.front] };
  if (is("goal")) {
    if (!data.face) return { title: ctx.t("goal"), text: ctx.about.goal };
    return { title: ctx.word(data.face), text: data.face === "gold" ? ctx.about.gold : ctx.about.coal };
  }
  if (is("start")) return { title: ctx.t("The start"), text: ctx.about.start };
  return null;
}

/**
 * Whose turn it is (js/turns.js): the player in turn plays; after a round the miners choose gold cards
 * (base game) and the thieves steal (Deluxe), outside the turn order.
 * @param {{view: any, t: (id: string, params?: any) => string}} ctx
 */
export function turn(ctx) {
  const v = ctx.view;
  if (v.phase === "choose") {
    return { mover: null, does: ctx.t("choose a gold card"), why: ctx.t("the miners share the gold: the one who reached it chooses first, then the cards pass from miner to miner") };
  }
  if (v.phase === "theft") {
    return { mover: null, does: ctx.t("steal a gold nugget"), why: ctx.t("after the shares, every thief who is not trapped steals one nugget from a player who has one") };
  }
  return { mover: v.phase === "play" ? v.turn : null };
}

/**
 * What a record touched on this board (js/highlight.js): the maze cells laid, the goals turned or looked
 * at, the players a card aimed at or whose cards, fronts or gold changed.
 * @param {{events?: any[]}} record
 * @returns {string[]}
 */
export function touched(record) {
  const cell = (/** @type {any} */ e) => `.laid[data-col="${e.col}"][data-row="${e.row}"]`;
  const panel = (/** @type {number} */ s) => `.player-panel[data-seat="${s}"]`;
  /** @type {string[]} */
  const out = [];
  for (const e of record.events || []) {
    switch (e.type) {
      case "path_played":
        out.push(cell(e));
        break;
      case "path_removed":
        out.push(panel(e.seat));
        break;
      case "goal_revealed": case "goal_peeked":
        out.push(`.goal[data-goal="${e.goal}"]`);
        break;
      case "tool_broken": case "tool_repaired": case "action_played": case "hands_swapped": case "role_inspected": case "hat_swapped":
        out.push(panel(e.target));
        break;
      case "discarded": case "front_cleared": case "gold_taken":
        out.push(panel(e.seat));
        break;
      case "stolen":
        out.push(panel(e.seat), panel(e.target));
        break;
      default:
        break;
    }
  }
  return out;
}
