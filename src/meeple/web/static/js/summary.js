// @ts-check
// The round summary of the play page: when a Saboteur round is paid, what happened in it, shown until the
// player dismisses it (the board behind goes on with the next round meanwhile; a round paid before the
// summary of an earlier one is dismissed waits its turn).
//
// Built only from what the seat was sent: the records as it sees them (the round's goal turned over, the
// roles every player sees at the round's end, the gold handed out, its own amounts and the others' hidden
// ones, every total once the last payout says them). The summary of a round stays dismissed in this
// browser (localStorage) for that match.

import { h, mount, seatName } from "./dom.js";
import { t } from "./i18n.js";

/** The message ids of the roles (the page's string table). */
const ROLE_LABEL = {
  miner: "miner", saboteur: "saboteur", "green-miner": "green miner", "blue-miner": "blue miner", boss: "boss",
  profiteer: "profiteer", geologist: "geologist",
};
/** The goals by index, as the game's words name them. */
const GOALS = ["top", "middle", "bottom"];

/**
 * @typedef {object} Round a round as the seat's records tell it
 * @property {number} number
 * @property {{goal: number, kind: string}[]} goals the goals turned over, in order
 * @property {number[]} peeked the goals this seat saw the gold under, by a map
 * @property {any} ended the round_ended event, or null while it runs
 * @property {any[]} pay the round's payout events (gold offered, taken, paid, stolen)
 * @property {any} done the payout_done event, or null before the round is paid
 */

/**
 * The rounds the records tell of, in order.
 * @param {any[]} records the records as the seat sees them (wire form)
 * @param {number | null} seat
 * @returns {Round[]}
 */
export function rounds(records, seat) {
  /** @type {Round[]} */
  const out = [];
  /** @type {Round | null} */
  let round = null;
  for (const r of records) {
    for (const e of r.events || []) {
      if (e.type === "dealt") {
        round = { number: e.round, goals: [], peeked: [], ended: null, pay: [], done: null };
        out.push(round);
      } else if (round === null) {
        continue;
      } else if (e.type === "goal_revealed") {
        round.goals.push({ goal: e.goal, kind: e.kind });
      } else if (e.type === "goal_peeked" && e.seat === seat && e.kind === "gold") {
        round.peeked.push(e.goal);
      } else if (e.type === "round_ended") {
        round.ended = e;
      } else if (["gold_offered", "gold_taken", "gold_paid", "stolen"].includes(e.type)) {
        round.pay.push(e);
      } else if (e.type === "payout_done") {
        round.done = e;
      }
    }
  }
  return out;
}

const KEY = (/** @type {string} */ match) => `meeple.summary.${match}`;
/** Dismissed on this page (where the browser keeps no storage), by match. */
const gone = new Map();
/** The last round paid before this page first saw the match, by match. */
const floors = new Map();

/** The last round whose summary this browser dismissed at `match` (0: none). */
function dismissed(match) {
  let kept = 0;
  try {
    kept = Number(localStorage.getItem(KEY(match)) || 0);
  } catch {
    kept = 0;
  }
  return Math.max(kept, gone.get(match) || 0);
}

/**
 * What a seat got in one round: its gold (a number where the seat may see it, else null) and how.
 * @param {Round} round
 * @param {number} s
 */
export function gotten(round, s) {
  let amount = 0, hidden = 0, cards = 0;
  const notes = [];
  for (const e of round.pay) {
    if (e.type === "gold_taken" && e.seat === s) {
      cards += 1;
      if (e.value === null) hidden += 1; else amount += e.value;
    } else if (e.type === "gold_paid" && e.seat === s) {
      if (e.amount === null) hidden += 1; else amount += e.amount;
    } else if (e.type === "stolen" && e.seat === s) {
      amount += 1;
      notes.push(["stole", e.target]);
    } else if (e.type === "stolen" && e.target === s) {
      amount -= 1;
      notes.push(["robbed", e.seat]);
    }
  }
  return { amount, hidden, cards, notes };
}

/**
 * Draw the summary of the last round paid, unless this browser dismissed it (then hide `host`).
 * @param {HTMLElement} host
 * @param {{game: string, match: string, records: any[], view: any, seat: number | null, players: any[],
 *          word: (w: string) => string, redraw: () => void}} ctx
 */
