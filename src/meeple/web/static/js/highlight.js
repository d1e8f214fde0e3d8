// @ts-check
// The last moves, marked where they happened (docs/web.md, "The last moves"): every record made since this
// seat's own last command (by the others and the engine), and that command itself, drawn differently.
//
// A board module says which of its elements a record touched, through an optional export
//   export function touched(record, ctx) { return [".hole[data-hole='5']", ...]; }
// (CSS selectors inside its drawing, from the record's events as the seat saw them). After each drawing the
// page gives those elements the class `touched` (the others' moves) or `touched-own` (the seat's own last
// command), `data-touched-by` (the seats that did it) and a small tag with the seat's number; the record
// panel's lines get `recent` / `recent-own`. The marks fade in a few seconds to a faint one that stays until
// the seat's next command; a mark drawn again (the board is redrawn on every message) keeps its age.

/** @typedef {import("./board.js").SeenRecord} SeenRecord */

/** The most records marked at once (a seat that has not played for a long time: the newest ones). */
export const MOST = 60;
/** When each record was first marked (performance.now()), by `seq:head-free key`: the fade keeps its age. */
const firstSeen = new Map();

/**
 * The records to mark, as the seat sees them: its own last command, and everything after it. A
 * spectator sees what happened since the seat to act last acted (a round), with no own record.
 * @param {SeenRecord[]} records
 * @param {number | null} seat
 * @param {number[]} acting the seats to act now
 * @returns {{own: SeenRecord | null, others: SeenRecord[]}}
 */
export function recentMoves(records, seat, acting) {
  const viewer = seat === null ? (acting.length ? acting[0] : null) : seat;
  if (viewer === null) return { own: null, others: [] };
  let i = records.length - 1;
  while (i >= 0 && records[i].actor !== viewer) i--;
  const others = records.slice(Math.max(i + 1, records.length - MOST));
  return { own: seat !== null && i >= 0 ? records[i] : null, others };
}

/** The key a record's mark is remembered by: its number and what it says (an undone record's successor differs). */
function keyOf(/** @type {SeenRecord} */ r) {
  return `${r.seq}:${r.actor}:${JSON.stringify(r.command)}`;
}

/**
 * How long ago (ms) a record was first marked; remembers it now if it was not.
 * @param {SeenRecord} r
 */
function age(r) {
  const k = keyOf(r);
  const now = performance.now();
  if (!firstSeen.has(k)) {
    if (firstSeen.size > 4 * MOST) firstSeen.clear();
    firstSeen.set(k, now);
  }
  return now - firstSeen.get(k);
}

/**
 * Mark on the board drawn in `root` the elements the recent records touched (the board module's
 * `touched`); returns the selectors each record touched, by seq (for tests and the record panel).
 * @param {Element} root the board's drawing
 * @param {any} board the board module (null: the generic page, nothing to mark)
 * @param {any} ctx the context the board drew with
 * @param {{own: SeenRecord | null, others: SeenRecord[]}} recent
 */
export function markBoard(root, board, ctx, recent) {
  if (!board || typeof board.touched !== "function") return;
  /** @type {Map<Element, {own: boolean, by: number[], age: number}>} */
  const marks = new Map();
  const each = (/** @type {SeenRecord} */ r, /** @type {boolean} */ own) => {
    /** @type {Element[]} */
    let found;
    try {
      found = (board.touched(r, ctx) || []).flatMap((/** @type {string} */ sel) => [...root.querySelectorAll(sel)]);
    } catch (e) { // a board's mistake costs its marks, never the drawing
      console.error(e);
      return;
    }
    const ago = age(r);
    for (const el of found) {
      const m = marks.get(el) || { own: true, by: [], age: ago };
      m.own = m.own && own;
      if (r.actor >= 0 && !m.by.includes(r.actor)) m.by.push(r.actor);
      m.age = Math.min(m.age, ago);
      marks.set(el, m);
    }
  };
  if (recent.own) each(recent.own, true);
  for (const r of recent.others) each(r, false);
  for (const [el, m] of marks) {
    el.classList.add(m.own ? "touched-own" : "touched");
    el.setAttribute("data-touched-by", m.by.join(" "));
    if (el instanceof SVGElement || el instanceof HTMLElement) {
      if (m.by.length) el.style.setProperty("--touch", `var(--seat-${m.by[m.by.length - 1]})`);
      el.style.animationDelay = `${-Math.round(m.age)}ms`;
    }
    if (el instanceof SVGGraphicsElement) tag(el, m.by);
  }
}

/**
 * A small tag at the element's top right corner: the number of each seat that touched it, in its colour.
 * @param {SVGGraphicsElement} el
 * @param {number[]} seats
 */
function tag(el, seats) {
  let box;
  try {
    box = el.getBBox();
  } catch {
    return;
  }
  if (!box || (box.width === 0 && box.height === 0)) return;
  const NS = "http://www.w3.org/2000/svg";
  seats.forEach((s, i) => {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", `touch-tag seat-${s}`);
    g.setAttribute("aria-hidden", "true");
    const cx = box.x + box.width - 6 - i * 15, cy = box.y + 6;
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", String(cx));
    c.setAttribute("cy", String(cy));
    c.setAttribute("r", "7");
    c.setAttribute("class", "seat-fill");
    const text = document.createElementNS(NS, "text");
    text.setAttribute("x", String(cx));
    text.setAttribute("y", String(cy + 3.5));
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("class", "small");
    text.textContent = String(s);
    g.append(c, text);
    el.append(g);
  });
}

/**
 * Mark the record panel's lines (`li` whose value is the record's seq) of the recent records.
 * @param {Element} log the record panel's list
 * @param {{own: SeenRecord | null, others: SeenRecord[]}} recent
 * @param {(id: string) => string} t the page's string table
 */
export function markLog(log, recent, t) {
  const others = new Set(recent.others.map((r) => r.seq));
  const own = recent.own ? recent.own.seq : null;
  for (const li of /** @type {NodeListOf<HTMLLIElement>} */ (log.querySelectorAll("li"))) {
    const which = others.has(li.value) ? "recent" : li.value === own ? "recent-own" : null;
    if (which === null) continue;
    li.classList.add(which);
    li.dataset.recent = which === "recent" ? "other" : "own";
    li.title = which === "recent" ? t("since your last move") : t("your last move");
  }
}
