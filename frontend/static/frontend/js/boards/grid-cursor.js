// A keyboard cursor for boards that take clicks on fields (Idiotenspiel, Hexenhalma):
// arrow keys move it over the grid, Enter or Space clicks the field under it (the
// very element a mouse would hit, so every click handler works unchanged), Escape
// is left to the board. The field under the cursor is read out through a live line.
import { h, svgEl } from "../dom.js";

/**
 * @param {SVGSVGElement} svg the board, already in the page
 * @param {{rows: number | (() => number), cols: number | (() => number), size: number,
 *   label: (rc: number[]) => string, pick?: (rc: number[]) => void}} grid
 *   rows and columns as drawn on screen (or functions giving them, for a board
 *   that changes size), the cell size in SVG units, the text for the cell at a
 *   screen [row, col], and `pick` for a board that takes pointer presses rather
 *   than clicks (Enter then calls it with the cell)
 * @param {{at: number[]}} [memory] keeps the cursor's place across redraws
 */
export function gridCursor(svg, grid, memory = { at: [0, 0] }) {
  const { size } = grid;
  const dim = (v) => (typeof v === "function" ? v() : v);
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-roledescription", "board");
  const live = h("span", "sr-only", "", { "aria-live": "polite", "data-testid": "cursor-field" });
  svg.after(live);
  const frame = svgEl("rect", { class: "grid-cursor", width: size, height: size, rx: 1, visibility: "hidden" }, svg);

  function show() {
    const [r, c] = memory.at;
    svg.appendChild(frame); // stays on top of whatever was drawn since
    frame.setAttribute("x", String(c * size));
    frame.setAttribute("y", String(r * size));
    frame.setAttribute("visibility", "visible");
    live.textContent = grid.label([r, c]);
  }

  function click() {
    const [r, c] = memory.at;
    if (grid.pick) {
      grid.pick([r, c]);
      return show();
    }
    const m = svg.getScreenCTM();
    if (!m) return;
    frame.scrollIntoView?.({ block: "nearest", inline: "nearest" });
    const p = new DOMPoint((c + 0.5) * size, (r + 0.5) * size).matrixTransform(svg.getScreenCTM() ?? m);
    const hit = document.elementFromPoint(p.x, p.y); // the frame lets pointers through
    const target = hit && svg.contains(hit) ? hit : svg;
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, clientX: p.x, clientY: p.y, view: window }));
    // The click may have redrawn the board: keep the keyboard on it.
    queueMicrotask(() => {
      if (svg.isConnected && (document.activeElement === document.body || !document.activeElement)) svg.focus({ preventScroll: true });
      if (svg.isConnected) show();
    });
  }

  svg.addEventListener("focus", show);
  svg.addEventListener("blur", () => frame.setAttribute("visibility", "hidden"));
  svg.addEventListener("keydown", (e) => {
    if (e.target !== svg || e.altKey || e.ctrlKey || e.metaKey) return;
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (d) {
      const [r, c] = memory.at;
      memory.at = [Math.min(dim(grid.rows) - 1, Math.max(0, r + d[0])), Math.min(dim(grid.cols) - 1, Math.max(0, c + d[1]))];
      show();
    } else if (e.key === "Enter" || e.key === " ") click();
    else return;
    e.preventDefault();
  });
  return { show };
}
