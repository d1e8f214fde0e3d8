// @ts-check
// The lobby page: create a match of any game (variant, seats, bots in chosen seats, a turn clock, rule
// options), join or watch one.

import { get, heldSeat, keepSeat, page, post } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { failureText } from "./errors.js";
import { LANG, setup, t } from "./i18n.js";
import { offered, optionLabel } from "./options.js";

/** An element of this page by id (the page's own markup: present, of the kind the code uses). */
const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
/** The form fields of this page matching `selector`. */
const $$ = (/** @type {string} */ selector) => /** @type {any[]} */ ([...document.querySelectorAll(selector)]);
let games = [];

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function currentVariant() {
  const g = currentGame();
  return g.variants.find((v) => v.name === $("variant").value) || g.variants[0];
}

function fillVariants() {
  const g = currentGame();
  $("summary").textContent = g.summary ? t(g.summary) : "";
  mount($("variant"), g.variants.map((v) => h("option", { value: v.name },
    t("{variant} ({low}–{high} seats)", { variant: t(v.name), low: v.min_seats, high: v.max_seats }))));
  fillSeats();
  fillOptions();
}

/** What an option is in the chosen variant: the variant's value where it sets one, else the default. */
function optionValue(option) {
  const set = currentVariant().options;
  return Object.prototype.hasOwnProperty.call(set, option.name) ? set[option.name] : option.default;
}

/** One field per rule option, from its JSON Schema: a list of its values, a box, a number, or JSON text. */
function optionField(option) {
  const value = optionValue(option);
  const attrs = { "data-option": option.name, title: option.help ? t(option.help) : "" };
  const schema = option.schema || {};
  if (Array.isArray(schema.enum)) {
    const field = h("select", attrs, schema.enum.map((v) => h("option", { value: JSON.stringify(v) }, t(String(v)))));
    field.value = JSON.stringify(value);
    return field;
  }
  if (schema.type === "boolean") return h("input", { ...attrs, type: "checkbox", checked: value === true });
  if (schema.type === "integer" || schema.type === "number") {
    return h("input", { ...attrs, type: "number", step: schema.type === "integer" ? "1" : "any", value: String(value) });
  }
  return h("input", { ...attrs, value: JSON.stringify(value) }); // arrays and the rest: JSON
}

/** The rule options the form offers: those no variant sets (the variant list chooses those) that apply to the variant. */
function freeOptions() {
  const g = currentGame();
  return offered(g.id, g.variants, currentVariant().name, g.options);
}

function fillOptions() {
  const g = currentGame();
  const options = freeOptions();
  mount($("option-list"), options.length ? options.map((o) =>
    h("label", { class: "option-choice", dataset: { name: o.name } }, h("span", { class: "option-name" }, t(optionLabel(g.id, o.name))), " ",
      optionField(o), o.help ? h("span", { class: "muted" }, ` ${t(o.help)}`) : null))
    : h("p", { class: "muted" }, t("No rule options beyond the variant.")));
}

/** The options whose field differs from what the variant plays with; throws on a field that is not valid JSON. */
function chosenOptions() {
  const out = {};
  for (const o of freeOptions()) {
    const [field] = $$(`#option-list [data-option="${CSS.escape(o.name)}"]`);
    let value;
    if (field.type === "checkbox") value = field.checked;
    else if (field.type === "number") value = field.value === "" ? optionValue(o) : Number(field.value);
    else {
      try {
        value = JSON.parse(field.value);
      } catch {
        throw new Error(t("{option}: not a JSON value ({value})", { option: t(optionLabel(currentGame().id, o.name)), value: field.value }));
      }
    }
    if (JSON.stringify(value) !== JSON.stringify(optionValue(o))) out[o.name] = value;
  }
  return out;
}

function fillSeats() {
  const g = currentGame();
  const v = currentVariant();
  const seats = $("seats");
  seats.min = v.min_seats;
  seats.max = v.max_seats;
  let n = Number(seats.value) || v.min_seats;
  n = Math.min(Math.max(n, v.min_seats), v.max_seats);
  seats.value = n;
  const bot = g.bots.includes("heuristic") ? "heuristic" : g.bots[0];
  const old = $$("#seat-list select").map((s) => s.value);
  mount($("seat-list"), Array.from({ length: n }, (_, i) =>
    h("label", { class: "seat-choice" }, t("Seat {n}", { n: i }), " ",
      h("select", { name: `seat-${i}`, "data-seat": i },
        h("option", { value: "me" }, t("me")),
        h("option", { value: "open" }, t("a person (open seat)")),
        g.bots.map((/** @type {string} */ b) => h("option", { value: `bot:${b}` }, t("{bot} bot", { bot: t(b) })))),
    )));
  $$("#seat-list select").forEach((s, i) => {
    s.value = old[i] && [...s.options].some((o) => o.value === old[i]) ? old[i] : i === 0 ? "me" : `bot:${bot}`;
  });
}

