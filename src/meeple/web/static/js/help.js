// @ts-check
// What the play page and the lobby tell a player about a game: the link to its rules page (GET /rules/GAME),
// the legend under its board (legend.js) and the details panel over it (zoom.js).
//
// Independent of play.js and lobby.js: on the play page it waits for play.js to name the match's game
// (body[data-game]), then asks GET /api/web/boards/GAME?lang= for the game's words, sentences and rules page, and
// imports the game's board module (the same module play.js draws with) for its `about`. In the lobby it keeps
// the rules link beside the game picker pointing at the chosen game.

import { get } from "./api.js";
import { renderLegend } from "./legend.js";
import { LANG, t } from "./i18n.js";
import { installZoom } from "./zoom.js";

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

/** The game's help: what GET /api/web/boards/GAME says, and the board module's `about` (if it has one). */
async function help(game) {
  const info = await get(`api/web/boards/${encodeURIComponent(game)}`, { lang: LANG });
  let about = null;
  if (info.module) {
    try {
      about = (await import(new URL(info.module, document.baseURI).href)).about || null;
    } catch {
      about = null; // play.js says that the board did not load
    }
  }
  const words = info.words || {};
  const ctx = { t, lang: LANG, word: (/** @type {string} */ w) => words[w] || w, catalog: info.catalog, about: info.about || {} };
  return { info, about, ctx };
}

/** The play page: the rules link, the legend and the details panel, once play.js has named the game. */
async function playPage(game) {
  const { info, about, ctx } = await help(game);
  const link = $("rules-link");
  if (link && info.rules) {
    link.href = info.rules;
    link.hidden = false;
  }
  const box = $("legend");
  if (box) renderLegend(box, game, ctx);
  if (about) installZoom({ board: $("board"), panel: $("detail"), toggle: $("details"), source: () => ({ about, ctx }) });
  document.body.dataset.help = "ready";
}

/** The lobby: the rules link follows the game picker. */
function lobby(select) {
  const link = $("rules-link");
  if (!link) return;
  const follow = () => {
    const game = select.value;
    link.hidden = !game;
    if (game) link.href = `rules/${encodeURIComponent(game)}`;
  };
  select.addEventListener("change", follow);
  new MutationObserver(follow).observe(select, { childList: true });
  follow();
}

function main() {
  const picker = $("game");
  if (picker instanceof HTMLSelectElement) {
    lobby(picker);
    return;
  }
  const start = () => {
    const game = document.body.dataset.game;
    if (!game) return false;
    playPage(game).catch((e) => console.error(e));
    return true;
  };
  if (start()) return;
  const watch = new MutationObserver(() => {
    if (start()) watch.disconnect();
  });
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-game"] });
}

main();
