// @ts-check
// The server's HTTP API and the play socket's address, relative to the page's <base href>.

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || { code: "http", message: `HTTP ${status}` };
    super(err.message);
    this.code = err.code;
    this.status = status;
    this.body = err;
  }
}

async function answer(response) {
  let body = null;
  const type = response.headers.get("content-type") || "";
  if (type.includes("json")) body = await response.json();
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** GET a JSON resource (`path` is relative, e.g. "api/games"). */
export async function get(path, params) {
  const url = new URL(path, document.baseURI);
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  return answer(await fetch(url, { headers: { Accept: "application/json" } }));
}

/**
 * POST JSON (or, with `raw`, bytes as they are) and return the JSON answer.
 * @param {string} path
 * @param {any} body
 * @param {{raw?: boolean, params?: Record<string, any>}} [how]
 */
export async function post(path, body, { raw = false, params = undefined } = {}) {
  const url = new URL(path, document.baseURI);
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  const init = raw
    ? { method: "POST", body, headers: { "Content-Type": "application/octet-stream" } }
    : { method: "POST", body: JSON.stringify(body ?? {}), headers: { "Content-Type": "application/json" } };
  return answer(await fetch(url, init));
}

/** The WebSocket address of a match's play socket. */
export function socketUrl(matchId) {
  const url = new URL(`api/matches/${encodeURIComponent(matchId)}/ws`, document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** A page of this client, e.g. page("play/ID"). */
export function page(path) {
  return new URL(path, document.baseURI).href;
}

// Seat tokens live in this browser's local storage, keyed by match: never in an address.
const KEY = "meeple.seats";

function seats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/** Remember the token of `seat` at `matchId`. */
export function keepSeat(matchId, seat, token) {
  const all = seats();
  all[matchId] = { seat, token };
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** The seat this browser holds at `matchId`: {seat, token}, or null. */
export function heldSeat(matchId) {
  return seats()[matchId] || null;
}

/** Forget the seat held at `matchId`. */
export function dropSeat(matchId) {
  const all = seats();
  delete all[matchId];
  localStorage.setItem(KEY, JSON.stringify(all));
}
