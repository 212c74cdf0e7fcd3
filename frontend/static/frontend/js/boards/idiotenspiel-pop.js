// Where the Idiotenspiel pop-over goes: beside its field, on whichever side
// leaves the lit fields (the choices the player is making) uncovered; failing
// that, the nearest free spot on the map; failing that, where it covers fewest.

const GAP = 4; // px between the pop-over and its field

/**
 * Place `pop` (absolutely positioned in the map's box, already filled and shown).
 * @param {HTMLElement} pop
 * @param {{field: [number, number], avoid: [number, number][], corner: (f: [number, number]) => number[],
 *          cell: number, margin: number, totalW: number}} at  fields as corners in SVG units
 */
export function placePop(pop, at) {
  const box = /** @type {HTMLElement} */ (pop.parentElement);
  const scale = box.clientWidth / at.totalW;
  const cs = at.cell * scale;
  const rect = (f) => {
    const [x, y] = at.corner(f);
    return [(x + at.margin) * scale, y * scale, cs, cs];
  };
  const [fx, fy] = rect(at.field);
  const keep = [rect(at.field), ...at.avoid.map(rect)];
  const pw = pop.offsetWidth;
  const ph = pop.offsetHeight;
  const bw = box.clientWidth;
  const bh = box.clientHeight;
  const clamp = (/** @type {number[]} */ [x, y]) => [Math.max(0, Math.min(x, bw - pw)), Math.max(0, Math.min(y, bh - ph))];
  const near = [
    [fx + cs + GAP, fy], [fx - GAP - pw, fy], [fx + cs + GAP, fy + cs - ph], [fx - GAP - pw, fy + cs - ph],
    [fx, fy + cs + GAP], [fx + cs - pw, fy + cs + GAP], [fx, fy - GAP - ph], [fx + cs - pw, fy - GAP - ph],
  ];
  const far = [];
  for (let y = 0; y <= bh - ph; y += cs) for (let x = 0; x <= bw - pw; x += cs) far.push([x, y]);
  far.sort((a, b) => Math.hypot(a[0] - fx, a[1] - fy) - Math.hypot(b[0] - fx, b[1] - fy));
  const covered = (/** @type {number[]} */ [x, y]) =>
    keep.filter(([kx, ky, kw, kh]) => x < kx + kw && kx < x + pw && y < ky + kh && ky < y + ph).length;
  let best = null;
  let fewest = Infinity;
  for (const spot of [...near, ...far].map(clamp)) {
    const n = covered(spot);
    if (n < fewest) [best, fewest] = [spot, n];
    if (n === 0) break;
  }
  pop.classList.remove("left");
  pop.style.margin = "0";
  pop.style.left = `${best[0]}px`;
  pop.style.top = `${best[1]}px`;
}
