// The browser client's pure helpers, under node's test runner (run by tests/web/test_js.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { describe, key } from "../../../src/meeple/web/static/js/board.js";
import { seatName } from "../../../src/meeple/web/static/js/dom.js";
import { nameLines } from "../../../src/meeple/web/static/boards/saboteur.js";

test("describe words a command's wire form plainly, its type first", () => {
  assert.equal(describe({ type: "bid", quantity: 2, face: 5 }), "bid quantity 2, face 5");
  assert.equal(describe({ type: "end_turn" }), "end_turn");
  assert.equal(describe({ type: "discard", cards: [3, 4] }), "discard cards [3,4]");
  assert.equal(describe({ type: "move", jumps_over: 1 }), "move jumps over 1");
});

test("key is equal for equal wire values and differs for different ones", () => {
  assert.equal(key({ type: "a", x: [1, 2] }), key({ type: "a", x: [1, 2] }));
  assert.notEqual(key({ type: "a", x: 1 }), key({ type: "a", x: 2 }));
  assert.notEqual(key(null), key(0));
});

test("seatName names a seat by its player, a bot, the engine or a spectator", () => {
  const players = [{ seat: 0, kind: "human", name: "Ann" }, { seat: 1, kind: "bot", bot: "random" }, { seat: 2, kind: "human" }];
  assert.equal(seatName(0, players), "Ann (seat 0)");
  assert.equal(seatName(1, players), "seat 1 (random bot)");
  assert.equal(seatName(2, players), "seat 2");
  assert.equal(seatName(-1, players), "the engine");
  assert.equal(seatName(null, players), "spectator");
});

test("nameLines fits a Saboteur card's name in at most three lines, shortening long words", () => {
  assert.deepEqual(nameLines("crossroads"), ["crossroads"]);
  assert.deepEqual(nameLines("dead-straight-horizontal"), ["dead", "straight", "horiz."]);
  const lines = nameLines("crystal-straight-horizontal-stub-n");
  assert.equal(lines.length, 3);
  assert.equal(lines.join(" "), "crystal straight horiz. stub n");
  for (const line of nameLines("green-door-vertical-stub-w").slice(0, -1)) assert.ok(line.length <= 11, line);
});

test("pick takes the kept choice, else the browser's first English or Russian language, else English", async () => {
  const { pick } = await import("../../../src/meeple/web/static/js/i18n.js");
  assert.equal(pick("ru", ["en-US"]), "ru");
  assert.equal(pick(null, ["de-DE", "ru-RU", "en"]), "ru");
  assert.equal(pick(null, ["en-GB", "ru"]), "en");
  assert.equal(pick("fr", ["de", "fr"]), "en");
  assert.equal(pick(undefined, ["RU_ru"]), "ru");
});

test("translate fills placeholders and falls back to the English id", async () => {
  const { format, translate } = await import("../../../src/meeple/web/static/js/i18n.js");
  assert.equal(translate("ru", "seat {n}", { n: 3 }), "место 3");
  assert.equal(translate("en", "seat {n}", { n: 3 }), "seat 3");
  assert.equal(translate("ru", "no such id {x}", { x: 1 }), "no such id 1");
  assert.equal(translate("ru", "Saboteur"), "Саботёр");
  assert.equal(format("{a} and {b}", { a: 1 }), "1 and {b}");
  assert.equal(format("{a}{a}", { a: "x" }), "xx");
});

test("the Russian table gives the games the names the rule texts use", async () => {
  const { RU } = await import("../../../src/meeple/web/static/js/strings.js");
  assert.deepEqual(["Underground Kings", "Gophers (Проныры)", "Mordred", "Saboteur"].map((g) => RU[g]),
    ["Подземные короли", "Проныры", "Мордред", "Саботёр"]);
});

test("the lobby offers the options of the chosen variant, by readable names", async () => {
  const { offered, optionLabel } = await import("../../../src/meeple/web/static/js/options.js");
  const variants = [{ name: "standard", min_seats: 3, max_seats: 10, options: {} },
    { name: "deluxe", min_seats: 2, max_seats: 12, options: { edition: "deluxe" } }];
  const options = ["edition", "gold_pass", "pass_discards", "round_end"].map((name) => ({ name }));
  const names = (variant) => offered("saboteur", variants, variant, options).map((o) => o.name);
  assert.deepEqual(names("standard"), ["gold_pass", "round_end"]);
  assert.deepEqual(names("deluxe"), ["pass_discards", "round_end"]);
  assert.deepEqual(offered("my-game", variants, "deluxe", options).map((o) => o.name), ["gold_pass", "pass_discards", "round_end"]);
  assert.equal(optionLabel("saboteur", "gold_pass"), "Direction the gold cards pass");
  assert.equal(optionLabel("my-game", "max_bid_size"), "Max bid size");
});
