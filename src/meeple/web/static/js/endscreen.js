// @ts-check
// The end screen of the play page: who won, how the rules decided it (the engine's reason, in the page's
// language, and the rule that ranks the players), and each seat's score taken apart as the game counts it.
//
// Everything comes from what the seat was sent: the outcome, its last view (the final position as it sees
// it) and its records. A game without a breakdown here (Liar's Dice, a game added later) gets the reason
// and the scores.

import { h, mount, seatName } from "./dom.js";
import { t } from "./i18n.js";
import { gotten, rounds } from "./summary.js";

/**
 * @typedef {object} EndContext
 * @property {string} game
 * @property {string} match
 * @property {any} outcome {winners, scores, reason}
 * @property {any} view the seat's last view (wire form)
 * @property {number | null} seat
 * @property {any[]} players
 * @property {any[]} records
 * @property {(w: string) => string} word the game's own word in the page's language
 */

/** Seats as a list of names: "seat 1, seat 2". */
function names(/** @type {number[]} */ seats, /** @type {any[]} */ players) {
  return seats.map((s) => seatName(s, players)).join(", ");
}

/** The seats in a "1, 2" list of the engine's reason. */
function seatList(/** @type {string} */ text) {
  return text.split(/,\s*/).map(Number);
}

/**
 * One clause of an engine's reason (the parts between "; "), in the page's language, or null if unknown.
 * @param {string} clause
 * @param {EndContext} ctx
 */
function clause(clause, ctx) {
  const who = (/** @type {string} */ s) => seatName(Number(s), ctx.players);
  let m;
  // Underground Kings
  if (clause === "the deck ran out") return t("the deck ran out");
  if ((m = /^seat (\d+) has the most points \((-?\d+)\)$/.exec(clause))) return t("{seat} has the most points ({n})", { seat: who(m[1]), n: m[2] });
  if ((m = /^seats ([\d, ]+) tie on (-?\d+) points and developed mines$/.exec(clause))) {
    return t("{seats} tie on {n} points and on developed mines", { seats: names(seatList(m[1]), ctx.players), n: m[2] });
  }
  // Gophers
  if ((m = /^the deck is empty and seat (\d+) holds (\d+) cards$/.exec(clause))) return t("the deck is empty and {seat} holds {n} cards", { seat: who(m[1]), n: m[2] });
  if ((m = /^the bank ran out of (.+)$/.exec(clause))) return t("the bank ran out: {kind}", { kind: ctx.word(m[1]) });
  if ((m = /^(\d+) rounds passed without a productive turn or a draw$/.exec(clause))) return t("{n} rounds passed without a productive turn or a draw", { n: m[1] });
  // Mordred
  if (clause === "every warrior of Mordred is on the map") return t("every warrior of Mordred is on the map");
  if (clause === "a player has every building of one type on the map") return t("a player has every building of one type on the map");
  if (clause === "a marker could not move along Mordred's road") return t("a marker could not move along Mordred's road");
  if (clause === "Mordred was beaten in his castle") return t("Mordred was beaten in his castle");
  if (clause === "the game ended") return t("the game ended");
  if ((m = /^Mordred wins \((\d+) warriors against (\d+) buildings\)$/.exec(clause))) return t("Mordred wins ({w} warriors against {b} buildings)", { w: m[1], b: m[2] });
  if ((m = /^King Arthur wins \((\d+) warriors against (\d+) buildings\)$/.exec(clause))) return t("King Arthur wins ({w} warriors against {b} buildings)", { w: m[1], b: m[2] });
  if ((m = /^seat (\d+) wins with the least advanced on the road$/.exec(clause))) return t("{seat} wins, the least advanced on the road", { seat: who(m[1]) });
  if ((m = /^seat (\d+) wins with the most building points$/.exec(clause))) return t("{seat} wins with the most building points", { seat: who(m[1]) });
  if ((m = /^seat (\d+) wins with the most money$/.exec(clause))) return t("{seat} wins with the most money", { seat: who(m[1]) });
  if ((m = /^a draw between seats ([\d, ]+)$/.exec(clause))) return t("a draw between {seats}", { seats: names(seatList(m[1]), ctx.players) });
  // Saboteur
  if ((m = /^after three rounds (.+) (holds|share) the most gold \((\d+) nuggets\)$/.exec(clause))) {
    const seats = m[1].split(/,\s*/).map((s) => Number(s.replace("seat ", "")));
    return m[2] === "holds"
      ? t("after three rounds {seats} holds the most gold ({n} nuggets)", { seats: names(seats, ctx.players), n: m[3] })
      : t("after three rounds {seats} share the most gold ({n} nuggets)", { seats: names(seats, ctx.players), n: m[3] });
  }
  return null;
}

