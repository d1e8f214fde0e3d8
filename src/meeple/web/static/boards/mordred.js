// @ts-check
// Mordred's board: the map of Wales (terrain, the border with England, who stands where: buildings and
// Mordred's warriors), the road with every seat's marker, the Money table and the prices. A seat clicks a
// row of the Money table to roll, an area to place a warrior, build or attack, and "end turn".
//
// Drawn from the view's wire form (meeple.games.mordred.view.View) and the catalog (map and tables).

/** @typedef {import("../js/board.js").BoardContext} Ctx */

import { show } from "./fit.js";

const TILE = 86, GAP = 8, LEFT = 10, TOP = 34;
const TERRAIN = { forest: "#5d8c4a", mountains: "#9a8c7a", castle: "#3b2f2a" };
const KIND_LETTER = { village: "V", town: "T", castle: "C" }; // message ids of the page's string table
/** Why the game ended, by the view's `ended` (message ids). */
const ENDED = {
  warriors: "every warrior of Mordred is on the map", buildings: "a player has every building of one type on the map",
  road: "a marker cannot move along Mordred's road as it must", mordred: "Mordred is beaten in his castle",
};


function building(ctx, b, x, y) {
  const { svg } = ctx;
  const cls = ["building", `seat-${b.owner}`];
  const size = b.kind === "village" ? 16 : b.kind === "town" ? 20 : 24;
  const shape = b.kind === "castle"
    ? `M${x},${y + size} v${-size} h4 v4 h4 v-4 h4 v4 h4 v-4 h4 v${size}z`
    : `M${x},${y + size} v${-size * 0.55} l${size / 2},${-size * 0.45} l${size / 2},${size * 0.45} v${size * 0.55}z`;
  return svg("g", { class: cls, dataset: { kind: b.kind } },
    svg("path", { d: shape, class: "seat-fill", stroke: "#fff", "stroke-width": 1.5 }),
    svg("text", { x: x + size / 2, y: y + size - 3, "text-anchor": "middle", class: "small", fill: "#fff" }, ctx.t(KIND_LETTER[/** @type {keyof KIND_LETTER} */ (b.kind)])));
}

/**
 * Draw the seat's view; offer its legal commands.
 * @param {Ctx} ctx
 */
