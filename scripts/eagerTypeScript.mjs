// Makes V8 compile TypeScript's compiler once, with the analyzer's bundle (the server's and
// `hooklens check`'s), instead of twice.
//
// esbuild wraps each CommonJS module of a bundle in a method, `"path"(exports, module) { … }`, which
// V8 compiles lazily: compiling the bundle pre-parses the method's whole body, and the first
// require parses it again. For TypeScript's ~6.5 MB that second pass is a waste at every start
// without a code cache (after installing or updating, and every `hooklens check`): written as a
// parenthesised function expression, `"path": (function (exports, module) { … })`, the body is
// compiled with the bundle in one pass (V8 compiles such expressions eagerly, expecting them to be
// called at once). Measured on the server bundle: ~30–40 ms less CPU to load it.
//
// The rewrite inserts text on two lines, and shifts the source map's columns after it to match.
// It relies on the shape esbuild gives TypeScript's module (its last statement included) and fails
// the build when that shape changes, rather than ship the bundle without it.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { decode, encode } from "@jridgewell/sourcemap-codec";

/** The start of TypeScript's module in the bundle: its key and its method's two parameters. */
const MODULE_START = /"[^"]*\/typescript\.js"(?=\((\w+),(\w+)\)\{)/g;
/** How TypeScript's typescript.js ends (`…})({ get exports() {…}, set exports(v) {…} })`) and then its method, object and call. */
const moduleEnd = (moduleParam) =>
  new RegExp(`\\}\\)\\(\\{get exports\\(\\)\\{return (\\w+)\\},set exports\\(v\\)\\{\\1=v,typeof ${moduleParam}<"u"&&${moduleParam}\\.exports&&\\(${moduleParam}\\.exports=v\\)\\}\\}\\)\\}(?=\\}\\))`, "g");

/** Rewrites the bundle at `path` (and its `.map` when there is one) in place. */
export function compileTypeScriptEagerly(path) {
  const text = readFileSync(path, "latin1");
  const starts = [...text.matchAll(MODULE_START)];
  if (starts.length !== 1) throw new Error(`${path}: expected TypeScript's module once in the bundle, found it ${starts.length} times (did esbuild change how it wraps CommonJS modules?)`);
  const [start] = starts;
  const keyEnd = start.index + start[0].length;
  const ends = [...text.slice(keyEnd).matchAll(moduleEnd(start[2]))];
  if (ends.length !== 1) throw new Error(`${path}: expected the end of TypeScript's module once, found it ${ends.length} times (did TypeScript or esbuild change its last statement?)`);
  const bodyEnd = keyEnd + ends[0].index + ends[0][0].length;
  // Later insertion first, so the earlier one's index still holds.
  const insertions = [
    { at: bodyEnd, text: ")" },
    { at: keyEnd, text: ":(function" },
  ];
  let rewritten = text;
  for (const { at, text: inserted } of insertions) rewritten = rewritten.slice(0, at) + inserted + rewritten.slice(at);
  writeFileSync(path, rewritten, "latin1");
  const mapPath = `${path}.map`;
  if (existsSync(mapPath)) writeFileSync(mapPath, shiftedMap(readFileSync(mapPath, "utf8"), text, insertions));
}

/** The source map with every generated column at or after an insertion moved right by its length. */
function shiftedMap(mapText, text, insertions) {
  const map = JSON.parse(mapText);
  const lines = decode(map.mappings);
  for (const { at, text: inserted } of insertions) {
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    const line = countLines(text, lineStart);
    const column = at - lineStart;
    for (const segment of lines[line] ?? []) if (segment[0] >= column) segment[0] += inserted.length;
  }
  map.mappings = encode(lines);
  return JSON.stringify(map);
}

/** How many newlines precede `end`. */
function countLines(text, end) {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
