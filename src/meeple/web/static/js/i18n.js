// @ts-check
// The pages' words in English and Russian: one string table, looked up gettext-style.
//
// A page writes its strings in English with {name} placeholders: t("seat {n}", {n: 2}). The English text
// is the message id, and RU maps each id to its Russian text (strings.js); a missing one shows the English
// (tests/web/test_i18n.py holds every id the scripts use to a Russian text, and every page in Russian to
// showing no English). Static text in a page's markup is marked with data-i18n (its text), data-i18n-title,
// data-i18n-placeholder or data-i18n-aria, and translated when the page starts (setup).
//
// The language is the one chosen with the switch in the page's header (kept in localStorage), else the
// first of the browser's languages (navigator.languages) that is English or Russian, else English. The
// server's texts (each legal command's and record's, the game's own words on the boards) are asked for in
// the same language.

import { RU } from "./strings.js";

/** The languages of the pages, the default first, and each one's name in itself. */
export const LANGUAGES = /** @type {const} */ (["en", "ru"]);
/** @typedef {typeof LANGUAGES[number]} Lang */
export const LANGUAGE_NAMES = { en: "English", ru: "Русский" };
/** Where the chosen language is kept. */
export const KEY = "meeple.lang";

/** @type {Record<Lang, Record<string, string>>} */
const TABLES = { en: {}, ru: RU };

/**
 * The language of a page: the one kept by the switch, else the first supported of the browser's, else English.
 * @param {string | null | undefined} kept what the switch stored
 * @param {readonly string[]} wanted the browser's languages, best first (navigator.languages)
 * @returns {Lang}
 */
export function pick(kept, wanted) {
  if (kept === "en" || kept === "ru") return kept;
  for (const tag of wanted) {
    const primary = String(tag).trim().toLowerCase().replace("_", "-").split("-")[0];
    if (primary === "en" || primary === "ru") return primary;
  }
  return "en";
}

/**
 * `text` with its {placeholders} filled from `params` (a placeholder without a value stays as it is).
 * @param {string} text
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * The message `id` in `lang`, its placeholders filled (the English id where there is no translation).
 * @param {Lang} lang
 * @param {string} id
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function translate(lang, id, params) {
  const table = TABLES[lang] || {};
  return format(Object.prototype.hasOwnProperty.call(table, id) ? table[id] : id, params);
}

/** @returns {Lang} */
function fromBrowser() {
  let kept = null;
  try {
    kept = globalThis.localStorage ? localStorage.getItem(KEY) : null;
  } catch {
    kept = null;
  }
  const nav = globalThis.navigator;
  return pick(kept, nav ? (nav.languages && nav.languages.length ? nav.languages : [nav.language || "en"]) : []);
}

/** This page's language. */
export const LANG = fromBrowser();

/**
 * The message `id` in this page's language.
 * @param {string} id
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(id, params) {
  return translate(LANG, id, params);
}

/**
 * Translate the page's marked static text, set <html lang>, and put the language switch in the header.
 * @param {Document} doc
 */
export function setup(doc = document) {
  doc.documentElement.lang = LANG;
  for (const el of doc.querySelectorAll("[data-i18n]")) el.textContent = t(el.getAttribute("data-i18n") || "");
  for (const [attr, name] of [["data-i18n-title", "title"], ["data-i18n-placeholder", "placeholder"], ["data-i18n-aria", "aria-label"]]) {
    for (const el of doc.querySelectorAll(`[${attr}]`)) el.setAttribute(name, t(el.getAttribute(attr) || ""));
  }
  const bar = doc.querySelector("header.bar");
  if (bar && !doc.getElementById("lang")) {
    const select = doc.createElement("select");
    select.id = "lang";
    select.className = "lang";
    select.setAttribute("aria-label", t("Language"));
    select.title = t("Language");
    for (const lang of LANGUAGES) {
      const option = doc.createElement("option");
      option.value = lang;
      option.lang = lang;
      option.textContent = LANGUAGE_NAMES[lang];
      select.append(option);
    }
    select.value = LANG;
    select.addEventListener("change", () => {
      localStorage.setItem(KEY, select.value);
      location.reload();
    });
    bar.append(select);
  }
}