export function render(ctx) {
  const { svg, view: v, catalog, t } = ctx;
  const legal = ctx.legal;
  const areas = catalog.areas;
  const index = new Map(areas.map((a, i) => [a.code, i]));
  const maxCol = Math.max(...areas.map((a) => a.col)), maxRow = Math.max(...areas.map((a) => a.row));
  const mapW = LEFT + (maxCol + 1) * (TILE + GAP) + 60;
  const mapH = TOP + (maxRow + 1) * (TILE + GAP);
  const sideX = mapW + 10, sideW = 360;
  const width = sideX + sideW;
  const height = Math.max(mapH + 20, 560);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "mordred", role: "img", "aria-label": t("Mordred board") });
  const status = v.ended ? t("Over: {why}", { why: t(ENDED[/** @type {keyof ENDED} */ (v.ended)] || v.ended) })
    : `${t("Turn {n}", { n: v.turns + 1 })} · ${ctx.turn ? ctx.turn.line : ctx.seatName(v.turn)} · ${t(v.phase)}` +
    (v.phase === "place" ? ` · ${t("{n} warriors to place", { n: v.hand })}` : "") + ` · ${t("Mordred's supply {n}", { n: v.supply })}`;
  root.append(svg("text", { x: 4, y: 18, class: "title", dataset: { fit: width - 8 } }, status));
  const centre = (a) => [LEFT + a.col * (TILE + GAP) + TILE / 2, TOP + a.row * (TILE + GAP) + TILE / 2];
  // adjacency first, under the tiles
  const drawn = new Set();
  for (const a of areas) {
    for (const n of a.neighbours) {
      const k = [a.code, n].sort().join("-");
      if (drawn.has(k) || !index.has(n)) continue;
      drawn.add(k);
      const [x1, y1] = centre(a), [x2, y2] = centre(areas[index.get(n)]);
      root.append(svg("line", { x1, y1, x2, y2, stroke: "#c9bda9", "stroke-width": 5 }));
    }
  }
  root.append(svg("text", { x: LEFT + (maxCol + 1) * (TILE + GAP) + 6, y: TOP + mapH / 2, class: "label", transform: `rotate(90 ${LEFT + (maxCol + 1) * (TILE + GAP) + 6} ${TOP + mapH / 2})` }, t("E N G L A N D")));
  for (const a of areas) {
    const i = index.get(a.code);
    const x = LEFT + a.col * (TILE + GAP), y = TOP + a.row * (TILE + GAP);
    const b = v.buildings[i];
    const name = ctx.word(a.name);
    const code = name === a.name ? a.code : name.slice(0, 3).toUpperCase(); // a short name, in the page's letters
    const warrior = v.warriors[i];
    const g = svg("g", { class: "area", dataset: { area: a.code } },
      svg("rect", { class: "hit", x, y, width: TILE, height: TILE, rx: 10, fill: TERRAIN[a.terrain], stroke: a.border ? "#111" : "#6b5a3a", "stroke-width": a.border ? 4 : 1.5 }),
      svg("text", { x: x + 6, y: y + 14, class: "small", fill: "#fff" }, code),
      svg("text", { x: x + 6, y: y + TILE - 6, class: "small", fill: "#fff", dataset: { fit: TILE - 10 } }, name.length > 14 ? name.slice(0, 13) + "…" : name),
      svg("title", {}, `${name} (${t(a.terrain)}${a.border ? `, ${t("on the border")}` : ""})`));
    if (a.code === catalog.castle_area) {
      g.append(svg("text", { x: x + TILE / 2, y: y + TILE / 2 + 4, "text-anchor": "middle", class: "label", fill: "#f2c38b" }, t("Mordred")));
    }
    if (b) g.append(building(ctx, b, x + 10, y + 26));
    if (warrior) {
      g.append(svg("g", { class: "warrior" },
        svg("path", { d: `M${x + TILE - 34},${y + 26} h22 v12 q0,12 -11,16 q-11,-4 -11,-16z`, fill: "#111", stroke: "#e9c46a", "stroke-width": 1.5 }),
        svg("title", {}, t("one of Mordred's warriors"))));
    }
    const here = legal.filter((c) => (c.type === "place" || c.type === "build") ? c.area === a.code :
      c.type === "attack" ? c.source === a.code || c.target === a.code : false);
    ctx.offer(g, here);
    root.append(g);
  }
  // the road
  let y = TOP;
  const back = v.options.road_back, forward = v.options.road_forward;
  const span = back + forward + 1;
  const step = Math.min(24, (sideW - 10) / span);
  root.append(svg("text", { x: sideX, y: y - 6, class: "label", dataset: { fit: sideW } }, t("The road (0: the dragon)")));
  for (let k = -back; k <= forward; k++) {
    const x = sideX + (k + back) * step;
    root.append(svg("rect", { x, y, width: step - 2, height: 22, rx: 3, fill: k === 0 ? "#b5651d" : "#efe7dc", stroke: "#b9ab9b" }));
    if (k % 3 === 0) root.append(svg("text", { x: x + step / 2 - 1, y: y + 34, "text-anchor": "middle", class: "small" }, k));
  }
  v.road.forEach((pos, s) => {
    const x = sideX + (pos + back) * step + step / 2 - 1;
    root.append(svg("circle", { cx: x, cy: y + 6 + (s % 3) * 5, r: 4, class: ["seat-fill", `seat-${s}`], stroke: "#fff" }));
  });
  // the players
  y += 52;
  for (let s = 0; s < v.seats; s++) {
    const owned = v.buildings.filter((b) => b && b.owner === s);
    const count = (kind) => owned.filter((b) => b.kind === kind).length;
    root.append(svg("g", { class: ["player-line", `seat-${s}`], dataset: { seat: s } },
      svg("rect", { x: sideX, y: y - 12, width: sideW, height: 20, rx: 4, fill: v.turn === s && !v.ended ? "#fff3d6" : "none" }),
      svg("circle", { cx: sideX + 8, cy: y - 2, r: 5, class: "seat-fill" }),
      svg("text", { x: sideX + 18, y: y + 2, class: "label", dataset: { fit: sideW - 20 } },
        `${ctx.seatName(s)}${s === v.seat ? ` · ${t("you")}` : ""}: £${v.money[s] ?? 0} · ${t("road {n}", { n: v.road[s] ?? 0 })} · ` +
        `${t("V")}${count("village")} ${t("T")}${count("town")} ${t("C")}${count("castle")}`)));
    y += 22;
  }
  // the Money table: a row to declare, and the last roll
  y += 14;
  root.append(svg("text", { x: sideX, y, class: "label", dataset: { fit: sideW } }, t("Money table (declare a row and roll; black: Mordred's warriors)")));
  y += 8;
  for (const row of ["A", "B", "C"]) {
    const cells = catalog.money[row];
    const g = svg("g", { class: "money-row", dataset: { row } },
      svg("rect", { class: "hit", x: sideX, y, width: 30 + cells.length * 44, height: 30, rx: 5, fill: "#fffdf9", stroke: "#b9ab9b" }),
      svg("text", { x: sideX + 10, y: y + 20, class: "title" }, row));
    cells.forEach((cell, f) => {
      g.append(svg("rect", { x: sideX + 30 + f * 44, y: y + 3, width: 40, height: 24, rx: 3, fill: cell.black ? "#222" : "#f3ece2" }));
      g.append(svg("text", { x: sideX + 50 + f * 44, y: y + 20, "text-anchor": "middle", class: "small", fill: cell.black ? "#fff" : "#2b2622" },
        `${f + 1}: ${cell.black ? `${cell.amount}⚔` : `£${cell.amount}`}`));
    });
    ctx.offer(g, legal.filter((c) => c.type === "roll" && c.row === row));
    root.append(g);
    y += 34;
  }
  if (v.last_roll) {
    const r = v.last_roll;
    root.append(svg("text", { x: sideX, y: y + 10, class: "label", dataset: { fit: sideW } }, t("Last roll: {seat}, row {row}, dice {dice}: £{money}, {warriors} warriors", { seat: ctx.seatName(r.seat), row: r.row, dice: r.dice.join(" + "), money: r.money, warriors: r.warriors })));
  }
  y += 28;
  root.append(svg("text", { x: sideX, y, class: "label", dataset: { fit: sideW } }, t("Prices (forest / mountains) and points")));
  for (const [kind, spec] of Object.entries(catalog.buildings)) {
    y += 16;
    root.append(svg("text", { x: sideX + 8, y, class: "small", dataset: { fit: sideW - 8 } }, `${ctx.word(kind)}: £${spec.forest} / ${spec.mountains === null ? "—" : `£${spec.mountains}`} · ${t("{n} points", { n: spec.points })} · ${t("{n} pieces", { n: spec.pieces })}`));
  }
  y += 16;
  root.append(svg("text", { x: sideX + 8, y, class: "small", dataset: { fit: sideW - 8 } }, t("away from your buildings: +£{surcharge} (not on the border) · attack: £{attack}", { surcharge: catalog.surcharge, attack: catalog.attack_cost })));
  const ends = legal.filter((c) => c.type === "end_turn");
  if (ends.length) {
    y += 18;
    const g = svg("g", { class: "end-turn" },
      svg("rect", { class: "hit", x: sideX, y, width: 120, height: 30, rx: 6, fill: "#b5651d" }),
      svg("text", { x: sideX + 60, y: y + 20, "text-anchor": "middle", class: "label", fill: "#fff", dataset: { fit: 112 } }, t("End turn")));
    ctx.offer(g, ends);
    root.append(g);
  }
  show(ctx.root, root);
}

