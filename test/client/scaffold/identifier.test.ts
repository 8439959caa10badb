import { describe, expect, it } from "vitest";
import { capitalize, identifierProblem } from "../../../client/src/scaffold/identifier.js";

describe("hook names", () => {
  it.each(["auditToolCalls", "AuditHook", "_private", "$hook", "hook2", "a"])("accepts %s", (name) => {
    expect(identifierProblem(name)).toBeUndefined();
  });

  it.each([
    ["", /Enter a name/],
    ["2fast", /cannot start with a digit/],
    ["audit-calls", /letters, digits, _ or \$/],
    ["audit calls", /letters, digits, _ or \$/],
    ["hooks/evil", /letters, digits, _ or \$/],
    ["naïve", /letters, digits, _ or \$/],
    ["class", /reserved word/],
    ["await", /reserved word/],
    ["HookPoint", /clash with the @hooklens\/runtime import/],
    ["x".repeat(101), /at most 100/],
  ])("refuses %j", (name, problem) => {
    expect(identifierProblem(name)).toMatch(problem);
  });

  it("capitalizes derived names", () => {
    expect(capitalize("auditCalls")).toBe("AuditCalls");
    expect(capitalize("_x")).toBe("_x");
  });
});
