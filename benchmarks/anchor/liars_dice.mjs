// Liar's Dice for boardgame.io 0.50, with the rules of meeple's liars-dice
// (examples/liars_dice.py): every seat rolls `dice` dice of `sides` faces in
// secret, the top face is wild (counts as any face but itself); in turn a seat
// bids "at least q dice show face f", strictly higher in rank than the last
// bid ((q - 1) * sides + (f - 1)), or calls the last bid; on a call the dice
// are shown and the caller loses if the bid holds, else the bidder.
import { createRequire } from 'node:module';

const { INVALID_MOVE } = createRequire(import.meta.url)('boardgame.io/dist/cjs/core.js');

export function makeGame(dice, sides) {
  const rank = (q, f) => (q - 1) * sides + (f - 1);
  const count = (hands, face) => {
    let n = 0;
    for (const hand of Object.values(hands)) {
      for (const d of hand) if (d === face || (face !== sides && d === sides)) n += 1;
    }
    return n;
  };
  return {
    name: 'liars-dice',
    minPlayers: 2,
    maxPlayers: 6,
    setup: ({ ctx, random }) => {
      const hands = {};
      for (const p of ctx.playOrder) hands[p] = random.Die(sides, dice);
      return { hands, bids: [], loser: null, revealed: null };
    },
    // a seat sees its own dice only, until the call shows them all
    playerView: ({ G, playerID }) => ({
      bids: G.bids, loser: G.loser, revealed: G.revealed,
      my_dice: playerID != null && G.hands[playerID] ? G.hands[playerID] : [],
    }),
    turn: { minMoves: 1, maxMoves: 1 },
    moves: {
      bid: {
        move: ({ G, ctx, playerID }, quantity, face) => {
          const total = ctx.numPlayers * dice;
          if (!(quantity >= 1 && quantity <= total && face >= 1 && face <= sides)) return INVALID_MOVE;
          const last = G.bids[G.bids.length - 1];
          if (last && rank(quantity, face) <= rank(last.quantity, last.face)) return INVALID_MOVE;
          G.bids.push({ seat: playerID, quantity, face });
        },
        client: false,
      },
      call: {
        move: ({ G, playerID }) => {
          const last = G.bids[G.bids.length - 1];
          if (!last) return INVALID_MOVE;
          const holds = count(G.hands, last.face) >= last.quantity;
          G.loser = holds ? playerID : last.seat;
          G.revealed = G.hands;
        },
        client: false,
      },
    },
    endIf: ({ G }) => (G.loser != null ? { loser: G.loser } : undefined),
  };
}
