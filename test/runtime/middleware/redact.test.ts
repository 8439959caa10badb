import { describe, expect, it } from "vitest";
import { CIRCULAR, DEFAULT_REDACT, REDACTED, redact } from "@hooklens/runtime";

describe("redact", () => {
  it("hides the values of matching keys in the documented example", () => {
    expect(redact({ query: "returns", api_key: "sk-1", headers: { Authorization: "Bearer x" } })).toEqual({
      query: "returns",
      api_key: REDACTED,
      headers: { Authorization: REDACTED },
    });
  });

  it("has exactly the six default patterns", () => {
    expect(DEFAULT_REDACT).toEqual(["key", "token", "secret", "password", "authorization", "cookie"]);
  });

  it.each([
    ["key", "api_key"],
    ["key", "x-api-key"],
    ["token", "access_token"],
    ["secret", "client_secret"],
    ["password", "password"],
    ["authorization", "Authorization"],
    ["cookie", "Set-Cookie"],
  ])("the default pattern %s hides keys like %s", (_pattern, key) => {
    expect(redact({ [key]: "value", other: "visible" })).toEqual({ [key]: REDACTED, other: "visible" });
  });

  it("matches case-insensitively, anywhere in the key (so monkey is hidden too)", () => {
    expect(redact({ MyPASSWORDHint: "a", monkey: "b", note: "c" })).toEqual({ MyPASSWORDHint: REDACTED, monkey: REDACTED, note: "c" });
  });

  it("replaces the whole value of a matching key, even a nested object", () => {
    expect(redact({ tokens: { a: 1, b: [2] } })).toEqual({ tokens: REDACTED });
  });

  it("reaches any depth of nested objects", () => {
    expect(redact({ a: { b: { c: { d: { secret: "s", keep: 1 } } } } })).toEqual({ a: { b: { c: { d: { secret: REDACTED, keep: 1 } } } } });
  });

  it("walks arrays, including arrays of arrays", () => {
    expect(redact([{ token: "t" }, [{ password: "p", user: "u" }], "plain"])).toEqual([
      { token: REDACTED },
      [{ password: REDACTED, user: "u" }],
      "plain",
    ]);
  });

  it("walks Maps (by their keys) and Sets", () => {
    const out = redact({
      m: new Map<string, unknown>([
        ["Cookie", "c"],
        ["path", { apiKey: "k" }],
      ]),
      s: new Set([{ secret: 1 }]),
    }) as {
      m: Map<string, unknown>;
      s: Set<unknown>;
    };
    expect([...out.m]).toEqual([
      ["Cookie", REDACTED],
      ["path", { apiKey: REDACTED }],
    ]);
    expect([...out.s]).toEqual([{ secret: REDACTED }]);
  });

  it("is safe on cycles: a reference back to an enclosing object becomes a marker", () => {
    const root: Record<string, unknown> = { name: "root", password: "p" };
    root.self = root;
    const list: unknown[] = [root];
    root.list = list;
    expect(redact(root)).toEqual({ name: "root", password: REDACTED, self: CIRCULAR, list: [CIRCULAR] });
  });

  it("redacts an object shared by two siblings in both places (shared is not cyclic)", () => {
    const shared = { token: "t" };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { token: REDACTED }, b: { token: REDACTED } });
  });

  it("does not change its input", () => {
    const input = { api_key: "sk", nested: { secret: "s" } };
    redact(input);
    expect(input).toEqual({ api_key: "sk", nested: { secret: "s" } });
  });

  it("uses custom patterns instead of the defaults", () => {
    expect(redact({ ssn: "1", api_key: "k" }, ["SSN"])).toEqual({ ssn: REDACTED, api_key: "k" });
  });

  it("returns primitives and dates as they are", () => {
    const date = new Date(0);
    expect(redact("text")).toBe("text");
    expect(redact(null)).toBeNull();
    expect(redact(date)).toBe(date);
  });
});
