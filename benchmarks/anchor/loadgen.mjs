// The load of benchmarks/server_load.py --anchor: Liar's Dice, one WebSocket per seat, two seats
// per match, every client answering its turn at once with the lowest legal bid (the call once no
// bid is left), against meeple (docs/protocol.md) or boardgame.io's server (its own client).
// node loadgen.mjs meeple|relay|bgio BASE CLIENTS DICE SIDES [GAME]  ->  'ready', then (after a line on stdin)
// one JSON line of figures. 'relay' is benchmarks/anchor/relay.py, which speaks meeple's protocol.
// For meeple, BASE may list several server processes (comma-separated): match i is created on the i-th
// and its seat s connects to the (i + s)-th, so every match's seats are spread over the processes as a
// load balancer that knows nothing of matches would spread them. GAME (meeple only) is liars-dice (the
// default) or another bundled game, played with the first legal command. Every command must be answered
// (an update with its ref, or an error with it): one left unanswered for STALL seconds ends the run with
// the count of unanswered commands in the figures. A meeple server that speaks protocol 2 (its GET /api says
// so) sends positions as deltas, applied by the browser client's delta.js (copied here as delta.mjs).
import { createRequire } from 'node:module';
import { position } from './delta.mjs';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const [target, base, clientsArg, diceArg, sidesArg, gameArg] = process.argv.slice(2);
const clients = Number(clientsArg), dice = Number(diceArg), sides = Number(sidesArg);
const bases = base.split(','), game = gameArg || 'liars-dice';
const STALL = 60;  // seconds without an answer to a command before the run is given up
const matches = Math.max(1, Math.floor(clients / 2));
const now = () => Number(process.hrtime.bigint()) / 1e6;  // ms

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

const acks = [], fanouts = [];
let bytes = 0, commands = 0;
const refused = {};  // error code -> count
const pendings = new Set();  // every command sent and not yet answered
let heard = 0;  // when the last message of any server arrived
// one per match: when each position was asked for (by its cursor or stateID), to time the other seat
const sentAt = [];

function pct(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(10 * s[Math.min(s.length - 1, Math.floor(p * s.length))]) / 10;
}

let finishedCount = () => 0;

// -- meeple -------------------------------------------------------------------------------
async function meepleSeat(m, seat, token, done, where) {
  const ws = new WebSocket(`${where.replace('http', 'ws')}/api/matches/${m}/ws`);
  let legal = [], cursor = 0, pending = null, ref = 0, over = false, ready, held = null;
  const synced = new Promise((r) => { ready = r; });
  const act = () => {
    if (over || pending || !legal.length || !sentAt.go) return;
    ref += 1;
    pending = { ref, t: now(), cursor, m, seat };
    pendings.add(pending);
    sentAt[m] = { t: pending.t, cursor: cursor + 1 };
    ws.send(JSON.stringify({ type: 'play', cursor, command: legal[0], id: ref }));
  };
  ws.on('message', (data) => {
    bytes += data.length;
    heard = now();
    const msg = JSON.parse(data);
    if (msg.type === 'error') {
      if (pending && msg.ref === pending.ref) {
        refused[msg.code] = (refused[msg.code] || 0) + 1;
        pendings.delete(pending); pending = null;
      }
      return;
    }
    if (msg.type !== 'sync' && msg.type !== 'update') return;
    const t = now();
    held = position(held, msg);
    if (process.env.LOADGEN_DEBUG && pending && msg.ref !== pending.ref) {
      process.stderr.write(`pending ${pending.ref}@${pending.cursor} seat ${seat} got ${msg.type} ref ${msg.ref} by ${msg.by} cause ${msg.cause} cursor ${msg.cursor}\n`);
    }
    cursor = msg.cursor; legal = held.legal;
    if (pending && msg.ref === pending.ref) { acks.push(t - pending.t); commands += 1; pendings.delete(pending); pending = null; }
    else if (msg.type === 'update' && sentAt[m] && msg.cursor >= sentAt[m].cursor && msg.by !== seat) {
      fanouts.push(t - sentAt[m].t);
    }
    if (msg.type === 'sync') ready();
    if (held.outcome != null && !over) { over = true; done(m); }
    act();
  });
  await new Promise((r, j) => { ws.on('open', r); ws.on('error', j); });
  ws.send(JSON.stringify({ type: 'hello', protocol: speaks, token }));
  await synced;
  return { start: act, close: () => ws.close() };
}

// the protocol to speak: 2 (deltas) where the server's index says it speaks it, else 1 (the relay has no index)
let speaks = 1;

async function meeple() {
  try {
    const index = await (await fetch(`${bases[0]}/api`)).json();
    speaks = (index.protocols || [index.protocol]).includes(2) ? 2 : 1;
  } catch { speaks = 1; }
  const seats = [];
  let finished = 0, allDone;
  const end = new Promise((r) => { allDone = r; });
  const over = new Set();  // matches whose outcome a seat has seen (each is counted once, not once per seat)
  const done = (m) => { if (!over.has(m)) { over.add(m); finished += 1; if (finished === matches) allDone(); } };
  finishedCount = () => finished;
  for (let i = 0; i < matches; i += 1) {
    const home = bases[i % bases.length];
    const options = game === 'liars-dice' ? { dice, sides } : {};
    const m = await post(`${home}/api/matches`, { game, seats: 2, options });
    for (let s = 0; s < 2; s += 1) {
      const j = await post(`${home}/api/matches/${m.id}/join`, { seat: s });
      seats.push(await meepleSeat(m.id, s, j.token, done, bases[(i + s) % bases.length]));
    }
  }
  return { seats, end };
}

