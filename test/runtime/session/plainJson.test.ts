import { afterEach, describe, expect, it } from "vitest";
import { configureRedaction, encodeSignal, HookSignal, Message, MessageAdded, Signal, toJsonSafe, type JsonObject } from "@hooklens/runtime";
import { encodeSignalJson } from "../../../runtime/src/session/serialize.js";
import { NOT_PLAIN, redactedPlainView } from "../../../runtime/src/session/plainJson.js";
import { redactionRules } from "../../../runtime/src/shared/redaction/index.js";

/** What the encoder wrote before plain payloads skipped the copy: toJsonSafe, then redaction in place. */
function copiedThenRedacted(signal: Signal): string {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(signal)) {
    if (value === null || value === undefined || value === "" || ["id", "data", "emitterRole"].includes(key)) continue;
    raw[key] = toJsonSafe(value);
  }
  if (signal.data !== null && signal.data !== undefined) raw["data"] = toJsonSafe(signal.data);
  return JSON.stringify(redactionRules().redactOwnedJson(raw));
}

const deep = (levels: number): unknown => (levels === 0 ? "leaf" : { next: deep(levels - 1) });
const withCycle = () => {
  const node: Record<string, unknown> = { name: "a" };
  node["self"] = node;
  return node;
};

// Each data value, and what encoding it takes: as it is, copied only where redaction changed it, or toJsonSafe's full copy.
type Way = "as is" | "partly copied" | "copied";
const cases: Array<[string, unknown, Way]> = [
  ["a typical tool step", { step: 1, tool: "lookup", arguments: { query: "user-42", limit: 10 }, ok: true, note: null }, "as is"],
  ["arrays, nested, with undefined items", [1, [2, "three"], undefined, { four: [] }], "as is"],
  ["undefined fields", { kept: 1, left: undefined }, "as is"],
  ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 }), "as is"],
  ["unicode and lone surrogates", { text: "naïve ✓ \ud800 end" }, "as is"],
  ["nesting at the redaction bound", deep(198), "as is"],
  ["a secret key's number", { token: 5 }, "as is"],
  ["a secret key", { before: 1, left: undefined, apiKey: "abc", after: { key: "k" } }, "partly copied"],
  ["a secret in text, deep", { a: { b: [1, { header: "Authorization: Bearer abcdefghijklmnop" }] }, c: 2 }, "partly copied"],
  ["a token shape", ["x", undefined, "sk-abcdefghijklmnopqrstu"], "partly copied"],
  ["a secret name followed by its value in a list", ["--password", "hunter2", "--user", "ann"], "partly copied"],
  ["a secret name followed by a number", ["token", 5, "password", 7, "token", Number.NaN], "copied"],
  ["NaN and Infinity", { a: Number.NaN, b: Number.POSITIVE_INFINITY }, "copied"],
  ["a bigint", { big: 10n }, "copied"],
  ["a function", { callback: () => 1 }, "copied"],
  ["a Date", { at: new Date(0) }, "copied"],
  ["a Map", new Map([["a", 1]]), "copied"],
  ["an Error", new Error("boom"), "copied"],
  ["a class instance", new Message({ role: "user", content: "hi" }), "copied"],
  ["a cycle", withCycle(), "copied"],
  ["nesting past the bound", deep(220), "copied"],
  ["a __proto__ key", JSON.parse('{"__proto__": {"a": 1}, "b": "sk-abcdefghijklmnopqrstu"}') as unknown, "copied"],
  ["an array with its own toJSON", Object.assign([1, 2], { toJSON: () => "other" }), "copied"],
  ["a getter that throws", Object.defineProperty({}, "bad", { enumerable: true, get: () => { throw new Error("no"); } }), "copied"],
];

describe("plain payloads are encoded without a copy, to the same JSON", () => {
  afterEach(() => configureRedaction());

  it.each(cases)("%s", (_name, data, way) => {
    const signal = new Signal({ data, metadata: { branchId: "b" }, createdAt: 1 });
    const view = redactedPlainView(data, redactionRules().policy());
    expect(view === NOT_PLAIN ? "copied" : view === data ? "as is" : "partly copied").toBe(way);
    const { payload, json } = encodeSignalJson(signal);
    expect(json).toBe(copiedThenRedacted(signal));
    // Written from the signal's own values, no object form was built; from toJsonSafe's copy, it was.
    expect(payload === null).toBe(way !== "copied");
  });

  it("copies only the objects on the way to what redaction changed", () => {
    const untouched = { list: [1, 2], nested: { text: "plain" } };
    const data = { untouched, changed: { password: "p", sibling: untouched.nested } };
    const view = redactedPlainView(data, redactionRules().policy()) as typeof data;
    expect(view).not.toBe(data);
    expect(view.untouched).toBe(untouched);
    expect(view.changed).toEqual({ password: "[redacted]", sibling: { text: "plain" } });
    expect(view.changed.sibling).toBe(untouched.nested);
    expect(data.changed.password).toBe("p");
  });

  it("covers the signal's own fields too: a HookSignal whose payload carries a secret is redacted", () => {
    const signal = new HookSignal("tool.pre", { password: "hunter2", tool: "lookup" }, { createdAt: 1 });
    const { json } = encodeSignalJson(signal);
    expect(JSON.parse(json)).toMatchObject({ point: "tool.pre", payload: { password: "[redacted]", tool: "lookup" } });
  });

  it("a MessageAdded writes only its message reference either way", () => {
    const message = new Message({ role: "user", content: "secret body" });
    const json = encodeSignalJson(new MessageAdded({ data: message, createdAt: 1 })).json;
    expect(JSON.parse(json)).toEqual({ createdAt: 1, metadata: {}, schemaVersion: 1, messageRef: { id: message.id, role: "user" } });
  });

  it("with redaction turned off, what the rules would hide is written as it is", () => {
    configureRedaction({ enabled: false });
    const signal = new Signal({ data: { apiKey: "abc" }, createdAt: 1 });
    expect(encodeSignalJson(signal)).toEqual({ payload: null, json: '{"createdAt":1,"metadata":{},"schemaVersion":1,"data":{"apiKey":"abc"}}' });
  });

  it("a queued signal's payload object is read back from its text, never the caller's data", () => {
    const data = { step: 1, list: [1, 2] };
    const encoded = encodeSignal(new Signal({ data, createdAt: 1 }), 2);
    data.list.push(3);
    expect((encoded.payload as { data: JsonObject }).data).toEqual({ step: 1, list: [1, 2] });
    expect(encoded.payload["data"]).not.toBe(data);
    expect(JSON.stringify(encoded.payload)).toBe(encoded.payloadJson);
  });

  it("a plain payload over the byte cap is truncated as before", () => {
    const signal = new Signal({ data: { text: "x".repeat(20_000) }, createdAt: 1 });
    const { payload, json } = encodeSignalJson(signal);
    expect(JSON.parse(json)).toMatchObject({ truncated: true });
    expect(payload).toEqual(JSON.parse(json));
  });
});
