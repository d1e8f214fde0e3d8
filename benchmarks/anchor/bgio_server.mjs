// boardgame.io 0.50's own server (Koa + socket.io) hosting Liar's Dice.
// node bgio_server.mjs PORT DICE SIDES [flatfile DIR]
import { createRequire } from 'node:module';
import { makeGame } from './liars_dice.mjs';

const { Server, FlatFile } = createRequire(import.meta.url)('boardgame.io/dist/cjs/server.js');

const [port, dice, sides, storage, dir] = process.argv.slice(2);
const opts = { games: [makeGame(Number(dice), Number(sides))], origins: [/.*/] };
if (storage === 'flatfile') opts.db = new FlatFile({ dir, logging: false });
const server = Server(opts);
server.run(Number(port), () => console.log('ready'));
