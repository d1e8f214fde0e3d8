// @ts-check
// The play page at phone width (docs/web.md, "On a phone"): the board keeps a readable scale (the page
// scrolls it up and down, its box side to side), a zoom control sets that scale, and the side panels fold.
//
// Independent of play.js and of the boards: it watches #board for a new drawing and gives the SVG its
// natural size (the viewBox's, as --board-w and --board-h); the stylesheet multiplies the width by --zoom at
// phone width only. Wider than a phone, the drawing fits its column but never shrinks below --board-least,
// the scale at which its smallest text reads at DESK_TEXT CSS px (the page scrolls it up and down, and where
// the column is narrower than that, its box side to side).

/** The zoom steps at phone width, times the board's least scale (FLOOR): the player's choice. */
export const STEPS = [1, 1.25, 1.5, 2, 2.5];
/** The least scale keeps the board's smallest text at MIN_TEXT and its smallest target at MIN_TAP CSS px. */
const MIN_TEXT = 11, MIN_TAP = 40, MAX_FLOOR = 2;
/** The least size of a board's text wider than a phone, in CSS px. */
const DESK_TEXT = 9;
const PHONE = window.matchMedia("(max-width: 600px)");
const KEY = "meeple.zoom";

const board = document.getElementById("board");
let step = Math.max(0, STEPS.indexOf(Number(localStorage.getItem(KEY))));
let floor = 1.25; // raised, never lowered, as drawings with smaller text or targets come

/** The least scale at which a drawing's smallest text (in SVG units) reads at `px` CSS pixels. */
function textScale(el, px) {
  let need = 0;
  for (const t of el.querySelectorAll("text")) {
    const size = parseFloat(getComputedStyle(t).fontSize);
    if (size > 0 && t.textContent.trim()) need = Math.max(need, px / size);
  }
  return need;
}

/** The scale a drawing needs: its smallest text and smallest clickable, in SVG units, at their CSS sizes. */
function needed(el) {
  let need = Math.max(1, textScale(el, MIN_TEXT));
  for (const a of el.querySelectorAll(".act")) {
    const box = a.getBBox ? a.getBBox() : null;
    const side = box ? Math.min(box.width, box.height) : 0;
    if (side > 0) need = Math.max(need, MIN_TAP / side);
  }
  return Math.min(MAX_FLOOR, Math.ceil(need * 20) / 20);
}

function measure() {
  for (const el of /** @type {NodeListOf<SVGSVGElement>} */ (board.querySelectorAll(":scope > svg[viewBox]"))) {
    const box = el.viewBox.baseVal;
    if (box && box.width && box.height) {
      el.style.setProperty("--board-w", String(box.width));
      el.style.setProperty("--board-h", String(box.height));
      el.style.setProperty("--board-least", String(Math.ceil(textScale(el, DESK_TEXT) * 100) / 100));
    }
    if (PHONE.matches) {
      const need = needed(el);
      if (need > floor) {
        floor = need;
        setStep(step);
      }
      reveal(el);
    }
  }
}

/** Where the board offers something and none of it is in the box's visible width, bring the first one in. */
function reveal(el) {
  const offered = [...el.querySelectorAll(".act")];
  if (offered.length === 0) return;
  const box = board.getBoundingClientRect();
  const seen = (a) => {
    const r = a.getBoundingClientRect();
    return r.right > box.left && r.left < box.right;
  };
  if (offered.some(seen)) return;
  const first = offered[0].getBoundingClientRect();
  board.scrollLeft += first.left - box.left - 16;
}

function button(label, text, delta) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "zoom-step";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", () => setStep(step + delta));
  return b;
}

const readout = document.createElement("span");
readout.className = "zoom-level";
readout.setAttribute("aria-live", "polite");
const out = button("Zoom out", "−", -1);
const into = button("Zoom in", "+", 1);

function setStep(next) {
  step = Math.min(STEPS.length - 1, Math.max(0, next));
  localStorage.setItem(KEY, String(STEPS[step]));
  const zoom = floor * STEPS[step];
  board.style.setProperty("--zoom", String(zoom));
  readout.textContent = `${Math.round(zoom * 100)}%`;
  out.disabled = step === 0;
  into.disabled = step === STEPS.length - 1;
}

if (board) {
  const bar = document.createElement("div");
  bar.className = "zoom";
  bar.append(out, readout, into);
  board.before(bar);
  setStep(step);
  measure();
  new MutationObserver(measure).observe(board, { childList: true });
}

// the side panels fold under their headings; at phone width the record starts folded
for (const section of document.querySelectorAll(".side section")) {
  const heading = section.querySelector("h2");
  if (!heading) continue;
  heading.classList.add("fold");
  heading.setAttribute("role", "button");
  heading.setAttribute("tabindex", "0");
  const set = (folded) => {
    section.classList.toggle("folded", folded);
    heading.setAttribute("aria-expanded", folded ? "false" : "true");
  };
  set(PHONE.matches && section.querySelector("#log") !== null);
  const toggle = () => set(!section.classList.contains("folded"));
  heading.addEventListener("click", toggle);
  heading.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      toggle();
    }
  });
}
