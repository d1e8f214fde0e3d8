// The load of benchmarks/server_load.py --anchor: Liar's Dice, one WebSocket per seat, two seats
// per match, every client answering its turn at once with the lowest legal bid (the call once no
// bid is left), against meeple (docs/protocol.md) or boardgame.io's server (its own client).
// node loadgen.mjs meeple|relay|bgio BASE CLIENTS DICE SIDES  ->  'ready', then (after a line on stdin)
// one JSON line of figures. 'relay' is benchmarks/anchor/relay.py, which speaks meeple's protocol.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');

const [target, base, clientsArg, diceArg, sidesArg] = process.argv.slice(2);
const clients = Number(clientsArg), dice = Number(diceArg), sides = Number(sidesArg);
const matches = Math.max(1, Math.floor(clients / 2));
const now = () => Number(process.hrtime.bigint()) / 1e6;  // ms

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

const acks = [], fanouts = [];
let bytes = 0, commands = 0;
// one per match: when each position was asked for (by its cursor or stateID), to time the other seat
const sentAt = [];

function pct(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(10 * s[Math.min(s.length - 1, Math.floor(p * s.length))]) / 10;
}

// -- meeple -------------------------------------------------------------------------------
async function meepleSeat(m, seat, token, done) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/matches/${m}/ws`);
  let legal = [], cursor = 0, pending = null, ref = 0, over = false, ready;
  const synced = new Promise((r) => { ready = r; });
  const act = () => {
    if (over || pending || !legal.length || !sentAt.go) return;
    ref += 1;
    pending = { ref, t: now(), cursor };
    sentAt[m] = { t: pending.t, cursor: cursor + 1 };
    ws.send(JSON.stringify({ type: 'play', cursor, command: legal[0], id: ref }));
  };
  ws.on('message', (data) => {
    bytes += data.length;
    const msg = JSON.parse(data);
    if (msg.type === 'error') {
      if (pending && msg.ref === pending.ref) pending = null;
      return;
    }
    if (msg.type !== 'sync' && msg.type !== 'update') return;
    const t = now();
    cursor = msg.cursor; legal = msg.legal;
    if (pending && msg.ref === pending.ref) { acks.push(t - pending.t); commands += 1; pending = null; }
    else if (msg.type === 'update' && sentAt[m] && msg.cursor >= sentAt[m].cursor && msg.by !== seat) {
      fanouts.push(t - sentAt[m].t);
    }
    if (msg.type === 'sync') ready();
    if (msg.outcome != null && !over) { over = true; done(); }
    act();
  });
  await new Promise((r, j) => { ws.on('open', r); ws.on('error', j); });
  ws.send(JSON.stringify({ type: 'hello', protocol: 1, token }));
  await synced;
  return { start: act, close: () => ws.close() };
}

async function meeple() {
  const seats = [];
  let finished = 0, allDone;
  const end = new Promise((r) => { allDone = r; });
  const done = () => { finished += 1; if (finished === matches) allDone(); };
  for (let i = 0; i < matches; i += 1) {
    const m = await post(`${base}/api/matches`, { game: 'liars-dice', seats: 2, options: { dice, sides } });
    for (let s = 0; s < 2; s += 1) {
      const j = await post(`${base}/api/matches/${m.id}/join`, { seat: s });
      seats.push(await meepleSeat(m.id, s, j.token, done));
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
        if (state.ctx.gameover && !over) { over = true; finished += 1; if (finished === matches) allDone(); }
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
await end;
const wall = (now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
for (const s of seats) s.close();
console.log(JSON.stringify({
  target, clients: matches * 2, matches, commands, wall_s: Math.round(wall * 100) / 100,
  commands_per_s: Math.round(10 * commands / wall) / 10,
  ack_p50_ms: pct(acks, 0.5), ack_p99_ms: pct(acks, 0.99),
  fanout_p50_ms: pct(fanouts, 0.5), fanout_p99_ms: pct(fanouts, 0.99),
  bytes_per_command: target === 'bgio' ? null : Math.round(bytes / commands),
  client_cpu_ms_per_command: Math.round(100 * (cpu.user + cpu.system) / 1000 / commands) / 100,
}));
process.exit(0);
