// @ts-check
// The rules page (GET /rules/GAME): a bundled game's rules for players, in the page's language.
//
// The texts are data of the package, static/rules/<game>.<lang>.html (one per language of the pages), each an
// <article> with an <h1> (the game's name) and a <section id> per part: goal, turn, cards or board, scoring,
// end. The server answers /rules/GAME only for a game that has them.

import { LANG, setup, t } from "./i18n.js";

const game = decodeURIComponent(location.pathname.split("/rules/").pop().split("/")[0]);
const main = /** @type {HTMLElement} */ (document.getElementById("rules"));

async function show() {
  setup();
  const answer = await fetch(new URL(`static/rules/${encodeURIComponent(game)}.${LANG}.html`, document.baseURI));
  if (!answer.ok) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = t("There is no rules page for this game.");
    main.replaceChildren(p);
  } else {
    // the package's own text, served from this server: trusted markup
    const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    const article = doc.querySelector("article");
    if (article) main.replaceChildren(document.importNode(article, true));
    const title = main.querySelector("h1");
    if (title) document.title = `meeple · ${title.textContent}`;
    document.body.dataset.game = game;
  }
  document.body.dataset.ready = "true";
}

show();
