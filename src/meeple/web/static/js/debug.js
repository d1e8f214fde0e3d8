// @ts-check
// The replay debugger: open a log (an upload, or a finished match of this server), walk its timeline as
// the referee or any seat, see each record's events, undo and redo by whole commands, see where verify
// failed, fork at any record and continue, and diff against another log.

import { get, keepSeat, page, post } from "./api.js";
import { Chooser, describe, makeContext, render as genericRender, tree } from "./board.js";
import { h, mount, seatName, toast } from "./dom.js";
import { failureText } from "./errors.js";
import { LANG, setup, t } from "./i18n.js";
import { describeTurn, ruleOf } from "./turns.js";

/** An element of this page by id (the page's own markup: present, of the kind the code uses). */
const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
/** The form fields of this page matching `selector`. */
const $$ = (/** @type {string} */ selector) => /** @type {any[]} */ ([...document.querySelectorAll(selector)]);
const state = {
  log: null, // the summary of the opened log
  records: [], // as state.as sees them
  as: "referee",
  at: 0,
  position: null,
  board: null,
  catalog: null,
  words: {}, // the game's own words in the page's language
  games: [],
  loading: 0,
  ticket: 0,  // the newest position asked for (go)
};

function fail(e) {
  toast(failureText(e), "error");
}

async function openUpload(file, name) {
  const bytes = await file.arrayBuffer();
  return post("api/debug/logs", bytes, { raw: true, params: { name } });
}

async function opened(summary) {
  state.log = summary;
  state.as = "referee";
  document.body.dataset.log = summary.id;
  history.replaceState(null, "", `debug?log=${encodeURIComponent(summary.id)}`);
  $("title").textContent = `${summary.name} · ${t(summary.title)} · ${t("{n} seats", { n: summary.seats })} · ${t("{n} records", { n: summary.records })}`;
  mount($("as"), h("option", { value: "referee" }, t("the referee (everything)")), h("option", { value: "spectator" }, t("a spectator")),
    Array.from({ length: summary.seats }, (_, s) => h("option", { value: String(s) }, t("seat {n}", { n: s }))));
  $("as").value = "referee";
  const info = await get(`api/web/boards/${encodeURIComponent(summary.game)}`, { lang: LANG });
  state.catalog = info.catalog;
  state.words = info.words || {};
  state.board = null;
  if (info.module) {
    try {
      state.board = await import(new URL(info.module, document.baseURI).href);
    } catch (e) {
      toast(t("The board did not load ({error}); showing the view as a tree.", { error: e.message }), "error");
    }
  }
  drawVerdict();
  drawFork();
  $("workspace").hidden = false;
  $("side").hidden = false;
  $("scrub").max = summary.readable;
  $("jump").max = summary.readable;
  await loadRecords();
  const bad = summary.verify.first_bad;
  await go(bad && bad.record !== null ? Math.min(bad.record + 1, summary.readable) : summary.readable);
}

function drawVerdict() {
  const v = state.log.verify;
  const box = $("verdict");
  box.className = `verdict ${v.ok ? "ok" : "bad"}`;
  document.body.dataset.verified = v.ok ? "ok" : "failed";
  const bad = v.first_bad;
  mount(box,
    h("b", {}, v.ok ? t("verify: ok") : t("verify: FAILED")), " — ", h("span", { class: "raw" }, v.summary),
    bad && bad.record !== null ? h("span", {}, " ", h("button", { id: "goto-bad", onclick: () => go(Math.min(bad.record + 1, state.log.readable)) }, t("show record {n}", { n: bad.record }))) : null,
    state.log.damage ? h("div", { class: "muted" }, t("Read {n} records, up to the damage:", { n: state.log.readable }), " ", h("span", { class: "raw" }, state.log.damage)) : null,
    state.log.seed_hidden ? h("div", { class: "muted" }, t("This log hides its seed: it can be replayed, not re-decided or forked.")) : null);
}

async function loadRecords() {
  const body = await get(`api/debug/logs/${state.log.id}/records`, { as: state.as, lang: LANG });
  state.records = body.records;
  drawTimeline();
  drawRecordList();
}