export function drawSummary(host, ctx) {
  const all = ctx.game === "saboteur" ? rounds(ctx.records, ctx.seat) : [];
  const paid = all.filter((r) => r.ended && r.done);
  if (!floors.has(ctx.match) && ctx.records.length) {  // a page opened on a match: its rounds paid before, but the last, are old news
    floors.set(ctx.match, paid.length ? paid[paid.length - 1].number - 1 : 0);
  }
  const seen = Math.max(dismissed(ctx.match), floors.get(ctx.match) || 0);
  const round = paid.find((r) => r.number > seen) || null;  // the first one not dismissed: each waits its turn
  if (round === null) {
    host.hidden = true;
    host.replaceChildren();
    return;
  }
  const word = (/** @type {string} */ w) => {
    const said = ctx.word(w);
    return said === w ? w.replace(/-/g, " ") : said;
  };
  const name = (/** @type {number} */ s) => seatName(s, ctx.players);
  const goalName = (/** @type {number} */ i) => (GOALS[i] ? word(GOALS[i]) : String(i + 1));
  const ended = round.ended;
  const team = ended.team.split("+").map(word).join(" + ");
  const gold = round.goals.find((g) => g.kind === "gold");
  const goalLine = gold
    ? t("The gold was under the goal: {goal}.", { goal: goalName(gold.goal) })
    : round.peeked.length
      ? t("Nobody reached the gold; your map showed it under the goal: {goal}.", { goal: goalName(round.peeked[0]) })
      : t("Nobody reached the gold; the goals that were not turned over stay secret.");
  const finder = ended.finisher >= 0 ? t("{seat} laid the card that reached it.", { seat: name(ended.finisher) }) : "";
  const over = round.done.game_over;
  const rows = ended.roles.map((/** @type {string} */ role, /** @type {number} */ s) => {
    const got = gotten(round, s);
    const mine = s === ctx.seat;
    const parts = [];
    if (got.hidden && got.amount === 0) {
      parts.push(got.cards ? t("{n} gold cards, value secret", { n: got.cards }) : t("paid, amount secret"));
    } else if (got.hidden) {
      parts.push(t("{n} gold and more, secret", { n: got.amount }));
    } else if (got.amount || got.cards) {
      parts.push(t("{n} gold", { n: got.amount }));
    } else {
      parts.push(t("no gold"));
    }
    for (const [how, other] of got.notes) {
      parts.push(how === "stole" ? t("stole 1 from {seat}", { seat: name(other) }) : t("robbed of 1 by {seat}", { seat: name(other) }));
    }
    // after this round: every total once the game is over (the payout says them), else only this seat's own
    const total = round.done.gold ? String(round.done.gold[s])
      : mine ? String(paid.filter((r) => r.number <= round.number).reduce((a, r) => a + gotten(r, s).amount, 0)) : t("secret");
    return h("tr", { class: [ended.winners.includes(s) ? "winner" : "", mine ? "me" : ""], dataset: { seat: s } },
      h("td", {}, name(s)),
      h("td", { class: "role" }, t(ROLE_LABEL[/** @type {keyof ROLE_LABEL} */ (role)] || role)),
      h("td", {}, ended.winners.includes(s) ? t("won the round") : ""),
      h("td", { class: "gold" }, parts.join(" · ")),
      h("td", { class: "total" }, total));
  });
  mount(host,
    h("h2", {}, t("Round {n} is over: the {team} won", { n: round.number, team })),
    h("p", { class: "goal-line" }, goalLine, finder ? " " + finder : ""),
    h("p", {}, t("Every dwarf card is shown:")),
    h("table", { class: "round-table" },
      h("tr", {}, h("th", {}, t("seat")), h("th", {}, t("role")), h("th", {}, ""), h("th", {}, t("gold this round")),
        h("th", {}, t("gold in all"))),
      rows),
    over ? null : h("p", { class: "note" }, t("Gold is kept face down: the others' amounts are shown when the game ends.")),
    h("button", {
      class: "dismiss",
      onclick: () => {
        gone.set(ctx.match, round.number);
        try {
          localStorage.setItem(KEY(ctx.match), String(round.number));
        } catch {
          // no storage: the summary goes for this page only
        }
        host.hidden = true;
        host.replaceChildren();
        ctx.redraw();
      },
    }, over ? t("Close") : t("Continue")));
  host.hidden = false;
}