async function create(event) {
  event.preventDefault();
  const g = currentGame();
  const choices = $$("#seat-list select").map((s) => s.value);
  const bots = {};
  choices.forEach((c, i) => {
    if (c.startsWith("bot:")) bots[String(i)] = c.slice(4);
  });
  const mine = choices.indexOf("me");
  if (choices.filter((c) => c === "me").length > 1) {
    toast(t("One browser plays one seat: choose “me” for one seat only (open the others to people)."), "error");
    return;
  }
  const spec = { game: g.id, variant: $("variant").value, seats: choices.length, bots };
  if ($("name").value.trim()) spec.name = $("name").value.trim();
  if ($("clock").value !== "") spec.clock = Number($("clock").value);
  try {
    const options = chosenOptions();
    if (Object.keys(options).length) spec.options = options;
  } catch (e) {
    toast(e.message, "error");
    return;
  }
  $("create-button").disabled = true;
  try {
    const match = await post("api/matches", spec);
    if (mine >= 0) {
      const joined = await post(`api/matches/${match.id}/join`, { seat: mine });
      keepSeat(match.id, joined.seat, joined.token);
    }
    location.href = page(`play/${match.id}`);
  } catch (e) {
    toast(failureText(e), "error");
  } finally {
    $("create-button").disabled = false;
  }
}

async function join(match, seat) {
  try {
    const joined = await post(`api/matches/${match.id}/join`, { seat });
    keepSeat(match.id, joined.seat, joined.token);
    location.href = page(`play/${match.id}`);
  } catch (e) {
    toast(failureText(e), "error");
    refresh();
  }
}

/** Each game's rules page (GET /api/web/boards/GAME's `rules`: its address, or null), asked once per game. */
const rulesPages = new Map();

/**
 * The address of a game's rules page, or null where it has none (or the server could not say).
 * @param {string} game
 * @returns {Promise<string | null>}
 */
function rulesPage(game) {
  if (!rulesPages.has(game)) {
    rulesPages.set(game, get(`api/web/boards/${encodeURIComponent(game)}`).then((info) => info.rules || null, () => null));
  }
  return rulesPages.get(game);
}

/**
 * One match's row: its name and facts, and what can be done with it.
 * @param {any} match
 * @param {boolean} finished
 * @param {string | null} rules the game's rules page, or null
 */
function row(match, finished, rules) {
  const held = heldSeat(match.id);
  const known = games.find((g) => g.id === match.game);
  const title = known ? t(known.title) : match.game;
  const who = match.players.map((/** @type {any} */ p) => (p.kind === "bot" ? t("{bot} bot", { bot: t(p.bot) }) : p.taken ? p.name || t("person") : t("open"))).join(", ");
  const actions = finished
    ? [h("a", { class: "button", href: `debug?match=${encodeURIComponent(match.id)}` }, t("Replay")),
       h("a", { class: "button", href: `play/${encodeURIComponent(match.id)}` }, t("Final position"))]
    : [
        held ? h("a", { class: "button primary", href: `play/${encodeURIComponent(match.id)}` }, t("Back to seat {n}", { n: held.seat })) : null,
        ...(held ? [] : match.open_seats.map((/** @type {number} */ s) => h("button", { class: "join", onclick: () => join(match, s) }, t("Join seat {n}", { n: s })))),
        h("a", { class: "button", href: `play/${encodeURIComponent(match.id)}` }, t("Watch")),
      ];
  if (rules) actions.push(h("a", { class: "button rules", href: rules, target: "_blank" }, t("Rules")));
  return h("div", { class: "match-row", "data-match": match.id },
    h("div", {}, h("b", {}, match.name || title), " ", h("span", { class: "muted" }, `${title} · ${t(match.variant)} · ${t("{n} seats", { n: match.seats })} · ${who}`),
      h("div", { class: "match-facts" }, facts(match, finished).map(([cls, text]) => h("span", { class: cls }, text)))),
    h("div", { class: "actions" }, actions));
}