function badRecord() {
  const bad = state.log.verify.first_bad;
  return bad && bad.record !== null ? bad.record : null;
}

function drawTimeline() {
  const bad = badRecord();
  const ticks = state.records.map((r, i) => h("button", {
    class: ["tick", r.engine ? "engine" : "", r.barrier ? "barrier" : "", i < state.at ? "done" : "",
      i === state.at - 1 ? "current" : "", i === bad ? "bad" : "", bad !== null && i > bad ? "unverified" : ""],
    title: `${r.seq}. ${r.engine ? t("engine") : t("seat {n}", { n: r.actor })}: ${r.said || r.text}` + (i === bad ? ` — ${t("FAILED:")} ${state.log.verify.first_bad.reason}` : ""),
    dataset: { seq: r.seq },
    onclick: () => go(i + 1),
  }));
  if (bad !== null && bad >= state.records.length) {
    ticks.push(h("button", { class: "tick bad", title: `${t("record {n}", { n: bad })}: ${state.log.verify.first_bad.reason}`, dataset: { seq: bad }, onclick: () => go(state.records.length) }));
  }
  mount($("timeline"), ticks);
}

function drawRecordList() {
  const bad = badRecord();
  mount($("records"), state.records.map((r, i) => h("li", {
    class: [i === state.at - 1 ? "current" : "", i === bad ? "bad" : ""], value: r.seq, dataset: { seq: r.seq }, onclick: () => go(i + 1),
  }, r.engine ? h("i", {}, `${t("engine")}: `) : h("b", {}, `${t("seat {n}", { n: r.actor })}: `), r.said || r.text, " ", h("span", { class: "raw muted" }, `[${r.text}]`),
    i === bad ? h("div", { class: "raw" }, `✗ ${state.log.verify.first_bad.reason}`) : null)));
  if (bad !== null && bad >= state.records.length) {
    $("records").append(h("li", { class: "bad", value: bad, dataset: { seq: bad } }, `${t("record {n}", { n: bad })}: `, h("span", { class: "raw" }, `✗ ${state.log.verify.first_bad.reason}`)));
  }
}

async function go(n) {
  n = Math.max(0, Math.min(n, state.log.readable));
  // Only the newest request is shown: an older answer that arrives late (a step clicked while the
  // previous one loads) must not take the page back to where it was asked to leave.
  const ticket = ++state.ticket;
  state.loading += 1;
  document.body.dataset.loading = "true";
  try {
    const position = await get(`api/debug/logs/${state.log.id}/at/${n}`, { as: state.as, lang: LANG });
    if (ticket === state.ticket) {
      state.position = position;
      state.at = n;
    }
  } catch (e) {
    fail(e);
  } finally {
    state.loading -= 1;
    if (state.loading === 0) document.body.dataset.loading = "false";
  }
  if (ticket === state.ticket) drawPosition();
}

