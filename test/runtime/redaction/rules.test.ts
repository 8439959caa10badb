import { afterEach, describe, expect, it } from "vitest";
import { configureRedaction, InvalidValueError, isSecretKey, REDACTION_MASK, redactError, redactText, redactValue, TOO_DEEP_MARK } from "@hooklens/runtime";

const M = REDACTION_MASK;
afterEach(() => configureRedaction());

describe("shared redaction: key names", () => {
  it.each([
    "apiKey",
    "api_key",
    "api-key",
    "x-api-key",
    "X-Api-Key",
    "OPENAI_API_KEY",
    "apikey",
    "key",
    "authorization",
    "Proxy-Authorization",
    "auth",
    "x-auth-token",
    "basicAuth",
    "oauth",
    "credentials",
    "credential",
    "bearer",
    "jwt",
    "passwd",
    "password",
    "dbPassword",
    "pwd",
    "secret",
    "client_secret",
    "token",
    "access_token",
    "refreshToken",
    "cookie",
    "Set-Cookie",
    "privateKey",
  ])("%s names a secret", (name) => {
    expect(isSecretKey(name)).toBe(true);
  });

  it.each([
    "author",
    "authority",
    "keyboard",
    "monkey",
    "query",
    "name",
    "inputTokens",
    "maxTokens",
    "passenger",
    "tokenizer",
    "description",
  ])("%s does not", (name) => {
    expect(isSecretKey(name)).toBe(false);
  });

  it("hides any value under a strong name, but keeps counts and flags under a weak one", () => {
    expect(
      redactValue({
        password: 1234,
        token: "t-1",
        maxToken: 100,
        pass: true,
        key: null,
      }),
    ).toEqual({
      password: M,
      token: M,
      maxToken: 100,
      pass: true,
      key: null,
    });
  });

  it("adds configured key names to the defaults, matched without case or separators", () => {
    configureRedaction({ keys: ["ssn"] });
    expect(redactValue({ user_SSN: "123-45-6789", apiKey: "k", name: "a" })).toEqual({ user_SSN: M, apiKey: M, name: "a" });
  });

  it("is off only when asked explicitly", () => {
    configureRedaction({ enabled: false });
    expect(redactValue({ apiKey: "k" })).toEqual({ apiKey: "k" });
    expect(redactText("Bearer abcdefgh")).toBe("Bearer abcdefgh");
  });
});