/**
 * Why the match ended, in the page's language: each clause of the engine's reason by its pattern, with the
 * players' names; a reason this page does not know is shown as the server words it for the page's language.
 * @param {EndContext} ctx
 */
export function reasonText(ctx) {
  const reason = String(ctx.outcome.reason || "");
  const parts = reason.split("; ").map((c) => clause(c, ctx));
  if (reason && parts.every((p) => p !== null)) {
    const text = parts.join("; ");
    return text.charAt(0).toUpperCase() + text.slice(1) + ".";
  }
  // a reason this page does not take apart: the game's own words for it in the page's language (the outcome's
  // `text`, which the server words from the game's catalog), else the engine's English
  return ctx.outcome.text || reason;
}

const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0);

/** A table: a header row and a row per seat, the winners marked. */
function table(/** @type {string[]} */ heads, /** @type {any[][]} */ rows, /** @type {EndContext} */ ctx) {
  const won = ctx.outcome.winners;
  return h("table", { class: "scores breakdown" },
    h("tr", {}, h("th", {}, t("seat")), heads.map((x) => h("th", {}, x)), h("th", {}, "")),
    rows.map((cells, s) => h("tr", { class: [won.includes(s) ? "winner" : "", s === ctx.seat ? "me" : ""], dataset: { seat: s } },
      h("td", {}, seatName(s, ctx.players)), cells.map((c) => h("td", {}, c)), h("td", {}, won.includes(s) ? t("winner") : ""))));
}

/**
 * How the rules ranked the players, and each seat's score taken apart: [the rule, the table], or null.
 * @param {EndContext} ctx
 * @returns {[string, HTMLElement] | null}
 */
