import { afterEach, describe, expect, it } from "vitest";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

describe("HL004 post-hook-dict-only", () => {
  it("flags a post hook that reads its args parameter, which is always empty", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      new AgentSpec().post("editor", (_tool, _action, args, result) => {
        console.log(args["file_path"]);
        return result;
      });
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL004", text: "args" })]);
    expect(findings[0]!.message).toBe('Post hook\'s "args" is always an empty object: post hooks get (toolName, "", {}, result)');
    expect(findings[0]!.explanation).toContain("pre hook");
  });

  it("flags a post hook whose return value is never an object, so the runtime ignores it", () => {
    const findings = analyzeFixture(`
      import { CodingToolkit } from "@hooklens/runtime";
      declare const toolkit: CodingToolkit;
      toolkit.post("bash", async (_tool, _action, _args, result) => JSON.stringify(result));
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL004", text: "JSON.stringify(result)" })]);
    expect(findings[0]!.message).toBe("Post hook's Promise<string> return is ignored: only a plain object replaces the result");
    expect(findings[0]!.explanation).toContain("returns Promise<string>, which the runtime ignores");
  });

  it("accepts post hooks that return an object or nothing and ignore args", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      new AgentSpec()
        .post("reader", (_tool, _action, _args, result) => ({ ...result, checked: true }))
        .post("reader", () => undefined);
    `);
    expect(findings).toEqual([]);
  });
});