function drawPosition() {
  const p = state.position;
  const n = state.at;
  document.body.dataset.at = String(n);
  $("scrub").value = n;
  $("jump").value = n;
  $("where").textContent = `${n} / ${state.log.readable}` +
    (p.to_act.length ? ` · ${t("to act:")} ${p.to_act.map((/** @type {number} */ s) => t("seat {n}", { n: s })).join(", ")}` : "");
  $("back").disabled = $("first").disabled = n === 0;
  $("next").disabled = $("last").disabled = n >= state.log.readable;
  $("undo").disabled = p.undo_to === null;
  $("redo").disabled = p.redo_to === null;
  $("download").href = `api/debug/logs/${state.log.id}/log?at=${n}`;
  $("fork").disabled = state.log.seed_hidden || (badRecord() !== null && n > badRecord());
  $("fork").textContent = t("Fork at {n} and play", { n });
  drawTimeline();
  drawRecordList();
  const current = document.querySelector("#records li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  // the picture: a seat's or spectator's view on the game's board, the referee's state as a tree
  const root = $("board");
  if (state.as === "referee" || !state.board) {
    mount(root, h("h3", {}, state.as === "referee" ? t("The referee's state") : t("The view")), h("div", { class: "raw" }, tree(p.view)));
  } else {
    const seat = typeof p.as === "number" ? p.as : null;
    const named = (/** @type {number | null} */ s) => seatName(s, []);
    const turn = describeTurn({ acting: p.to_act, seat, mine: false, over: p.outcome !== null, seatName: named,
      rule: ruleOf(state.board, { view: p.view, seat, t, seatName: named }) });
    const ctx = makeContext(root, new Chooser(h("div"), () => {}), {
      game: state.log.game, view: p.view, legal: [], seat, seats: state.log.seats, toAct: p.to_act, turn,
      players: [], catalog: state.catalog, words: state.words, records: [], outcome: p.outcome, interactive: false, play: () => {}, redraw: drawPosition,
    }, { selected: null });
    try {
      state.board.render(ctx);
    } catch (e) {
      mount(root, h("p", { class: "error" }, t("The board failed: {error}", { error: e.message })), h("div", { class: "raw" }, tree(p.view)));
    }
  }
  // the record that led here, and its events
  const r = p.record;
  const bad = badRecord();
  $("record-title").textContent = r ? t("Record {n} (of records 0 to {last})", { n: r.seq, last: state.log.records - 1 }) : t("The start: no record yet");
  const label = (c, i) => (p.legal_text && p.legal_text[i]) || describe(c);
  mount($("record"), r ? [
    h("p", {}, r.engine ? t("The engine") : t("Seat {n}", { n: r.actor }), ": ", h("b", {}, r.said || r.text), " ", h("span", { class: "raw muted" }, `[${r.text}]`), r.barrier ? ` · ${t("an information barrier")}` : "",
      r.rng !== undefined ? ` · ${t("RNG counter after:")} ${r.rng}` : ""),
    r.seq === bad ? h("p", { class: "error" }, t("verify failed here:"), " ", h("span", { class: "raw" }, state.log.verify.first_bad.reason)) : null,
    h("div", { class: "raw" }, tree(r.command, "command", 1)),
    h("div", { class: "raw" }, r.events.map((/** @type {any} */ e, /** @type {number} */ i) => tree(e, `event ${i}`, 1))),
    p.outcome ? h("p", {}, t("Outcome:"), " ", h("span", { class: "reason" }, p.outcome.text || p.outcome.reason)) : null,
    typeof p.as === "number" && p.legal.length ? h("details", {}, h("summary", {}, t("{n} legal commands for seat {seat}", { n: p.legal.length, seat: p.as })),
      h("ul", {}, p.legal.map((/** @type {any} */ c, /** @type {number} */ i) => h("li", {}, label(c, i))))) : null,
  ] : h("p", { class: "muted" }, t("Step forward to see the first record.")));
}

function drawFork() {
  const g = state.games.find((x) => x.id === state.log.game);
  const bots = g ? g.bots : ["random"];
  const best = bots.includes("heuristic") ? "heuristic" : bots[0];
  mount($("fork-seats"), Array.from({ length: state.log.seats }, (_, i) =>
    h("label", { class: "seat-choice" }, t("Seat {n}", { n: i }), " ",
      h("select", { "data-seat": i },
        h("option", { value: "me", selected: i === 0 || null }, t("me")),
        h("option", { value: "open" }, t("a person (open seat)")),
        bots.map((/** @type {string} */ b) => h("option", { value: `bot:${b}`, selected: (i !== 0 && b === best) || null }, t("{bot} bot", { bot: t(b) })))))));
}

async function fork() {
  const choices = $$("#fork-seats select").map((s) => s.value);
  if (choices.filter((c) => c === "me").length > 1) {
    toast(t("Choose “me” for one seat only."), "error");
    return;
  }
  const bots = {};
  choices.forEach((c, i) => { if (c.startsWith("bot:")) bots[String(i)] = c.slice(4); });
  try {
    const match = await post(`api/debug/logs/${state.log.id}/fork`, { at: state.at, bots });
    const mine = choices.indexOf("me");
    if (mine >= 0 && match.open_seats.includes(mine)) {
      const joined = await post(`api/matches/${match.id}/join`, { seat: mine });
      keepSeat(match.id, joined.seat, joined.token);
    }
    location.href = page(`play/${match.id}`);
  } catch (e) {
    fail(e);
  }
}

async function diff(file) {
  try {
    const other = await openUpload(file, file.name);
    const d = await get("api/debug/diff", { a: state.log.id, b: other.id });
    document.body.dataset.diff = d.relation;
    mount($("diff"),
      h("p", {}, h("b", {}, t(d.relation)), " · ", h("span", { class: "raw" }, d.summary),
        " ", t("(this log has {a} records, the other {b})", { a: d.records.a, b: d.records.b })),
      d.first_difference !== null ? h("p", {}, t("They part at record {n}.", { n: d.first_difference }), " ",
        h("button", { id: "goto-diff", onclick: () => go(Math.min(d.first_difference + 1, state.log.readable)) }, t("show it"))) : h("p", {}, t("No record differs.")),
      d.at ? h("div", {}, d.at.a ? h("div", {}, t("here:"), " ", d.at.a.text) : h("div", {}, t("here: (ends)")),
        d.at.b ? h("div", {}, t("there:"), " ", d.at.b.text) : h("div", {}, t("there: (ends)"))) : null,
      d.header.length ? h("ul", {}, d.header.map((/** @type {any} */ x) => h("li", {}, t("{field} differs", { field: x.field })))) : null);
  } catch (e) {
    fail(e);
  }
}

async function listMatches() {
  try {
    const over = await get("api/matches", { status: "over", limit: 100 });
    for (const m of over) $("matches").append(h("option", { value: m.id }, `${m.name || m.game} · ${m.game} · ${m.created.slice(0, 16).replace("T", " ")}`));
  } catch (e) {
    fail(e);
  }
}

async function main() {
  setup();
  document.title = `meeple · ${t("replay debugger")}`;
  state.games = await get("api/games").catch(() => []);
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (f) {
      try { await opened(await openUpload(f, f.name)); } catch (e) { fail(e); }
    }
  };
  $("matches").onchange = async () => {
    if (!$("matches").value) return;
    try { await opened(await post("api/debug/logs", { match: $("matches").value })); } catch (e) { fail(e); }
  };
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(state.at - 1);
  $("next").onclick = () => go(state.at + 1);
  $("last").onclick = () => go(state.log.readable);
  $("undo").onclick = () => state.position.undo_to !== null && go(state.position.undo_to);
  $("redo").onclick = () => state.position.redo_to !== null && go(state.position.redo_to);
  $("scrub").oninput = () => go(Number($("scrub").value));
  $("jump").onchange = () => go(Number($("jump").value));
  $("as").onchange = async () => {
    state.as = $("as").value;
    state.loading += 1;  // the page is not settled until the seat's records and position are both in
    document.body.dataset.loading = "true";
    try {
      await loadRecords();
    } catch (e) {
      fail(e);
    } finally {
      state.loading -= 1;
      if (state.loading === 0) document.body.dataset.loading = "false";
    }
    await go(state.at);
  };
  $("fork").onclick = fork;
  $("diff-file").onchange = () => $("diff-file").files[0] && diff($("diff-file").files[0]);
  document.addEventListener("keydown", (e) => {
    const tag = e.target instanceof Element ? e.target.tagName : "";
    if (!state.log || tag === "INPUT" || tag === "SELECT") return;
    if (e.key === "ArrowRight") go(state.at + 1);
    else if (e.key === "ArrowLeft") go(state.at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(state.log.readable);
  });
  await listMatches();
  const q = new URLSearchParams(location.search);
  try {
    if (q.get("log")) await opened(await get(`api/debug/logs/${encodeURIComponent(q.get("log"))}`));
    else if (q.get("match")) await opened(await post("api/debug/logs", { match: q.get("match") }));
  } catch (e) {
    fail(e);
  }
  document.body.dataset.ready = "true";
}

main();
