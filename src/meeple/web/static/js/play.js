// @ts-check
// The play page: one seat (or a spectator) at one match, over the play socket (docs/protocol.md).

import { dropSeat, get, heldSeat, keepSeat, post, socketUrl } from "./api.js";
import { Chooser, describe, makeContext, render as genericRender } from "./board.js";
import { clockMark, noteClockMove, setClock } from "./clock.js";
import { position } from "./delta.js";
import { h, mount, seatName, toast } from "./dom.js";
import { drawEnd } from "./endscreen.js";
import { errorText, failureText } from "./errors.js";
import { LANG, setup, t } from "./i18n.js";
import { markBoard, markLog, recentMoves } from "./highlight.js";
import { drawSummary } from "./summary.js";
import { describeTurn, ruleOf, seatMark } from "./turns.js";

const matchId = decodeURIComponent(location.pathname.split("/play/").pop().split("/")[0]);
/** An element of this page by id (the page's own markup: present, of the kind the code uses). */
const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

const state = {
  match: null, // the lobby's description
  seat: null,
  records: [],
  cursor: 0,
  head: null,
  view: null,
  position: null, // the position fields last received, the base of the next delta (delta.js)
  legal: [],
  legalText: [],
  undo: { ok: false },
  redo: false,
  outcome: null,
  toAct: [], // the seats that may act (the server's to_act)
  turn: null, // whose turn it is, as the page says it (turns.js)
  players: [],
  picture: null, // the game's text picture of the table (asked for on the generic page)
  board: null, // the board module: {render}
  protocol: null, // the play protocol's version, as GET /api gives it
  catalog: null,
  words: {}, // the game's own words in the page's language
  socket: null,
  busy: false,
  retry: 0,
  closed: false,
  memo: { selected: null },
  memoAt: null,
  ids: 0,
};

const chooser = new Chooser($("choices"), (c) => send({ type: "play", cursor: state.cursor, command: c }));

/** The server's text of a legal command (legal_text), or null. */
function textOf(command) {
  const k = JSON.stringify(command);
  const i = state.legal.findIndex((c) => JSON.stringify(c) === k);
  return i >= 0 && state.legalText[i] ? state.legalText[i] : null;
}

/** A legal command as the player reads it: the server's text, else its plain wire form. */
function label(command) {
  return textOf(command) || describe(command);
}

function draw() {
  const over = state.outcome !== null;
  const mine = state.legal.length > 0 && !over;
  document.body.dataset.cursor = String(state.cursor);
  document.body.dataset.over = over ? "true" : "false";
  document.body.dataset.acting = mine ? "true" : "false";
  document.body.dataset.busy = state.busy ? "true" : "false";
  document.body.dataset.seat = state.seat === null ? "spectator" : String(state.seat);
  const position = `${state.cursor}:${state.head}`;
  if (state.memoAt !== position) {
    state.memo = { selected: null };
    state.memoAt = position;
    chooser.clear();
  }
  state.turn = describeTurn({
    acting: state.toAct, seat: state.seat, mine, over, seatName: (s) => seatName(s, state.players),
    rule: ruleOf(state.board, { view: state.view, seat: state.seat, t, seatName: (s) => seatName(s, state.players) }),
  });
  $("status").textContent = state.turn.badge;
  $("status").className = ["status", mine ? "mine" : "", over ? "over" : ""].join(" ");
  $("undo").disabled = !(state.undo && state.undo.ok) || state.busy;
  $("undo").title = state.undo && !state.undo.ok && state.undo.reason ? t("Undo: {reason}", { reason: undoReason(state.undo.reason) }) : t("Take back your last command");
  $("redo").disabled = !state.redo || state.busy;
  if (state.view !== null) {
    const ctx = makeContext($("board"), chooser, {
      game: state.match.game,
      view: state.view,
      legal: state.busy || over ? [] : state.legal,
      seat: state.seat,
      seats: state.match.seats,
      players: state.players,
      catalog: state.catalog,
      words: state.words,
      picture: state.picture,
      records: state.records,
      outcome: state.outcome,
      toAct: state.toAct,
      turn: state.turn,
      interactive: state.seat !== null && !state.busy,
      textOf,
      play: (c) => send({ type: "play", cursor: state.cursor, command: c }),
      redraw: draw,
    }, state.memo);
    try {
      (state.board ? state.board.render : genericRender)(ctx);
      markBoard($("board"), state.board, ctx, recentMoves(state.records, state.seat, state.toAct));
    } catch (e) {
      console.error(e);
      toast(t("The board could not be drawn ({error}); showing the generic page.", { error: e.message }), "error");
      state.board = null;
      genericRender(ctx);
    }
  }
  drawPlayers();
  drawLog();
  drawOutcome();
}

