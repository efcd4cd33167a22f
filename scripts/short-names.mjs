// Trunk's post-build hook, after terser (scripts/minify-js.sh): gives the names the module
// and its JavaScript share short, meaningless spellings. wasm-bindgen names each import
// `__wbg_<name>_<16 hex digits of hash>` under the module "./rebalance-lab_bg.js", and
// exports closure shims under names of 100 characters; both files carry each name, and the
// hashes do not compress (about 3 KB gzip in all; README, Size). Renamed: every import (its
// module to "a"), and every export whose name is long and appears in the JavaScript only as
// that whole name. Nothing else in either file changes; a name the JavaScript does not hold
// exactly as expected stops the build.
//
// usage: node scripts/short-names.mjs DIR (the staging directory: one *_bg.wasm, its .js)
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const files = readdirSync(dir);
const wasmFile = files.find((f) => f.endsWith("_bg.wasm"));
const jsFile = wasmFile && files.find((f) => f === wasmFile.replace(/_bg\.wasm$/, ".js"));
if (!wasmFile || !jsFile) throw new Error(`short-names: no module and script in ${dir}`);
const wasm = readFileSync(join(dir, wasmFile));
let js = readFileSync(join(dir, jsFile), "utf8");

function leb(buf, at) {
  let value = 0, shift = 0, byte;
  do {
    byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}
function encodeLeb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
}
function encodeName(s) {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([encodeLeb(b.length), b]);
}
function readName(buf, at) {
  const [len, p] = leb(buf, at);
  return [buf.subarray(p, p + len).toString("utf8"), p + len];
}

// Short names: a, b, ..., z, A, ..., Z, then two characters, in order of first use.
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
let counter = 0;
const fresh = () => {
  let n = counter++, s = "";
  do {
    s = alphabet[n % alphabet.length] + s;
    n = Math.floor(n / alphabet.length) - 1;
  } while (n >= 0);
  return "$" + s; // "$" keeps clear of every name JavaScript or wasm-bindgen already uses
};

// Every occurrence of `name` in the script as a whole identifier or string.
const occurrences = (name) => {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w$])${esc}(?![\\w$])`, "g");
};
const renames = new Map();
function rename(name) {
  if (!renames.has(name)) {
    if (!occurrences(name).test(js)) throw new Error(`short-names: ${name} not in ${jsFile}`);
    renames.set(name, fresh());
  }
  return renames.get(name);
}

const out = [wasm.subarray(0, 8)];
let at = 8;
let moduleName = null;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, body] = leb(wasm, at + 1);
  const end = body + size;
  if (id === 2 || id === 7) {
    let [count, p] = leb(wasm, body);
    const parts = [encodeLeb(count)];
    for (let i = 0; i < count; i++) {
      if (id === 2) {
        let mod, field;
        [mod, p] = readName(wasm, p);
        [field, p] = readName(wasm, p);
        if (moduleName === null) moduleName = mod;
        if (mod !== moduleName) throw new Error(`short-names: a second import module ${mod}`);
        const kind = wasm[p];
        if (kind !== 0) throw new Error(`short-names: import ${field} is not a function`);
        const [, q] = leb(wasm, p + 1);
        parts.push(encodeName("a"), encodeName(rename(field)), wasm.subarray(p, q));
        p = q;
      } else {
        let field;
        [field, p] = readName(wasm, p);
        const [, q] = leb(wasm, p + 1);
        const keep = field.length < 12 || !occurrences(field).test(js);
        parts.push(encodeName(keep ? field : rename(field)), wasm.subarray(p, q));
        p = q;
      }
    }
    if (p !== end) throw new Error(`short-names: section ${id} not read to its end`);
    const content = Buffer.concat(parts);
    out.push(Buffer.from([id]), encodeLeb(content.length), content);
  } else {
    out.push(wasm.subarray(at, end));
  }
  at = end;
}

// The module name appears once, as the key of the imports object.
const quoted = JSON.stringify(moduleName);
if (js.split(quoted).length !== 2) throw new Error(`short-names: ${quoted} is not in ${jsFile} once`);
js = js.replace(quoted, '"a"');
for (const [name, short] of renames) js = js.replace(occurrences(name), short);

writeFileSync(join(dir, wasmFile), Buffer.concat(out));
writeFileSync(join(dir, jsFile), js);
console.log(`short-names: ${renames.size} names shortened in ${wasmFile} and ${jsFile}`);
