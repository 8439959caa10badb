// The shortcuts that make redaction cheap must not change what it hides: redacting a signal's
// own JSON in place equals the copying walk, remembered short texts follow the rules in force and
// never stand in for a call with secrets of its own, and the precise hints still let every
// recognised form through to its rule.
import { afterEach, describe, expect, it } from "vitest";
import { configureRedaction, REDACTION_MASK, redactionRules, redactText, redactValue } from "@hooklens/runtime";
import { encodeSignalPayload, toJsonSafe } from "../../../runtime/src/session/serialize.js";
import { HookSignal } from "../../../runtime/src/session/signal.js";
import { FORM_NAMES, leaksIn, plantedCases } from "../../helpers/plantedSecrets.js";

afterEach(() => configureRedaction());

describe("redacting owned JSON in place", () => {
  it("gives exactly what the copying walk gives, for every planted form at random depths", () => {
    for (const seed of [1, 2, 3]) {
      for (const planted of plantedCases(seed, FORM_NAMES.length * 4)) {
        const json = toJsonSafe({ marker: "m", planted: planted.value, count: 3, ok: true, none: null });
        const copied = redactValue(json);
        const inPlace = redactionRules().redactOwnedJson(structuredClone(json));
        expect(inPlace, planted.form).toEqual(copied);
        expect(leaksIn(JSON.stringify(inPlace), [planted]), planted.form).toEqual([]);
      }
    }
  });

  it("the encode step redacts its own copy: the program's payload is left exactly as it was", () => {
    const headers = [["Authorization", "Bearer abcdef123456"]];
    const payload = { toolName: "fetch", apiKey: "sk-0123456789abcdefghij", nested: { password: "hunter22", headers }, list: ["--token", "t-123456"] };
    const before = structuredClone(payload);
    const { json } = encodeSignalPayload(new HookSignal("tool.pre", payload));
    expect(json).not.toMatch(/sk-0123|hunter22|abcdef123456|t-123456/);
    expect(payload).toEqual(before);
    expect(payload.nested.headers).toBe(headers);
  });

  it("changes only what it hides, and bounds the depth like the walk", () => {
    let deep: Record<string, unknown> = { password: "p-123456" };
    for (let i = 0; i < 300; i++) deep = { next: deep };
    const owned = { keep: { n: 1, list: ["a", "b"] }, token: "t-123456", deep };
    const keep = owned.keep;
    const out = redactionRules().redactOwnedJson(owned) as Record<string, unknown>;
    expect(out).toBe(owned);
    expect(out["keep"]).toBe(keep);
    expect(out["token"]).toBe(REDACTION_MASK);
    expect(JSON.stringify(out)).toContain('"[too deep]"');
    expect(JSON.stringify(out)).not.toContain("p-123456");
  });
});

describe("remembered short texts", () => {
  it("follow the rules in force: a pattern configured later applies to a text seen before", () => {
    expect(redactText("order ACME-12345678 shipped")).toBe("order ACME-12345678 shipped");
    configureRedaction({ patterns: [/\bACME-[0-9]{8}\b/] });
    expect(redactText("order ACME-12345678 shipped")).toBe(`order ${REDACTION_MASK} shipped`);
    configureRedaction({ enabled: false });
    expect(redactText("Bearer abcdef123456")).toBe("Bearer abcdef123456");
  });

  it("never answer a call that brings its own secrets", () => {
    expect(redactText("calling with plain-literal-key-42")).toBe("calling with plain-literal-key-42");
    expect(redactText("calling with plain-literal-key-42", { secrets: ["plain-literal-key-42"] })).toBe(`calling with ${REDACTION_MASK}`);
  });

  it("long texts are redacted in full, wherever the secret sits", () => {
    const text = `${"lorem ipsum ".repeat(40)} Authorization: Bearer abcdef123456 ${"dolor ".repeat(40)}`;
    expect(redactText(text)).not.toContain("abcdef123456");
  });
});

describe("the precise hints", () => {
  it.each([
    ["URL credentials with a long user name", `https://${"u".repeat(300)}:hunter22-pw@example.com/`, "hunter22-pw"],
    ["a token prefix in its exact case", "key AKIAABCDEFGHIJKLMNOP in the log", "AKIAABCDEFGHIJKLMNOP"],
    ["a GitHub token after prose that holds the letters gh", "though ghp_0123456789abcdefghijABCDEFGHIJ was revoked", "ghp_0123456789abcdefghijABCDEFGHIJ"],
    ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "c2lnbmF0dXJl"],
  ])("%s is still found", (_name, text, secret) => {
    expect(redactText(text)).not.toContain(secret);
  });

  it("ordinary links and prose pass untouched", () => {
    for (const text of ["https://docs.example.com/help/3?lang=en", "how do I return an item bought last month", "the author signed off"]) {
      expect(redactText(text)).toBe(text);
    }
  });
});