function drawPlayers() {
  mount($("players"), state.players.map((p) =>
    h("li", { class: ["player", p.seat === state.seat ? "me" : "", p.online ? "online" : ""], dataset: { seat: p.seat } },
      h("span", { class: `swatch seat-${p.seat}` }),
      seatName(p.seat, state.players),
      p.seat === state.seat ? t(" — you") : "",
      p.kind === "human" && !p.taken ? t(" (free)") : "",
      turnMark(p.seat),
    )));
  const free = state.players.filter((p) => p.kind === "human" && !p.taken);
  mount($("join"), state.seat === null && free.length && state.outcome === null
    ? free.map((p) => h("button", { class: "join", onclick: () => join(p.seat) }, t("Join as seat {n}", { n: p.seat })))
    : []);
}

/** The mark of a seat to act in the players panel: words, not colour alone (turns.js). */
function turnMark(seat) {
  const mark = state.turn && state.outcome === null ? seatMark(state.turn, seat) : null;
  return mark ? h("span", { class: "to-act", title: mark.label, "aria-label": mark.label }, mark.text) : null;
}

function drawLog() {
  const items = state.records.slice(-200).reverse().map((r) =>
    h("li", { value: r.seq, class: r.actor === -1 ? "engine" : "" },
      h("span", { class: `swatch seat-${r.actor}` }),
      h("b", {}, r.actor === -1 ? t("engine") : seatName(r.actor, state.players)), " ",
      r.text || label(r.command),
      clockMark(r, state.seat),
    ));
  mount($("log"), items);
  markLog($("log"), recentMoves(state.records, state.seat, state.toAct), t);
}

/** The end screen (js/endscreen.js) and the summary of a round paid and not yet dismissed (js/summary.js). */
function drawOutcome() {
  const word = (/** @type {string} */ w) => state.words[w] || w;
  drawSummary($("summary"), { game: state.match.game, match: matchId, records: state.records, view: state.view,
    seat: state.seat, players: state.players, word, redraw: draw });
  drawEnd($("outcome"), { game: state.match.game, match: matchId, outcome: state.outcome, view: state.view,
    seat: state.seat, players: state.players, records: state.records, word });
}

/**
 * Why undo is refused, in the page's language: the engine's reasons are a few fixed English sentences.
 * @param {string} reason
 */
function undoReason(reason) {
  const seat = /^the last command was played by seat (-?\d+), not (\d+)$/.exec(reason);
  if (seat && seat[1] === "-1") return t("the last record is the engine's, not a command of yours");
  return seat ? t("the last command was played by seat {a}, not {b}", { a: seat[1], b: seat[2] }) : t(reason);
}

