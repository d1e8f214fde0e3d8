// Whose turn it is (turns.js) and which records are marked (highlight.js), under node's test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeTurn, seatMark } from "../../../src/meeple/web/static/js/turns.js";
import { MOST, recentMoves } from "../../../src/meeple/web/static/js/highlight.js";
import * as gophers from "../../../src/meeple/web/static/boards/gophers.js";
import * as saboteur from "../../../src/meeple/web/static/boards/saboteur.js";

const named = (s) => `seat ${s}`;
const t = (id, params) => id.replace(/\{(\w+)\}/g, (w, k) => (params && k in params ? String(params[k]) : w));

test("the seat to move is named alike by the board's line, the badge and the players panel", () => {
  const turn = describeTurn({ acting: [1], rule: { mover: 1 }, seat: 0, mine: false, over: false, seatName: named });
  assert.equal(turn.line, "seat 1 to move");
  assert.equal(turn.badge, "Waiting for seat 1…");
  assert.deepEqual(seatMark(turn, 1), { text: "to move", label: "to move" });
  assert.equal(seatMark(turn, 0), null);
  const mine = describeTurn({ acting: [0], rule: {}, seat: 0, mine: true, over: false, seatName: named });
  assert.equal(mine.badge, "Your move");
  assert.equal(mine.line, "seat 0 to move");
  const watching = describeTurn({ acting: [2], rule: {}, seat: null, mine: false, over: false, seatName: named });
  assert.equal(watching.badge, "Watching: seat 2 to move");
  assert.equal(describeTurn({ acting: [], rule: {}, seat: null, mine: false, over: false, seatName: named }).badge, "Watching");
});

test("a seat acting outside the turn order is told what it may do and why", () => {
  const view = { phase: "collect", current: 1, collectors: [0, 2] };
  const rule = gophers.turn({ view, t });
  assert.equal(rule.mover, 1);
  const turn = describeTurn({ acting: [0], rule, seat: 0, mine: true, over: false, seatName: named });
  assert.equal(turn.line, "seat 0 may collect now · seat 1's turn");
  assert.match(turn.badge, /^You may collect now: after a turn of the book/);
  assert.equal(seatMark(turn, 0).text, "may collect now");
  assert.match(seatMark(turn, 0).label, /supply or a store/);
  // the mover collecting at its own hole acts in its own turn
  assert.deepEqual(gophers.turn({ view: { phase: "collect", current: 1, collectors: [1, 0] }, t }), { mover: 1 });
  assert.equal(saboteur.turn({ view: { phase: "theft", turn: 2 }, t }).does, "steal a gold nugget");
  assert.equal(saboteur.turn({ view: { phase: "choose", turn: 2 }, t }).mover, null);
});

test("the marked records are the seat's own last one and everything after it", () => {
  const records = [0, 1, 2, 0, -1, 1, 2].map((actor, seq) => ({ seq, actor, command: { type: "x" } }));
  const mine = recentMoves(records, 0, [0]);
  assert.equal(mine.own.seq, 3);
  assert.deepEqual(mine.others.map((r) => r.seq), [4, 5, 6]);
  // before the seat's first command: everything so far; a spectator: since the seat to act last acted
  assert.deepEqual(recentMoves(records.slice(0, 2), 2, [2]).others.map((r) => r.seq), [0, 1]);
  const spectator = recentMoves(records, null, [1]);
  assert.equal(spectator.own, null);
  assert.deepEqual(spectator.others.map((r) => r.seq), [6]);
  const long = Array.from({ length: 200 }, (_, seq) => ({ seq, actor: 1, command: { type: "x" } }));
  assert.equal(recentMoves(long, 0, [0]).others.length, MOST);
});

test("the boards name the elements a record's events touched", () => {
  const view = { positions: [3, 7] };
  const record = { events: [{ type: "rolled", seat: 1, roll: 4 }, { type: "moved", seat: 1, dest: 7, jumped: [] }] };
  assert.deepEqual(gophers.touched(record, { view }), [".die", '.hole[data-hole="7"]', '.pawn[data-seat="1"]']);
  const laid = { events: [{ type: "path_played", seat: 0, card: 14, col: 2, row: -1, rotated: false }, { type: "drawn", seat: 0, card: null }] };
  assert.deepEqual(saboteur.touched(laid), ['.laid[data-col="2"][data-row="-1"]']);
});

test("a card in front of a player keeps a short preposition with its word on the badge", () => {
  assert.equal(saboteur.badge("pickaxe broken"), "pickaxe");
  assert.equal(saboteur.badge("в ловушке"), "в ловушке");
  assert.equal(saboteur.badge("кирка сломана"), "кирка");
  assert.equal(saboteur.badge("thief"), "thief");
});
