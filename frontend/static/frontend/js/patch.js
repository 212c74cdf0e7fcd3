// Event frames carry a seat's view as a JSON Patch (RFC 6902: add, remove,
// replace) from the view that seat had; this applies one. Ops that do not fit
// the view at hand throw: the page then asks for a sync.

/**
 * `doc` with `ops` applied; `doc` itself stays as it was.
 * @param {any} doc
 * @param {{op: string, path: string, value?: any}[]} ops
 */
export function applyPatch(doc, ops) {
  let out = structuredClone(doc);
  for (const op of ops) {
    if (op.path === "") {
      if (op.op !== "replace") throw new Error(`cannot ${op.op} the whole view`);
      out = structuredClone(op.value);
      continue;
    }
    const parts = op.path.slice(1).split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
    const last = /** @type {string} */ (parts.pop());
    let target = out;
    for (const part of parts) {
      target = Array.isArray(target) ? target[Number(part)] : target?.[part];
      if (target === null || typeof target !== "object") throw new Error(`no ${op.path}`);
    }
    applyOne(target, last, op);
  }
  return out;
}

function applyOne(target, last, op) {
  if (Array.isArray(target)) {
    const i = last === "-" ? target.length : Number(last);
    const fits = Number.isInteger(i) && i >= 0 && (op.op === "add" ? i <= target.length : i < target.length);
    if (!fits) throw new Error(`${op.op} ${op.path} does not fit`);
    if (op.op === "add") target.splice(i, 0, op.value);
    else if (op.op === "remove") target.splice(i, 1);
    else target[i] = op.value;
  } else if (op.op === "add") {
    target[last] = op.value;
  } else if (!Object.hasOwn(target, last)) {
    throw new Error(`no ${op.path}`);
  } else if (op.op === "remove") {
    delete target[last];
  } else {
    target[last] = op.value;
  }
}
