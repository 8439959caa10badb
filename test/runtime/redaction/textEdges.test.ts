// The text rules at the edges issue 33 found: numbers under strong and weak names, quoted values
// of any length and nesting, escapes before a token shape, header values that are quoted, and
// the look-alikes that must stay readable.
import { describe, expect, it } from "vitest";
import { REDACTION_MASK, redactText, redactValue } from "@hooklens/runtime";

const M = REDACTION_MASK;
const LONG = "z".repeat(10_000);

describe("text rules at the edges", () => {
  it.each([
    ["a short number under a strong name", "DB_PASSWORD=12345678", `DB_PASSWORD=${M}`],
    ["a short number in JSON text", '{"password":87654321}', `{"password":${M}}`],
    ["a short number in a query string", "https://h/login?password=11223344&x=1", `https://h/login?password=${M}&x=1`],
    ["a number under a weak name stays", "max_tokens=256 key=3", "max_tokens=256 key=3"],
    ["a quoted value past 4,096 characters", `{"cookie":"${LONG}","user":"ada"}`, `{"cookie":"${M}","user":"ada"}`],
    ["an escaped quote inside the value", '{"token":"a\\"b","n":1}', `{"token":"${M}","n":1}`],
    ["JSON quoted into JSON, value with escapes", '{"b":"{\\"apiKey\\":\\"ab\\\\ncd\\",\\"n\\":1}"}', `{"b":"{\\"apiKey\\":\\"${M}\\",\\"n\\":1}"}`],
    ["JSON quoted twice, long value", `\\\\\\"secret\\\\\\":\\\\\\"${LONG}\\\\\\"`, `\\\\\\"secret\\\\\\":\\\\\\"${M}\\\\\\"`],
    ["an unclosed quote runs to the line's end", "password: 'hunter2 and more\nnext line", `password: '${M}\nnext line`],
    ["a quoted header value", "{ authorization: 'Basic dXNlcjpwYXNz' }", `{ authorization: '${M}' }`],
    ["a token after a percent-escape", "q=key%20sk-proj-abcdefghijklmnopqrstuvwxyz0123", `q=key%20${M}`],
    ["a token after a JSON escape", "a\\nsk-proj-abcdefghijklmnopqrstuvwxyz0123", `a\\n${M}`],
    ["a token after a unicode escape", "a\\u0020ghp_abcdefghijklmnopqrstuvwxyz", `a\\u0020${M}`],
    ["a word ending in sk- stays", "task-abcdefghijklmnopqrstuvwxyz0123", "task-abcdefghijklmnopqrstuvwxyz0123"],
  ])("%s", (_label, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each([
    ["a Map key with a space", new Map([["client secret", "v1"]]), { "client secret": M }],
    ["a pair with a spaced key", [["client secret", "v2"]], [["client secret", M]]],
    ["a pair with a plain key stays", [["client name", "ada"]], [["client name", "ada"]]],
    ["a list of prose keeps the next item", ["the client secret rotates", "monthly", "ok"], ["the client secret rotates", "monthly", "ok"]],
  ])("%s", (_label, value, expected) => {
    expect(redactValue(value)).toEqual(expected);
  });
});
