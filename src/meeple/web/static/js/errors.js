// @ts-check
// The server's refusals in the page's language, chosen by their code (docs/protocol.md, "Errors").
//
// Every error the server sends (a socket's `error` message, an HTTP error body) carries a stable `code` and
// an English `message` written for developers. A page shows the sentence this table holds for the code, in
// its language, filled with the fields the error carries (`reason`, `path`, `retry_after`); the server's own
// text is shown only for a code this table does not know (a newer server), and on English pages as the
// detail after the sentence (it says which rule, field or limit). tests/web/test_errors.py holds the table
// to the server's ErrorCode and provokes errors in a Russian browser.

import { ApiError } from "./api.js";
import { LANG, t } from "./i18n.js";

/** The sentence for each error code (an English message id of strings.js). */
export const MESSAGES = {
  bad_json: "The server could not read the message.",
  too_large: "The message is larger than the server takes.",
  bad_message: "The server does not understand this request.",
  hello_first: "The connection did not start as the server expects.",
  bad_version: "This page speaks another version of the protocol than the server: reload the page.",
  bad_token: "This browser's seat token is not valid here any more; you are watching.",
  unknown_match: "There is no such match on this server.",
  unknown_game: "There is no such game on this server.",
  unknown_bot: "The game has no such bot.",
  unknown_seat: "There is no such seat.",
  seat_taken: "That seat is taken.",
  no_free_seat: "Every seat for a person is taken.",
  bad_config: "These settings make no match.",
  spectator: "Spectators do not play.",
  stale_cursor: "The match moved on before your command arrived; nothing happened.",
  bad_command: "The server could not read the command (at {path}).",
  not_your_turn: "It is not your turn.",
  game_over: "The match is over.",
  illegal_command: "The rules do not allow that: {reason}.",
  undo_refused: "You cannot undo now: {reason}.",
  redo_refused: "There is nothing to redo: {reason}.",
  conflict: "Someone changed the match first; here is the new position.",
  store_error: "The server could not save; nothing happened. Try again.",
  not_found: "The server has no such page.",
  method_not_allowed: "The server does not take this request here.",
  internal_error: "The server failed; the match is unchanged.",
  bad_log: "This is not a meeple log that can be read.",
  unknown_log: "This log is not open any more: open it again.",
  match_in_progress: "The match is not over yet: the debugger opens it once it is.",
  seed_hidden: "This log hides its seed: it can be replayed, not re-decided or forked.",
  bad_host: "The server does not serve this address.",
  bad_origin: "A page of another site may not change anything here.",
  bad_content_type: "The server does not take data of this kind.",
  rate_limited: "Too many requests: try again in {seconds} s.",
  over_quota: "This browser holds as much as it may at once: close something first.",
  server_busy: "The server is busy: try again later.",
  too_many_open_matches: "Too many matches wait for players: join one, or try later.",
};

/** The words for an error's `reason` (the engine's refusal codes and the server's). */
export const REASONS = {
  rule: "the rules forbid it",
  bad_argument: "a wrong choice",
  not_in_hand: "the card is not in your hand",
  wrong_phase: "not in this phase of the turn",
  unknown_command: "no such command",
  unknown_seat: "no such seat",
  not_your_turn: "it is not your turn",
  game_over: "the match is over",
  nothing_to_undo: "there is no command to undo",
  undo_barrier: "an information barrier",
  nothing_to_redo: "nothing was undone",
  not_yours: "what waits to be redone is another seat's",
};

/**
 * The sentence to show for a server error, in this page's language.
 * @param {{code?: string, message?: string, reason?: string, path?: string, retry_after?: number}} error
 *   the error as the server sent it (a socket message or an HTTP body's `error`)
 * @returns {string}
 */
export function errorText(error) {
  const code = error && error.code;
  if (!code || !Object.prototype.hasOwnProperty.call(MESSAGES, code)) return (error && error.message) || t("The server refused.");
  const reason = error.reason && Object.prototype.hasOwnProperty.call(REASONS, error.reason) ? t(REASONS[error.reason]) : t("no reason given");
  const seconds = typeof error.retry_after === "number" ? Math.max(1, Math.ceil(error.retry_after)) : 1;
  const text = t(MESSAGES[code], { reason, path: error.path || "—", seconds });
  return LANG === "en" && error.message && code !== "bad_token" ? `${text} (${error.message})` : text;
}

/**
 * The sentence to show for anything a request to the server threw: its error by code, else (the server
 * could not be reached, or a page's own fault) a sentence of this page.
 * @param {any} e
 * @returns {string}
 */
export function failureText(e) {
  if (e instanceof ApiError) return e.code === "http" ? t("The server answered with an error ({status}).", { status: e.status }) : errorText(e.body);
  if (e instanceof TypeError) return t("The server could not be reached.");
  return e && e.message ? String(e.message) : String(e);
}
