import { afterEach, describe, expect, it } from "vitest";
import { configureRedaction, summarize, SUMMARY_LIMIT } from "@hooklens/runtime";

describe("summarize", () => {
  it("cuts to 200 code points with no ellipsis", () => {
    expect(SUMMARY_LIMIT).toBe(200);
    expect(summarize("a".repeat(500))).toBe("a".repeat(200));
    expect(summarize({ text: "b".repeat(500) })).toBe(`{"text":"${"b".repeat(191)}`);
  });

  it("counts code points, so an astral character is never split", () => {
    const text = "😀".repeat(300);
    const summary = summarize(text);
    expect([...summary]).toHaveLength(200);
    expect(summary).toBe("😀".repeat(200));
  });

  it("is deterministic: the same value gives the same text, keys in insertion order", () => {
    const value = { b: 1, a: [true, null, "x"], d: new Date(0) };
    expect(summarize(value)).toBe('{"b":1,"a":[true,null,"x"],"d":1970-01-01T00:00:00.000Z}');
    expect(summarize(value)).toBe(summarize({ ...value }));
  });

  it("shows a top-level string as it is and nested strings quoted", () => {
    expect(summarize("hi")).toBe("hi");
    expect(summarize(["hi"])).toBe('["hi"]');
  });

  it("names class instances, errors and functions", () => {
    class Point {
      x = 1;
    }
    expect(summarize(new Point())).toBe('Point{"x":1}');
    expect(summarize(new TypeError("bad"))).toBe("TypeError: bad");
    expect(summarize(function named() {})).toBe("[Function named]");
    expect(summarize(new Set([1]))).toBe("Set[1]");
    expect(summarize(new Uint8Array(4))).toBe("[Uint8Array 4 bytes]");
    expect(summarize(NaN)).toBe("NaN");
  });

  it("never throws, even for a proxy whose traps throw", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    expect(summarize(hostile)).toBe("{[unserialisable: no keys]");
  });
});

describe("summarize redacts before it cuts", () => {
  it("hides values under secret keys, secret text and header pairs", () => {
    const text = summarize({ query: "q", apiKey: "k-123456", headers: [["Authorization", "abc123"]], url: "https://u:pw-9876@h/x" });
    expect(text).toBe('{"query":"q","apiKey":"[redacted]","headers":[["Authorization","[redacted]"]],"url":"https://u:[redacted]@h/x"}');
  });

  it("masks secret text in keys too, in objects and Maps, and reports a getter that throws", () => {
    const token = "sk-proj-" + "a1b2c3d4".repeat(6);
    const throwing = Object.defineProperty({ before: 1 }, "broken", { enumerable: true, get: () => { throw new Error("no"); } });
    expect(summarize({ [token]: 1, plain: 2 })).toBe('{"[redacted]":1,"plain":2}');
    expect(summarize(new Map([[token, 1]]))).toBe('Map{"[redacted]":1}');
    expect(summarize(throwing)).toBe('{"before":1,"broken":[getter threw: no]}');
  });

  it("a token straddling the 200-character cut leaves no part of itself", () => {
    const token = "sk-proj-" + "a1b2c3d4".repeat(6);
    for (const offset of [180, 190, 195, 199]) {
      const text = summarize(`${"x".repeat(offset)} ${token}`);
      expect(text).not.toContain("sk-proj-a1");
      expect(text).not.toContain("a1b2c3");
    }
  });
});

describe("summarize's shortcuts keep the same text", () => {
  afterEach(() => configureRedaction());

  it("follows the rules in force for key names it has seen before", () => {
    const value = { "ticket-ACME-12345678": 1, plain: 2 };
    expect(summarize(value)).toBe('{"ticket-ACME-12345678":1,"plain":2}');
    configureRedaction({ patterns: [/\bACME-[0-9]{8}\b/], keys: ["plain"] });
    expect(summarize(value)).toBe('{"ticket-[redacted]":1,"plain":"[redacted]"}');
    configureRedaction();
    expect(summarize(value)).toBe('{"ticket-ACME-12345678":1,"plain":2}');
  });

  it("a remembered key name still decides by the value under it: a weak secret name hides text, not numbers", () => {
    // `token` is a weak secret name, `password` a strong one; each order, so either may be remembered first.
    expect(summarize({ token: 5, password: 1 })).toBe('{"token":5,"password":"[redacted]"}');
    expect(summarize({ token: "t-1", password: "p" })).toBe('{"token":"[redacted]","password":"[redacted]"}');
    expect(summarize({ token: [1], other: null })).toBe('{"token":"[redacted]","other":null}');
    expect(summarize({ token: null, flag: true, gone: undefined })).toBe('{"token":null,"flag":true,"gone":undefined}');
    expect(summarize({ [`k${"e".repeat(80)}y`]: 1, token: 2 })).toBe(`{"k${"e".repeat(80)}y":1,"token":2}`);
  });

  it("a summary made while another is being made (by a getter) leaves both whole", () => {
    const inner: Record<string, unknown> = { name: "inner" };
    inner["self"] = inner;
    const outer: Record<string, unknown> = {
      before: 1,
      get nested(): string {
        return summarize(inner);
      },
      after: [{ deep: true }],
    };
    outer["self"] = outer;
    expect(summarize(outer)).toBe('{"before":1,"nested":"{\\"name\\":\\"inner\\",\\"self\\":[Circular]}","after":[{"deep":true}],"self":[Circular]}');
    // Cycles are still found after a summary that stopped at the cut inside nested objects.
    summarize({ a: { b: { c: "x".repeat(1_000) } } });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["again"] = cyclic;
    expect(summarize(cyclic)).toBe('{"a":1,"again":[Circular]}');
    expect(summarize({ a: { a: 1 } })).toBe('{"a":{"a":1}}');
  });

  it("an array behind a proxy that claims a plain prototype is still written as a list", () => {
    const proxy = new Proxy([1, "two"], { getPrototypeOf: () => Object.prototype });
    expect(summarize(proxy)).toBe('[1,"two"]');
    expect(summarize({ list: proxy, n: -0, big: 1e21, inf: -Infinity, nan: NaN })).toBe('{"list":[1,"two"],"n":0,"big":1e+21,"inf":-Infinity,"nan":NaN}');
  });
});
