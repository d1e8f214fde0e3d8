// Position deltas as the browser applies them (src/meeple/web/static/js/delta.js), under node's test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PatchError, patched, position } from "../../../src/meeple/web/static/js/delta.js";

test("a patch sets, deletes and splices, and leaves the value it patches as it was", () => {
  const old = { bids: [[1, 2]], phase: "bid", loser: null, hands: [[1, 2, 3], [4]] };
  const before = JSON.stringify(old);
  const ops = [["s", ["bids"], 1, 0, [[2, 2]]], ["d", ["loser"]], ["r", ["phase"], "call"],
    ["s", ["hands", 0], 0, 2, []], ["r", ["hands", 1, 0], 5], ["r", ["new"], { a: [] }]];
  assert.deepEqual(patched(old, ops), { bids: [[1, 2], [2, 2]], phase: "call", hands: [[3], [5]], new: { a: [] } });
  assert.equal(JSON.stringify(old), before);
  assert.equal(patched(old, [["r", [], 7]]), 7);
  assert.deepEqual(patched(old, []), old);
});

test("what the server's patches of a few positions give in Python, they give here", () => {
  // meeple.server.delta.diff of these pairs, as the server sends them
  const cases = [
    [{ a: [1, 2, 3, 4] }, [["s", ["a"], 1, 2, [9]]], { a: [1, 9, 4] }],
    [[{ n: 1 }, { n: 2 }], [["r", [1, "n"], 3]], [{ n: 1 }, { n: 3 }]],
    [{ x: 1 }, [["r", ["x"], true]], { x: true }],
    [{ "__proto__": 1 }, [["r", ["__proto__"], 2]], JSON.parse('{"__proto__": 2}')],
  ];
  for (const [old, ops, want] of cases) assert.deepEqual(patched(/** @type {any} */ (old), ops), want);
  assert.equal(Object.getPrototypeOf(patched(JSON.parse('{"__proto__": 1}'), [["r", ["__proto__"], { p: 1 }]])),
    Object.prototype);
});

test("a patch that does not fit the value is refused", () => {
  const value = { a: 1, l: [1] };
  for (const ops of [[["r", ["a", "b"], 1]], [["d", ["x"]]], [["s", ["l"], 2, 0, []]], [["s", ["l"], 0, 2, []]],
    [["r", ["l", 1], 0]], [["q", []]], [["d", []]], ["r"], [["d", ["l", 0]]]]) {
    assert.throws(() => patched(value, /** @type {any} */ (ops)), PatchError, JSON.stringify(ops));
  }
});

test("position takes a whole message's fields, or patches the held position by a delta", () => {
  const sync = { type: "sync", cursor: 1, view: { v: 1 }, legal: [{ type: "a" }], legal_text: ["a"],
    undo: { ok: false, reason: "" }, redo: false, clock: null, outcome: null, players: [] };
  const held = position(null, sync);
  assert.deepEqual(Object.keys(held), ["view", "legal", "legal_text", "undo", "redo", "clock", "outcome", "to_act", "picture"]);
  const next = position(held, { type: "update", cursor: 2, delta: [["r", ["view", "v"], 2], ["r", ["legal"], []]] });
  assert.deepEqual(next.view, { v: 2 });
  assert.deepEqual(next.legal, []);
  assert.deepEqual(held.legal, [{ type: "a" }]);
  assert.throws(() => position(null, { type: "update", delta: [] }), PatchError);
});