describe("shared redaction: text", () => {
  it.each([
    ["Authorization: Bearer abc.def", "Bearer abc.def"],
    ["curl -H 'Authorization: Bearer tok123' https://x", "tok123"],
    ["run with Bearer xyz987 please", "xyz987"],
    ["key sk-proj-abcdefghijklmnop1234 here", "sk-proj-abcdefghijklmnop1234"],
    ["https://alice:hunter2@example.com/v1", "hunter2"],
    ["https://example.com/cb?code=1&access_token=qwerty99&x=1", "qwerty99"],
    ["https://example.com/?api_key=AAAAbbbb", "AAAAbbbb"],
    ['{"apiKey":"s3cr3t-value","n":1}', "s3cr3t-value"],
    ['{"password": "p\\"w d"}', 'p\\"w d'],
    ["OPENAI_API_KEY=sk-short", "sk-short"],
    ["mysql --password hunter2 -u root", "hunter2"],
    ["tool --token=abc123", "abc123"],
    ["Cookie: session=abc123; theme=dark", "abc123"],
    ["x-api-key: zzzz9999", "zzzz9999"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJzdWIiOiIxIn0"],
    ["ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["AKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP"],
    ["Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"],
    ["request failed: token=abc123def", "abc123def"],
    [JSON.stringify({ body: JSON.stringify({ auth: "q1w2e3r4t5" }) }), "q1w2e3r4t5"],
    [JSON.stringify({ m: JSON.stringify({ body: JSON.stringify({ passwd: "z9x8c7v6" }) }) }), "z9x8c7v6"],
  ])("%s loses its secret", (text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(M);
  });

  it.each(["max_tokens=100", "author: Bob", "Basic usage of the tool", "see https://example.com/docs?page=2", "a plain sentence"])(
    "%s stays as it is",
    (text) => {
      expect(redactText(text)).toBe(text);
    },
  );

  it("hides literal secrets in every form: as given, trimmed, percent-encoded", () => {
    expect(
      redactText("got k3y/with+chars and k3y%2Fwith%2Bchars", {
        secrets: ["k3y/with+chars\n"],
      }),
    ).toBe(`got ${M} and ${M}`);
  });

  it("applies configured patterns", () => {
    configureRedaction({ patterns: [/ACME-\d{6}/] });
    expect(redactText("id ACME-123456 and ACME-654321")).toBe(`id ${M} and ${M}`);
  });
});

describe("shared redaction: shapes", () => {
  it("hides header pairs given as arrays, flat and nested", () => {
    expect(
      redactValue({
        raw: ["Host", "x", "Authorization", "abc"],
        pairs: [
          ["x-api-key", "k1"],
          ["accept", "json"],
        ],
      }),
    ).toEqual({
      raw: ["Host", "x", "Authorization", M],
      pairs: [
        ["x-api-key", M],
        ["accept", "json"],
      ],
    });
  });

  it("walks Maps, Sets, errors and class instances into JSON data", () => {
    class Box {
      secret = "s";
      open = "o";
    }
    expect(
      redactValue({
        m: new Map([["token", "t"]]),
        s: new Set(["Bearer abcdef"]),
        e: new Error("key=k1234"),
        b: new Box(),
      }),
    ).toEqual({
      m: { token: M },
      s: [`Bearer ${M}`],
      e: { name: "Error", message: `key=${M}` },
      b: { secret: M, open: "o" },
    });
  });

  it("survives 20,000 levels of nesting and cycles without throwing", () => {
    let deep: Record<string, unknown> = { password: "p" };
    for (let i = 0; i < 20_000; i++) deep = { next: deep };
    const out = JSON.stringify(redactValue(deep));
    expect(out).toContain(TOO_DEEP_MARK);
    const cyclic: Record<string, unknown> = { apiKey: "k" };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toEqual({ apiKey: M, self: "[Circular]" });
  });

  it("never throws on hostile objects", () => {
    const hostile = Object.defineProperty({}, "boom", {
      enumerable: true,
      get: () => {
        throw new Error("no");
      },
    });
    expect(() =>
      redactValue(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error("x");
            },
          },
        ),
      ),
    ).not.toThrow();
    expect(redactValue(hostile)).toEqual({ boom: "[getter threw]" });
  });
});

describe("redactError", () => {
  it("keeps class and flags, redacts message, stack and cause", () => {
    class HttpError extends Error {
      status = 401;
      retryable = false;
    }
    const original = new HttpError("denied for sk-abcdefghijklmnopqrstuv", {
      cause: new Error("token=zzz12345"),
    });
    const copy = redactError(original);
    expect(copy).toBeInstanceOf(HttpError);
    expect(copy.status).toBe(401);
    expect(copy.message).toBe(`denied for ${M}`);
    expect(copy.stack).not.toContain("sk-abcdefghijklmnopqrstuv");
    expect(String((copy.cause as Error).message)).toBe(`token=${M}`);
  });
});

describe("configureRedaction input checks", () => {
  it("refuses what is not an options object, keys that are not a list, patterns that are not regular expressions", () => {
    expect(() => configureRedaction(null as never)).toThrow(InvalidValueError);
    expect(() => configureRedaction({ keys: "ssn" as never })).toThrow(/keys must be an array/);
    expect(() => configureRedaction({ patterns: ["x"] as never })).toThrow(/patterns must be an array of regular expressions/);
    expect(isSecretKey("apiKey")).toBe(true);
  });
});