/**
 * What an area, a building, a warrior or a row of the Money table is and does: the details panel (js/zoom.js).
 * @param {import("../js/zoom.js").AboutContext} ctx
 * @param {Element} el
 * @returns {import("../js/zoom.js").Described | null}
 */
export function about(ctx, el) {
  const data = /** @type {SVGElement} */ (el).dataset || {};
  const is = (/** @type {string} */ c) => el.classList.contains(c);
  if (is("building") && data.kind) return { title: ctx.word(data.kind), text: ctx.about[data.kind] };
  if (is("warrior")) return { title: ctx.t("one of Mordred's warriors"), text: ctx.about.warrior };
  if (is("money-row") && data.row) return { title: ctx.t("Row {row}", { row: data.row }), text: ctx.about.row };
  if (is("area") && data.area) {
    const a = ctx.catalog.areas.find((/** @type {any} */ x) => x.code === data.area);
    if (!a) return null;
    const text = a.code === ctx.catalog.castle_area ? ctx.about["castle-area"] : ctx.about[a.terrain] + (a.border ? ` ${ctx.about.border}` : "");
    return { title: ctx.word(a.name), text };
  }
  return null;
}

/**
 * What a record touched on this board (js/highlight.js): the Money table's row rolled on, the areas where
 * warriors were placed, buildings built or besieged, attacks made from and to.
 * @param {{events?: any[]}} record
 * @param {Ctx} ctx
 * @returns {string[]}
 */
export function touched(record, ctx) {
  const area = (/** @type {string} */ code) => `.area[data-area="${code}"]`;
  /** @type {string[]} */
  const out = [];
  for (const e of record.events || []) {
    switch (e.type) {
      case "rolled":
        out.push(`.money-row[data-row="${e.row}"]`);
        break;
      case "warrior_placed": case "siege": case "built":
        out.push(area(e.area));
        break;
      case "attacked":
        out.push(area(e.source), area(e.target));
        break;
      case "assaulted":
        out.push(area(e.source), area(ctx.catalog.castle_area));
        break;
      default:
        break;
    }
  }
  return out;
}
