// @ts-check
// Whose turn it is, said the same way by the badge in the header, the board's status line and the players
// panel (docs/web.md, "Whose turn it is").
//
// The seats that may act come from the server (every position message's `to_act`); the game's board
// module says, from the view, whose turn it is in the game's turn order and why a seat may act outside
// it, through an optional export
//   export function turn(ctx) { return { mover, does, why }; }
// `mover`: the seat whose turn it is (null when it is nobody's: between rounds); `does`: what the seats
// to act do when that is not an ordinary move, an infinitive ("collect"); `why`: the rule that lets
// them, a sentence. Both in the page's language (ctx.t). Without the export, the seats to act are
// simply to move.

import { t } from "./i18n.js";

/**
 * What the game says of the turn: whose it is, and what the seats to act may do outside it and why.
 * @typedef {{mover?: number | null, does?: string | null, why?: string | null}} TurnRule
 */
/**
 * The turn as the page says it.
 * @typedef {object} Turn
 * @property {number[]} acting the seats that may act now (the server's `to_act`)
 * @property {number | null} mover the seat whose turn it is in the game's order (null: nobody's)
 * @property {boolean} aside whether the seats to act act outside the ordinary turn (`does` says what)
 * @property {string | null} does what they do then (an infinitive), else null
 * @property {string | null} why the rule that lets them, else null
 * @property {string} line the board's status line: who acts
 * @property {string} badge the header's badge, for this seat
 */

/**
 * Ask the board module what the game says of the turn; never throws (a board without the export, or
 * whose export fails, says nothing).
 * @param {any} board the board module, or null
 * @param {any} ctx what the module reads: view, t, seatName, seat
 * @returns {TurnRule}
 */
export function ruleOf(board, ctx) {
  if (!board || typeof board.turn !== "function" || !ctx.view) return {};
  try {
    return board.turn(ctx) || {};
  } catch (e) {
    console.error(e);
    return {};
  }
}

/**
 * The turn as the page says it, from the seats to act and the game's rule.
 * @param {object} o
 * @param {number[]} o.acting the seats that may act (the server's `to_act`)
 * @param {TurnRule} o.rule what the game says (ruleOf)
 * @param {number | null} o.seat this page's seat; null for a spectator
 * @param {boolean} o.mine whether this seat has commands to play now
 * @param {boolean} o.over whether the match is over
 * @param {(seat: number | null) => string} o.seatName
 * @returns {Turn}
 */
export function describeTurn({ acting, rule, seat, mine, over, seatName }) {
  const mover = rule.mover === undefined ? (acting.length === 1 ? acting[0] : null) : rule.mover;
  const does = rule.does || null;
  const aside = does !== null && acting.some((s) => s !== mover);
  const names = acting.map(seatName).join(", ");
  let line = "";
  if (over) line = t("The match is over");
  else if (acting.length && does !== null) {
    line = t("{seats} may {does} now", { seats: names, does });
    if (aside && mover !== null) line += ` · ${t("{seat}'s turn", { seat: seatName(mover) })}`;
  } else if (acting.length) line = t("{seat} to move", { seat: names });
  let badge;
  if (over) badge = t("The match is over");
  else if (mine && does !== null) badge = rule.why ? t("You may {does} now: {why}", { does, why: rule.why }) : t("You may {does} now", { does });
  else if (mine) badge = t("Your move");
  else if (seat === null) badge = acting.length ? t("Watching: {who}", { who: line }) : t("Watching");
  else badge = acting.length ? t("Waiting for {seats}…", { seats: names }) : t("Waiting for the others…");
  return { acting, mover, aside, does, why: rule.why || null, line, badge };
}

/**
 * The mark of a seat to act in the players panel: its visible words and what a screen reader says,
 * or null for a seat not to act.
 * @param {Turn} turn
 * @param {number} seat
 * @returns {{text: string, label: string} | null}
 */
export function seatMark(turn, seat) {
  if (!turn.acting.includes(seat)) return null;
  if (turn.does !== null) {
    const text = t("may {does} now", { does: turn.does });
    return { text, label: turn.why ? `${text}: ${turn.why}` : text };
  }
  return { text: t("to move"), label: t("to move") };
}
