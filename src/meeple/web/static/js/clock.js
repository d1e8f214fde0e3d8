// @ts-check
// The turn clock on the play page (docs/protocol.md, "Clock"): a countdown in the header while this seat
// is to act (else whose clock runs), and the mark on a move the fallback bot played for a seat whose time
// ran out, in the record list and as a notice when it was this seat's.
//
// Each position message brings the clock as the server saw it when it sent the message; the page counts
// down from there on its own (one timer, stopped while no clock runs).

import { h, seatName, toast } from "./dom.js";
import { t } from "./i18n.js";

/** @type {{limit: number, remaining: number | null, running?: {seat: number, remaining: number}[]} | null} */
let clock = null;
let since = 0; // performance.now() when the clock arrived
/** @type {number | null} */
let timer = null;
/** @type {HTMLElement | null} the notice that the clock played for this seat, while it shows */
let notice = null;
/** @type {{el: HTMLElement | null, seat: number | null, players: any[]}} */
const page = { el: null, seat: null, players: [] };

/** Seconds as m:ss. */
export function clockText(/** @type {number} */ seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const el = page.el;
  if (!el) return;
  const gone = (performance.now() - since) / 1000;
  const own = clock && clock.remaining !== null && clock.remaining !== undefined ? clock.remaining - gone : null;
  const others = clock && clock.running ? clock.running.filter((c) => c.seat !== page.seat) : [];
  if (own !== null && clock) {
    el.textContent = t("⏱ {time} left for your move", { time: clockText(own) });
    el.className = ["clock", "mine", own <= Math.min(10, clock.limit / 4) ? "urgent" : ""].join(" ");
    el.dataset.mine = "true";
    el.dataset.seconds = String(Math.max(0, Math.ceil(own)));
  } else if (others.length) {
    el.textContent = "⏱ " + others.map((c) => t("{seat}: {time}", { seat: seatName(c.seat, page.players), time: clockText(c.remaining - gone) })).join(" · ");
    el.className = "clock";
    el.dataset.mine = "false";
    el.dataset.seconds = String(Math.max(0, Math.ceil(others[0].remaining - gone)));
  } else {
    el.hidden = true;
    stop();
    return;
  }
  el.hidden = false;
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

/**
 * Show the clock a position message brought (`null`: the match has no clock).
 * @param {HTMLElement} el the header's clock
 * @param {any} value the message's `clock`
 * @param {number | null} seat this page's seat
 * @param {any[]} players
 */
export function setClock(el, value, seat, players) {
  Object.assign(page, { el, seat, players });
  clock = value || null;
  since = performance.now();
  stop();
  const runs = clock && ((clock.remaining !== null && clock.remaining !== undefined) || (clock.running || []).length);
  if (!runs) {
    el.hidden = true;
    return;
  }
  tick();
  timer = window.setInterval(tick, 250);
}

/**
 * Tell the player when the clock played for them (an `update` with cause "clock" by this seat).
 * @param {any} msg
 * @param {number | null} seat
 */
export function noteClockMove(msg, seat) {
  if (msg.type === "update" && msg.cause === "clock" && seat !== null && msg.by === seat) {
    if (notice) notice.remove(); // one notice at a time, however often the clock plays
    notice = toast(t("Time ran out: a move was played for you."), "info");
  }
}

/**
 * The mark of a record the fallback bot played (null for any other record).
 * @param {any} record
 * @param {number | null} seat
 */
export function clockMark(record, seat) {
  if (!record.by_clock) return null;
  return h("span", { class: "by-clock" }, record.actor === seat ? t("time ran out: played for you") : t("time ran out: played by the fallback bot"));
}
