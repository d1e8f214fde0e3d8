// @ts-check
// Position deltas (docs/protocol.md, "Deltas"): an update or rewind of protocol 2 may carry a patch of the
// position the connection holds instead of the whole. The same patches as meeple.server.delta applies.

/**
 * A JSON value as the wire carries it.
 * @typedef {null | boolean | number | string | any[] | {[key: string]: any}} JsonValue
 */
/**
 * One operation of a patch: ["r", path, value] sets, ["d", path] deletes an object's key,
 * ["s", path, index, count, items] splices a list. A path lists object keys and list indices.
 * @typedef {any[]} Op
 */
/**
 * What a position message says the seat sees and may do; a delta patches it.
 * @typedef {{view: any, legal: any[], legal_text: string[], undo: any, redo: boolean, clock: any, outcome: any, to_act?: number[], picture?: string | null}} Position
 */

/** The fields of a position that a delta patches. */
export const POSITION_FIELDS = ["view", "legal", "legal_text", "undo", "redo", "clock", "outcome", "to_act", "picture"];

/** A patch that does not fit the value it is applied to. */
export class PatchError extends Error {}

/**
 * A shallow copy of an object or list (what a patch changes is copied, the rest shared).
 * @param {any} value
 * @param {Op} op
 * @returns {any}
 */
function shallow(value, op) {
  if (Array.isArray(value)) return value.slice();
  if (value !== null && typeof value === "object") return { ...value };
  throw new PatchError(`the path of ${JSON.stringify(op)} goes through a value that is neither an object nor a list`);
}

/**
 * Whether `key` names an element of `node`: an own key of an object, an index of a list.
 * @param {any} node
 * @param {any} key
 */
function has(node, key) {
  if (Array.isArray(node)) return Number.isInteger(key) && key >= 0 && key < node.length;
  return node !== null && typeof node === "object" && typeof key === "string" && Object.hasOwn(node, key);
}

/**
 * Set `node[key]` as an own data property (a key "__proto__" too, as JSON.parse makes it), and return `value`.
 * @param {any} node
 * @param {string | number} key
 * @param {any} value
 */
function put(node, key, value) {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/**
 * `value` with the operations applied in order; `value` itself is left as it was.
 * @param {JsonValue} value
 * @param {Op[]} ops
 * @returns {JsonValue}
 */
export function patched(value, ops) {
  for (const op of ops) {
    if (!Array.isArray(op) || !Array.isArray(op[1])) throw new PatchError(`not an operation: ${JSON.stringify(op)}`);
    const [kind, path] = op;
    const arity = { r: 3, d: 2, s: 5 }[/** @type {string} */ (kind)];
    if (arity === undefined || op.length !== arity) throw new PatchError(`not an operation: ${JSON.stringify(op)}`);
    if (kind === "r" && path.length === 0) {
      value = op[2];
      continue;
    }
    if (kind === "d" && path.length === 0) throw new PatchError("a delete needs a path");
    const top = shallow(value, op);
    let node = top;
    const last = kind === "s" ? path.length : path.length - 1;
    for (const key of path.slice(0, last)) {
      if (!has(node, key)) throw new PatchError(`the path of ${JSON.stringify(op)} is not in the value`);
      node = put(node, key, shallow(node[key], op));
    }
    if (kind === "s") {
      const [, , index, count, items] = op;
      if (!Array.isArray(node) || !Number.isInteger(index) || !Number.isInteger(count) || !Array.isArray(items)
          || index < 0 || count < 0 || index + count > node.length) {
        throw new PatchError(`a splice that does not fit: ${JSON.stringify(op)}`);
      }
      node.splice(index, count, ...items);
    } else {
      const key = path[path.length - 1];
      if (kind === "d") {
        if (Array.isArray(node) || !has(node, key)) throw new PatchError(`nothing to delete at ${JSON.stringify(path)}`);
        delete node[key];
      } else if (has(node, key) || (!Array.isArray(node) && typeof key === "string")) {
        put(node, key, op[2]);
      } else {
        throw new PatchError(`nothing to replace at ${JSON.stringify(path)}`);
      }
    }
    value = top;
  }
  return value;
}

/**
 * The position a `sync`, `update` or `rewind` message brings the connection to: its own fields, or, when it
 * carries a `delta`, the position held (`held`, the last this function returned) patched by it.
 * @param {Position | null} held
 * @param {any} msg
 * @returns {Position}
 */
export function position(held, msg) {
  if (msg.delta === undefined) {
    return /** @type {Position} */ (Object.fromEntries(POSITION_FIELDS.map((k) => [k, msg[k]])));
  }
  if (held === null) throw new PatchError("a delta came before any whole position");
  return /** @type {Position} */ (patched(/** @type {any} */ (held), msg.delta));
}