function apply(msg) {
  switch (msg.type) {
    case "sync":
      state.seat = msg.seat;
      state.records = state.records.slice(0, msg.from).concat(msg.records);
      break;
    case "update":
      state.records = state.records.slice(0, msg.from).concat(msg.records);
      break;
    case "rewind":
      state.records = state.records.slice(0, msg.cursor);
      break;
    case "players":
      state.players = msg.players;
      drawPlayers();
      return;
    case "error":
      if (msg.ref !== undefined) state.busy = false;
      if (msg.code === "bad_token") {
        dropSeat(matchId);
        toast(errorText(msg), "error");
      } else if (msg.code !== "stale_cursor") {
        toast(errorText(msg), "error");
      }
      draw();
      return;
    default:
      return;
  }
  if (msg.ref !== undefined) state.busy = false;
  let pos;
  try {
    pos = state.position = position(state.position, msg);
  } catch {
    send({ type: "sync" }); // a delta that does not fit what is held (never expected): ask for the whole
    return;
  }
  Object.assign(state, {
    cursor: msg.cursor, head: msg.head, view: pos.view, legal: pos.legal, legalText: pos.legal_text || [],
    undo: pos.undo, redo: pos.redo,
    outcome: pos.outcome, toAct: pos.to_act || [], picture: pos.picture ?? null,
  });
  if (msg.players) state.players = msg.players;
  setClock($("clock"), pos.clock, state.seat, state.players);
  noteClockMove(msg, state.seat);
  draw();
}

function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    toast(t("Not connected; reconnecting…"), "error");
    return;
  }
  state.ids += 1;
  message.id = state.ids;
  state.busy = true;
  chooser.clear();
  state.socket.send(JSON.stringify(message));
  draw();
}

function connect() {
  const held = heldSeat(matchId);
  const socket = new WebSocket(socketUrl(matchId));
  state.socket = socket;
  socket.onopen = () => {
    state.retry = 0;
    $("link").className = "link up";
    const hello = { type: "hello", protocol: state.protocol, lang: LANG };
    if (!state.board) hello.picture = true; // the generic page shows the game's own picture of the table
    if (held) hello.token = held.token;
    if (state.head !== null && state.records.length === state.cursor) {
      hello.cursor = state.cursor;
      hello.head = state.head;
    }
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => apply(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("link").className = "link down";
    state.busy = false;
    if (state.closed || socket !== state.socket) return;
    if (event.code === 4404) {
      toast(t("There is no such match on this server."), "error");
      return;
    }
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** state.retry);
  };
}

async function join(seat) {
  try {
    const joined = await post(`api/matches/${encodeURIComponent(matchId)}/join`, { seat });
    keepSeat(matchId, joined.seat, joined.token);
    state.records = [];
    state.head = null;
    const old = state.socket;
    state.socket = null;
    if (old) old.close();
    connect();
  } catch (e) {
    toast(failureText(e), "error");
  }
}

async function loadBoard(game) {
  const info = await get(`api/web/boards/${encodeURIComponent(game)}`, { lang: LANG });
  state.catalog = info.catalog;
  state.words = info.words || {};
  if (!info.module) return null;
  try {
    return await import(new URL(info.module, document.baseURI).href);
  } catch (e) {
    console.error(e);
    toast(t("The {game} board did not load ({error}); showing the generic page.", { game, error: e.message }), "error");
    return null;
  }
}

async function main() {
  setup();
  $("undo").onclick = () => send({ type: "undo", cursor: state.cursor });
  $("redo").onclick = () => send({ type: "redo", cursor: state.cursor });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      chooser.clear();
      if (state.memo.selected !== null) {
        state.memo.selected = null;
        draw();
      }
    }
  });
  try {
    state.match = await get(`api/matches/${encodeURIComponent(matchId)}`);
  } catch (e) {
    mount($("board"), h("p", { class: "error" }, failureText(e)));
    return;
  }
  state.players = state.match.players;
  const game = (await get("api/games").catch(() => [])).find((/** @type {any} */ g) => g.id === state.match.game);
  const title = game ? t(game.title) : state.match.game;
  $("title").textContent = `${state.match.name || title} · ${t(state.match.variant)}`;
  document.title = `meeple · ${title}`;
  document.body.dataset.game = state.match.game;
  state.board = await loadBoard(state.match.game);
  state.protocol = (await get("api")).protocol;
  connect();
}

main();
