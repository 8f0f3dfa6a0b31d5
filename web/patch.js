// A viewer's document ({table, view, legal}) follows the server through small patches: an
// `event` or `presence` message carries only what changed since the document the server last
// sent this viewer. The browser's copy of crates/oh7-table/src/patch.rs (`apply`):
//
// - A patch is a JSON object `path → value`. A path is the keys and array indices from the
//   document's root joined by `/` (`view/hand_sizes/2`); the value replaces what is there.
// - A path ending in `+` appends the value's items (an array) to the array there (`view/trick+`).
// - A path ending in `-` removes from the array there the items at the value's indices, in
//   increasing order (`"view/hand-": [3]`: the card just played).
// - The path `""` replaces the whole document (and `"+"` appends to a document that is an array).
// - Paths of one patch never overlap, so their order does not matter.
//
// `applyPatch` is pure: it returns a new document and never changes the one it was given nor
// the patch. Only the objects and arrays along the changed paths are copied (each once, however
// many paths go through it); everything else is shared with the old document, so a view can
// tell what changed by comparing references.
//
// A patch that does not fit (a key or index that is not there, an append to something that is
// not an array, or items that are not an array) throws a `Misfit` naming the path. Nothing is
// changed then; the client asks for a snapshot (`sync`).

/** A patch that does not fit the document: `path` is where (without its `+`). */
export class Misfit extends Error {
  constructor(path) {
    super(`the patch does not fit the document at \`${path}\``);
    this.name = "Misfit";
    this.path = path;
  }
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// An array index as Rust's `usize::from_str` reads it: digits, an optional leading `+`.
const INDEX = /^\+?[0-9]+$/;

/** The key of `node` that path segment `key` names, or undefined when there is none. */
function childKey(node, key) {
  if (Array.isArray(node)) {
    if (!INDEX.test(key)) return undefined;
    const i = Number(key);
    return i < node.length ? i : undefined;
  }
  if (isObject(node)) return Object.hasOwn(node, key) ? key : undefined;
  return undefined;
}

// `copy[key] = value`, also for a key such as `__proto__` (which JSON may carry as plain data).
function write(copy, key, value) {
  if (key === "__proto__") Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
  else copy[key] = value;
}

/**
 * `doc` with `patch` applied, as a new document (structural sharing: only the containers along
 * the patch's paths are new). Throws `Misfit` if a path is not in `doc`. An absent patch
 * (`undefined` or `null`) changes nothing and returns `doc` itself.
 */
export function applyPatch(doc, patch) {
  if (patch === undefined || patch === null) return doc;
  if (!isObject(patch)) throw new Misfit("");
  // The containers made by this call: changed in place by the next paths instead of copied again.
  const fresh = new Set();
  const own = (node) => {
    if (fresh.has(node)) return node;
    const copy = Array.isArray(node) ? node.slice() : { ...node };
    fresh.add(copy);
    return copy;
  };
  // `node` with `value` put at `keys[i..]`: the new node.
  const put = (node, keys, i, value, op, path) => {
    if (i === keys.length) {
      if (op === "=") return value;
      if (!Array.isArray(node) || !Array.isArray(value)) throw new Misfit(path);
      if (op === "-") {
        const ok = value.every((k, j) => Number.isInteger(k) && k >= 0 && k < node.length && (j === 0 || k > value[j - 1]));
        if (!ok) throw new Misfit(path);
        const gone = new Set(value);
        const out = node.filter((_, k) => !gone.has(k));
        fresh.add(out);
        return out;
      }
      const out = own(node);
      out.push(...value);
      return out;
    }
    const key = childKey(node, keys[i]);
    if (key === undefined) throw new Misfit(path);
    const child = put(node[key], keys, i + 1, value, op, path);
    if (child === node[key]) return node;
    const out = own(node);
    write(out, key, child);
    return out;
  };
  let root = doc;
  for (const [raw, value] of Object.entries(patch)) {
    const op = raw.endsWith("+") ? "+" : raw.endsWith("-") ? "-" : "=";
    const path = op === "=" ? raw : raw.slice(0, -1);
    const keys = path === "" ? [] : path.split("/");
    root = put(root, keys, 0, value, op, path);
  }
  return root;
}
