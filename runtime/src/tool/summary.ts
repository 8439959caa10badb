import { redactionRules } from "../shared/redaction/index.js";
import { isScalarValue } from "../shared/redaction/keyNames.js";
import type { WalkPolicy } from "../shared/redaction/walk.js";

/** Length, in code points, of the argument and result summaries on TOOL_PRE and TOOL_POST. */
export const SUMMARY_LIMIT = 200;

/** Thrown inside the walk once enough text exists; never escapes `summarize`. */
const FULL: unique symbol = Symbol("summary full");

/** Text read past the cut before redacting, so a secret straddling the cut is still recognised whole. */
const REDACTION_MARGIN = 512;

class SummaryWriter {
  text = "";
  // Code points need at most two UTF-16 units each, so this many units always covers the cut.
  constructor(
    private readonly capacity: number,
    readonly redaction: WalkPolicy,
  ) {}

  /** A string cut to what the summary can hold plus a margin, redacted before the summary's own cut. */
  redacted(value: string): string {
    return this.redaction.text(value.slice(0, this.capacity + REDACTION_MARGIN));
  }

  write(piece: string): void {
    this.text += piece;
    if (this.text.length >= this.capacity) throw FULL;
  }
}

/**
 * A short, deterministic description of any value (the TypeScript reading of Python's
 * `str(x)[:200]`): a top-level string as is, anything else as compact JSON-like text in key
 * insertion order, cut to `limit` code points with no ellipsis. It reads only as much of the value
 * as the cut needs, so huge inputs cost little, and it never throws: cycles, throwing getters,
 * bigints, symbols and functions all get a readable stand-in. Secrets are masked with the shared
 * redaction rules before the cut (values under secret key names, secret text in strings and error
 * messages), because summaries reach hooks, signals, logs and error messages.
 */
export function summarize(value: unknown, limit: number = SUMMARY_LIMIT): string {
  const writer = new SummaryWriter(limit * 2 + 2, redactionRules().policy());
  // Every object the walk enters leaves the list again, so an idle list is empty; a summary made
  // while another is running (a getter that summarizes) takes a list of its own.
  const seen = spareSeen ?? [];
  spareSeen = null;
  try {
    if (typeof value === "string") writer.write(writer.redacted(value));
    else writeValue(writer, value, seen, limit);
  } catch (error) {
    if (error !== FULL) writer.text += `[unserialisable: ${messageOf(error)}]`;
  } finally {
    // writeObject takes each object off the list again, so only an unexpected failure leaves any.
    if (seen.length !== 0) seen.length = 0;
    spareSeen = seen;
  }
  return cutCodePoints(writer.text, limit);
}

/**
 * The objects being written, outermost first: an object met again among them is a cycle. A list,
 * not a Set: summaries are shallow, and a Set's table was rebuilt on adds and deletes.
 */
type Ancestors = object[];
let spareSeen: Ancestors | null = null;

function writeValue(writer: SummaryWriter, value: unknown, seen: Ancestors, limit: number): void {
  switch (typeof value) {
    case "string":
      writer.write(JSON.stringify(writer.redacted(value)));
      return;
    case "number":
      // A finite number's JSON text is its String() text.
      writer.write(String(value));
      return;
    case "boolean":
      writer.write(String(value));
      return;
    case "bigint":
      writer.write(`${value}n`);
      return;
    case "undefined":
      writer.write("undefined");
      return;
    case "symbol":
      writer.write(value.toString());
      return;
    case "function":
      writer.write(`[Function ${value.name || "anonymous"}]`);
      return;
  }
  if (value === null) {
    writer.write("null");
    return;
  }
  writeObject(writer, value as object, seen, limit);
}

function writeObject(writer: SummaryWriter, object: object, seen: Ancestors, limit: number): void {
  if (seen.includes(object)) {
    writer.write("[Circular]");
    return;
  }
  seen.push(object);
  try {
    // The common case first: a plain object is none of the kinds below (an array may claim
    // Object.prototype through a proxy, hence isArray first).
    if (!Array.isArray(object) && isPlainPrototype(Object.getPrototypeOf(object))) return writeFields(writer, "{", object as Record<string, unknown>, seen, limit);
    if (object instanceof GetterFailure) return writer.write(`[getter threw: ${object.message}]`);
    if (object instanceof Error) return writer.write(writer.redacted(`${object.name}: ${object.message}`));
    if (object instanceof Date) return writer.write(Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString());
    if (Array.isArray(object)) return writeItems(writer, "[", object, seen, limit);
    if (object instanceof Set) return writeItems(writer, "Set[", object, seen, limit);
    if (object instanceof Map) return writeEntries(writer, "Map{", object.entries(), seen, limit);
    if (ArrayBuffer.isView(object)) return writer.write(`[${object.constructor.name} ${object.byteLength} bytes]`);
    writeFields(writer, `${classPrefix(object)}{`, object as Record<string, unknown>, seen, limit);
  } finally {
    seen.pop();
  }
}