/**
 * A time of the server (ISO 8601) as this browser's clock and language write it.
 * @param {string | null | undefined} iso
 */
function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(LANG, { dateStyle: "short", timeStyle: "short" });
}

/**
 * A seat as the lobby names it: its person's name, its bot, or the seat.
 * @param {any} match
 * @param {number} seat
 */
function seatLabel(match, seat) {
  const p = (match.players || []).find((/** @type {any} */ x) => x.seat === seat);
  if (p && p.name) return p.name;
  if (p && p.kind === "bot") return t("seat {n} ({bot} bot)", { n: seat, bot: t(p.bot) });
  return t("seat {n}", { n: seat });
}

/**
 * A row's facts: whose turn it is (or who won), when it started, its last activity.
 * @param {any} match
 * @param {boolean} finished
 * @returns {[string, string][]}
 */
function facts(match, finished) {
  /** @type {[string, string][]} */
  const out = [];
  if (finished) {
    const winners = match.winners || [];
    out.push(["winner", winners.length ? t("won: {seats}", { seats: winners.map((/** @type {number} */ s) => seatLabel(match, s)).join(", ") })
      : t("no winner")]);
  } else if (match.to_act && match.to_act.length) {
    out.push(["turn", t("to move: {seats}", { seats: match.to_act.map((/** @type {number} */ s) => seatLabel(match, s)).join(", ") })]);
  }
  out.push(["started", t("started {when}", { when: when(match.created) })]);
  out.push(["active", t("last move {when}", { when: when(match.updated) })]);
  return out;
}

/** How many rows each list shows (a page at a time: "Show more" adds one). */
const PAGE = 10;
/** The most rows a list asks the server for (its own bound on a listing is 500). */
const MOST = 500;
const shown = { playing: PAGE, finished: PAGE };

/**
 * One list of matches, a page at a time: one row more is asked for to know whether there are more.
 * @param {"playing" | "finished"} list
 */
async function fillList(list) {
  const finished = list === "finished";
  const found = await get("api/matches", { status: finished ? "over" : "in_progress", limit: shown[list] + 1 });
  const listed = found.slice(0, shown[list]);
  const ids = [...new Set(listed.map((/** @type {any} */ m) => String(m.game)))];
  const pages = new Map(await Promise.all(ids.map(async (g) => /** @type {[string, string | null]} */ ([g, await rulesPage(g)]))));
  const rows = listed.map((/** @type {any} */ m) => row(m, finished, pages.get(String(m.game)) ?? null));
  const more = found.length > shown[list] && shown[list] + PAGE < MOST
    ? h("button", { class: "more", dataset: { list }, onclick: () => { shown[list] += PAGE; fillList(list).catch((e) => toast(failureText(e), "error")); } },
      t("Show more"))
    : null;
  mount($(list), rows.length ? [rows, more] : h("p", { class: "muted" }, finished ? t("None yet.") : t("None yet: create one.")));
  showEndedOnce();
}

/**
 * A match that ended between the two lists' requests comes back in both: it is shown once, as finished
 * (the lists are filled in either order, so this runs after each).
 */
function showEndedOnce() {
  const over = new Set($$("#finished .match-row").map((r) => r.getAttribute("data-match")));
  const stale = $$("#playing .match-row").filter((r) => over.has(r.getAttribute("data-match")));
  for (const r of stale) r.remove();
  if (stale.length && !$$("#playing .match-row").length) mount($("playing"), h("p", { class: "muted" }, t("None yet: create one.")));
}

async function refresh() {
  try {
    await Promise.all([fillList("playing"), fillList("finished")]);
  } catch (e) {
    toast(failureText(e), "error");
  }
}

async function main() {
  setup();
  document.title = `meeple · ${t("lobby")}`;
  games = await get("api/games");
  mount($("game"), games.map((g) => h("option", { value: g.id }, t(g.title))));
  $("game").onchange = fillVariants;
  $("variant").onchange = () => {
    fillSeats();
    fillOptions();
  };
  $("seats").onchange = fillSeats;
  $("create").onsubmit = create;
  fillVariants();
  refresh();
  setInterval(refresh, 5000);
  document.body.dataset.ready = "true";
}

main();