// -- boardgame.io -------------------------------------------------------------------------
async function bgio() {
  const { Client } = require('boardgame.io/dist/cjs/client.js');
  const { SocketIO } = require('boardgame.io/dist/cjs/multiplayer.js');
  const { makeGame } = await import('./liars_dice.mjs');
  const game = makeGame(dice, sides);
  const seats = [];
  let finished = 0, allDone;
  const end = new Promise((r) => { allDone = r; });
  const ended = new Set();  // matches over (each counted once, not once per seat)
  finishedCount = () => finished;
  for (let i = 0; i < matches; i += 1) {
    const { matchID } = await post(`${base}/games/liars-dice/create`, { numPlayers: 2 });
    for (let s = 0; s < 2; s += 1) {
      const { playerCredentials } = await post(`${base}/games/liars-dice/${matchID}/join`, { playerID: String(s), playerName: `p${s}` });
      const client = Client({ game, matchID, playerID: String(s), credentials: playerCredentials,
                              multiplayer: SocketIO({ server: base }), debug: false });
      let pending = null, over = false, ready;
      const synced = new Promise((r) => { ready = r; });
      const act = (state) => {
        if (over || pending || !state || !sentAt.go || state.ctx.currentPlayer !== String(s) || state.ctx.gameover) return;
        const last = state.G.bids[state.G.bids.length - 1];
        pending = { t: now(), id: state._stateID };
        sentAt[i] = { t: pending.t, id: state._stateID };
        if (!last) client.moves.bid(1, 1);
        else if (last.face < sides) client.moves.bid(last.quantity, last.face + 1);
        else if (last.quantity < 2 * dice) client.moves.bid(last.quantity + 1, 1);
        else client.moves.call();
      };
      client.subscribe((state) => {
        if (!state) return;
        if (state.isConnected) ready();
        const t = now();
        if (pending && state._stateID > pending.id) { acks.push(t - pending.t); commands += 1; pending = null; }
        else if (!pending && sentAt[i] && state._stateID > sentAt[i].id && sentAt[i].seen !== s) {
          fanouts.push(t - sentAt[i].t); sentAt[i].seen = s;
        }
        if (state.ctx.gameover && !over) {
          over = true;
          if (!ended.has(i)) { ended.add(i); finished += 1; if (finished === matches) allDone(); }
        }
        act(state);
      });
      client.start();
      await synced;
      seats.push({ start: () => act(client.getState()), close: () => client.stop() });
    }
  }
  // bytes: count what socket.io delivers to the clients
  return { seats, end };
}

const { seats, end } = target === 'bgio' ? await bgio() : await meeple();
// every match is set up: say so, and start when told (the caller samples the server's CPU time between)
console.log('ready');
await new Promise((r) => { process.stdin.once('data', r); });
const cpu0 = process.cpuUsage();
const t0 = now();
sentAt.go = true;
for (const s of seats) s.start();
// a command unanswered for STALL seconds is a server bug: stop, and say how many were left unanswered
let stalled = 0;
const watch = new Promise((r) => {
  const timer = setInterval(() => {
    const old = [...pendings].filter((p) => now() - p.t > STALL * 1000);
    if (old.length || (heard && now() - heard > STALL * 1000)) {
      stalled = pendings.size;
      process.stderr.write(`stalled: ${pendings.size} commands unanswered, ${matches - finishedCount()} matches unfinished\n`);
      process.stderr.write(`unanswered after ${STALL} s: ${old.slice(0, 5).map((p) => `match ${p.m} seat ${p.seat} cursor ${p.cursor}`).join('; ')}\n`);
      clearInterval(timer); r();
    }
  }, 1000);
  // every match is over: wait for the answers still on their way (the other seat may hear the end first)
  end.then(() => {
    const drained = setInterval(() => {
      if (!pendings.size) { clearInterval(drained); clearInterval(timer); r(); }
    }, 5);
  });
});
await watch;
const wall = (now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
for (const s of seats) s.close();
console.log(JSON.stringify({
  target, game, protocol: target === 'bgio' ? null : speaks, processes: bases.length, clients: matches * 2, matches, commands,
  unanswered: stalled || pendings.size, refused, wall_s: Math.round(wall * 100) / 100,
  commands_per_s: Math.round(10 * commands / wall) / 10,
  ack_p50_ms: pct(acks, 0.5), ack_p99_ms: pct(acks, 0.99),
  fanout_p50_ms: pct(fanouts, 0.5), fanout_p99_ms: pct(fanouts, 0.99),
  bytes_per_command: target === 'bgio' ? null : Math.round(bytes / commands),
  client_cpu_ms_per_command: Math.round(100 * (cpu.user + cpu.system) / 1000 / commands) / 100,
}));
process.exit(0);
