// @ts-check
// Text that must keep to a width (a card's, a panel's, the drawing's): a board gives such a text
// `dataset: { fit: WIDTH }` (SVG units) and calls fit(root) once the drawing is on the page, where
// text can be measured; a text longer than its width is narrowed to it, a shorter one is left alone.

/**
 * Narrow every text marked with data-fit under `root` that is longer than its width.
 * @param {Element} root
 */
export function fit(root) {
  for (const t of /** @type {NodeListOf<SVGTextElement>} */ (root.querySelectorAll("text[data-fit]"))) {
    const width = Number(t.dataset.fit);
    if (width > 0 && t.getComputedTextLength() > width) {
      t.setAttribute("textLength", String(width));
      t.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/**
 * Put a board's drawing `root` on the page in place of the last one (`host`), then fit its texts.
 * @param {Element} host
 * @param {Element} root
 */
export function show(host, root) {
  host.replaceChildren(root);
  fit(root);
}