function breakdown(ctx) {
  const { view: v, outcome: o } = ctx;
  if (!v) return null;
  const seats = o.scores.map((/** @type {number} */ _, /** @type {number} */ s) => s);
  if (ctx.game === "kings" && Array.isArray(v.developed) && Array.isArray(v.mines)) {
    const rows = seats.map((s) => {
      const dev = (v.developed[s] || []).map((/** @type {any} */ m) => m.value);
      const owned = v.mines.filter((/** @type {any} */ m) => m.owner === s).map((/** @type {any} */ m) => m.mine.value);
      return [
        t("{n} mines: +{points}", { n: dev.length, points: sum(dev) }),
        t("{n} mines: −{points}", { n: owned.length, points: sum(owned) }),
        String(o.scores[s]),
      ];
    });
    return [t("The most points wins: each developed mine scores plus its value, each mine a player owns but has not developed scores minus its value. On equal points the player with more developed mines wins; still equal, they share the win."),
      table([t("developed"), t("owned, not developed"), t("points")], rows, ctx)];
  }
  if (ctx.game === "gophers" && Array.isArray(v.plus) && Array.isArray(v.minus)) {
    const rows = seats.map((s) => {
      const plus = (v.plus[s] || []).map((/** @type {any} */ c) => c.value);
      const minus = (v.minus[s] || []).map((/** @type {any} */ c) => c.value);
      return [t("{n} cards: +{points}", { n: plus.length, points: sum(plus) }),
        t("{n} cards: −{points}", { n: minus.length, points: sum(minus) }), String(o.scores[s])];
    });
    return [t("The highest score wins: the face-up pile counts plus, the face-down pile minus. On equal scores the player with the smaller face-down total wins; still equal, they share the win."),
      table([t("face-up pile"), t("face-down pile"), t("score")], rows, ctx)];
  }
  if (ctx.game === "mordred" && Array.isArray(v.road) && Array.isArray(v.money)) {
    const warriors = (v.warriors || []).filter(Boolean).length;
    const buildings = (v.buildings || []).filter((/** @type {any} */ b) => b !== null).length;
    const mordred = warriors > buildings;
    const rule = mordred
      ? t("Mordred's warriors on the map outnumber all the buildings ({w} against {b}), so Mordred wins, and of the players the one least advanced on his road wins (the lowest road number), then the most building points, then the most money: here the lowest wins, not the highest score.", { w: warriors, b: buildings })
      : t("The buildings on the map are not outnumbered by Mordred's warriors ({b} against {w}), so King Arthur wins, and the most building points win, then the most money.", { w: warriors, b: buildings });
    const rows = seats.map((s) => mordred
      ? [String(v.road[s]), String(o.scores[s]), String(v.money[s])]
      : [String(o.scores[s]), String(v.money[s]), String(v.road[s])]);
    const heads = mordred ? [t("road (lowest wins)"), t("building points"), t("money")] : [t("building points"), t("money"), t("road")];
    return [rule, table(heads, rows, ctx)];
  }
  if (ctx.game === "saboteur") {
    const played = rounds(ctx.records, ctx.seat).filter((r) => r.ended);
    const rows = seats.map((s) => [
      ...played.map((r) => {
        const got = gotten(r, s);
        const role = r.ended.roles[s];
        const amount = got.hidden ? "?" : String(got.amount);
        return `${ctx.word(role) === role ? t(role.replace(/-/g, " ")) : ctx.word(role)}: ${amount}`;
      }),
      String(o.scores[s]),
    ]);
    const heads = [...played.map((r) => t("round {n}", { n: r.number })), t("gold in all")];
    const hidden = played.some((r) => seats.some((s) => gotten(r, s).hidden));
    return [t("After three rounds the most gold wins; players with equal gold share the win.") +
      (hidden ? " " + t("Gold is kept face down: a round's gold you did not see is shown as ?, the totals are final.") : ""),
    table(heads, rows, ctx)];
  }
  return null;
}

/**
 * Draw the end screen into `box` (hidden while the match runs).
 * @param {HTMLElement} box
 * @param {EndContext} ctx
 */
export function drawEnd(box, ctx) {
  const o = ctx.outcome;
  box.hidden = o === null;
  if (o === null) return;
  const won = ctx.seat !== null && o.winners.includes(ctx.seat);
  const shared = o.winners.length > 1;
  const winners = names(o.winners, ctx.players);
  const title = o.winners.length === 0 ? t("A draw: nobody won")
    : ctx.seat === null ? t("{names} won", { names: winners })
      : won ? (shared ? t("You won, sharing the win with {names}", { names: names(o.winners.filter((/** @type {number} */ s) => s !== ctx.seat), ctx.players) }) : t("You won"))
        : t("You lost: {names} won", { names: winners });
  const parts = breakdown(ctx);
  mount(box,
    h("h2", { class: won ? "won" : "lost" }, title),
    h("p", { class: "reason" }, reasonText(ctx)),
    parts ? h("p", { class: "how" }, parts[0]) : null,
    parts ? parts[1] : h("table", { class: "scores" },
      h("tr", {}, h("th", {}, t("seat")), h("th", {}, t("score")), h("th", {}, "")),
      o.scores.map((/** @type {number} */ s, /** @type {number} */ i) => h("tr", { class: o.winners.includes(i) ? "winner" : "" },
        h("td", {}, seatName(i, ctx.players)), h("td", {}, s), h("td", {}, o.winners.includes(i) ? t("winner") : "")))),
    h("p", {}, h("a", { href: `debug?match=${encodeURIComponent(ctx.match)}` }, t("Open this match in the replay debugger"))),
  );
  box.dataset.game = ctx.game;
}
