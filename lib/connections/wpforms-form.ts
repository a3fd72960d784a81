// A WPForms Webhooks delivery sent as a form (Request Format "FORM"), rebuilt into the array
// the addon made (its src/Process.php, fill_http_body_params_value and format): each Request
// Body key holds a text, a date-time field's [value, unix], or a file field's list of URLs.
// WordPress sends that array as http_build_query($data, '', '&') (wp-includes/Requests
// Transport/Curl.php): `key=text`, `key[value]=…&key[unix]=…`, `key[0]=…&key[1]=…`. The addon
// signs wp_json_encode() of the same array, PHP's json_encode with no flags: phpJson below
// writes it again from the tree, byte for byte, so a form delivery's signature can be checked.

/** A PHP array as http_build_query wrote it: keys in the order sent, each a text or a nested array. */
export type FormTree = Map<string, FormTree | string>;

/**
 * The array a form body was built from; null when the body is not what http_build_query
 * writes (not UTF-8, a malformed %-escape, a name sent twice, a name that is both a text and
 * an array). Names: `key`, or `key` followed by `[segment]`s, as PHP nests them.
 */
export function formTree(bytes: Uint8Array): FormTree | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  const root: FormTree = new Map();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    const value = decode(equals === -1 ? "" : pair.slice(equals + 1));
    const path = name === null ? null : pathOf(name);
    if (path === null || value === null || !place(root, path, value)) return null;
  }
  return root;
}

/** application/x-www-form-urlencoded as PHP's urlencode writes it ("+" for a space); null when malformed. */
function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/**
 * The addon's array is at most two deep (`key[value]`, `key[unix]`, `key[0]`): a name nested
 * deeper is not one it writes. The bound also keeps phpJson and treeValue, which recurse,
 * from a stack overflow on a body of thousands of `[]`.
 */
const MAX_SEGMENTS = 2;

/** "key[a][b]" → ["key", "a", "b"]; null for a name PHP would not have written. */
function pathOf(name: string): string[] | null {
  const open = name.indexOf("[");
  if (open === -1) return name === "" ? null : [name];
  const path = [name.slice(0, open)];
  const rest = name.slice(open);
  const segments = /^(?:\[[^[\]]*\])+$/.test(rest) ? rest.slice(1, -1).split("][") : null;
  if (path[0] === "" || segments === null || segments.length > MAX_SEGMENTS) return null;
  return [...path, ...segments];
}

function place(root: FormTree, path: string[], value: string): boolean {
  let node = root;
  for (const segment of path.slice(0, -1)) {
    const child = node.get(segment) ?? new Map();
    if (typeof child === "string") return false;
    node.set(segment, child);
    node = child;
  }
  const last = path.at(-1)!;
  if (node.has(last)) return false;
  node.set(last, value);
  return true;
}

/** Whether PHP's json_encode writes this array as a list: its keys are 0, 1, … in order. */
const isList = (tree: FormTree) => [...tree.keys()].every((key, index) => key === String(index));

/** A date-time field's `unix` is a whole number in PHP (strtotime): json_encode writes it bare. */
const UNIX_TIME = /^-?(?:0|[1-9]\d{0,17})$/;

/** A Date / Time field's array: exactly `value` and `unix`. */
const isDateTime = (tree: FormTree) => tree.size === 2 && tree.has("value") && tree.has("unix");

/**
 * The tree as json_encode($array) writes it (flags 0: "/" escaped, non-ASCII as \uXXXX).
 * A Date / Time field's `unix` is written bare, as the number PHP held; with
 * `unixFalse`, a `unix` of "0" is written `false`: the addon sets it to false when the date
 * could not be read, which http_build_query sends as 0 but json_encode signed as false.
 */
export function phpJson(tree: FormTree, options: { unixFalse?: boolean } = {}, inDateTime = false): string {
  const list = isList(tree);
  const items = [...tree].map(([key, value]) => {
    let written: string;
    if (typeof value !== "string") written = phpJson(value, options, isDateTime(value));
    else if (inDateTime && key === "unix" && options.unixFalse && value === "0") written = "false";
    else if (inDateTime && key === "unix" && UNIX_TIME.test(value)) written = value;
    else written = phpString(value);
    return list ? written : `${phpString(key)}:${written}`;
  });
  return list ? `[${items.join(",")}]` : `{${items.join(",")}}`;
}

/** Whether some Date / Time field's `unix` is "0" (then the signed text may have held false there). */
export function hasZeroUnix(tree: FormTree): boolean {
  return [...tree.values()].some((value) => typeof value !== "string" && isDateTime(value) && value.get("unix") === "0");
}

const SHORT_ESCAPES = new Map([
  ['"', '\\"'],
  ["\\", "\\\\"],
  ["/", "\\/"],
  ["\b", "\\b"],
  ["\f", "\\f"],
  ["\n", "\\n"],
  ["\r", "\\r"],
  ["\t", "\\t"],
]);

/** A text as PHP's json_encode writes it: each UTF-16 unit under U+0020 or over U+007F as a lower-case \uXXXX. */
export function phpString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES.get(char);
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** The tree as a JSON value, as the same array sent as JSON would read: lists for 0, 1, … keys, objects otherwise. */
export function treeValue(tree: FormTree): unknown {
  const value = (item: FormTree | string) => (typeof item === "string" ? item : treeValue(item));
  // Object.fromEntries defines each key as its own property: "__proto__" stays a field.
  return isList(tree) ? [...tree.values()].map(value) : Object.fromEntries([...tree].map(([key, item]) => [key, value(item)]));
}