function writeItems(writer: SummaryWriter, open: string, items: Iterable<unknown>, seen: Ancestors, limit: number): void {
  writer.write(open);
  let first = true;
  // `["Authorization", "Bearer x"]`, `["--password", "p"]`: a secret name hides the item after it.
  let hideNext = false;
  for (const item of items) {
    if (!first) writer.write(",");
    first = false;
    if (hideNext) writer.write(JSON.stringify(writer.redaction.mask));
    else writeValue(writer, item, seen, limit);
    hideNext = !hideNext && typeof item === "string" && NAME_LIKE.test(item) && writer.redaction.hides(item.replace(/^-+|:$/g, ""), "");
  }
  writer.write("]");
}

function writeEntries(
  writer: SummaryWriter,
  open: string,
  entries: Iterable<readonly [unknown, unknown]>,
  seen: Ancestors,
  limit: number,
): void {
  writer.write(open);
  let first = true;
  for (const [key, field] of entries) {
    if (!first) writer.write(",");
    first = false;
    writeValue(writer, key, seen, limit);
    writeField(writer, String(key), field, seen, limit);
  }
  writer.write("}");
}

/** An object's own enumerable string keys in insertion order; a getter that throws is reported, not raised. */
function writeFields(writer: SummaryWriter, open: string, object: Record<string, unknown>, seen: Ancestors, limit: number): void {
  writer.write(open);
  let first = true;
  for (const key of Object.keys(object)) {
    let field: unknown;
    try {
      field = object[key];
    } catch (error) {
      field = new GetterFailure(messageOf(error));
    }
    const entry = keyEntry(writer, key);
    writer.write(first ? entry.text : entry.afterComma);
    first = false;
    if (isScalarValue(field) ? entry.hidesScalar : entry.hidesOther) writer.write(maskText);
    else writeValue(writer, field, seen, limit);
  }
  writer.write("}");
}

/** `:` and the field's value, or the mask when the key names a secret. */
function writeField(writer: SummaryWriter, key: string, field: unknown, seen: Ancestors, limit: number): void {
  writer.write(":");
  if (writer.redaction.hides(key, field)) writer.write(quotedMask(writer.redaction));
  else writeValue(writer, field, seen, limit);
}

const NAME_LIKE = /^-{0,2}[A-Za-z_][\w.-]{0,63}:?$/;

/** Stands in for a property whose getter threw; prints as `[getter threw: …]`. */
class GetterFailure {
  constructor(readonly message: string) {}
}

function isPlainPrototype(proto: unknown): boolean {
  return proto === Object.prototype || proto === null;
}

/** Keys no longer than this have their written forms remembered (per rule set): key names repeat. */
const CACHED_KEY_CHARS = 64;
const KEY_CACHE_LIMIT = 1_024;

/**
 * A field's key as the summary writes it (redacted, quoted as JSON, with the colon after it; and
 * with a comma before it) and whether the policy hides the value under it. The summary's policy
 * (the rules' plain policy) decides by the key and by whether the value is a scalar
 * ({@link isScalarValue}), so two answers cover every value.
 */
interface KeyEntry {
  readonly text: string;
  readonly afterComma: string;
  readonly hidesScalar: boolean;
  readonly hidesOther: boolean;
}

let keyEntries = new Map<string, KeyEntry>();
let entriesPolicy: WalkPolicy | null = null;

let maskText = "";

function keyEntry(writer: SummaryWriter, key: string): KeyEntry {
  if (entriesPolicy !== writer.redaction) usePolicy(writer.redaction);
  if (key.length > CACHED_KEY_CHARS) return newKeyEntry(writer, key);
  let entry = keyEntries.get(key);
  if (entry === undefined) {
    entry = newKeyEntry(writer, key);
    if (keyEntries.size >= KEY_CACHE_LIMIT) keyEntries.clear();
    keyEntries.set(key, entry);
  }
  return entry;
}

function newKeyEntry(writer: SummaryWriter, key: string): KeyEntry {
  const text = `${JSON.stringify(writer.redacted(key))}:`;
  return { text, afterComma: `,${text}`, hidesScalar: writer.redaction.hides(key, 0), hidesOther: writer.redaction.hides(key, "") };
}

/** The policy's mask, quoted as JSON. */
function quotedMask(policy: WalkPolicy): string {
  if (entriesPolicy !== policy) usePolicy(policy);
  return maskText;
}

function usePolicy(policy: WalkPolicy): void {
  entriesPolicy = policy;
  keyEntries = new Map();
  maskText = JSON.stringify(policy.mask);
}

function classPrefix(object: object): string {
  const proto: unknown = Object.getPrototypeOf(object);
  if (isPlainPrototype(proto)) return "";
  const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? name : "";
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unknown error";
  }
}

function cutCodePoints(text: string, limit: number): string {
  // A code point takes one or two units: text of no more units than the limit needs no cut.
  if (text.length <= limit) return text;
  let units = 0;
  let points = 0;
  while (units < text.length && points < limit) {
    const code = text.codePointAt(units)!;
    units += code > 0xffff ? 2 : 1;
    points++;
  }
  return text.slice(0, units);
}
