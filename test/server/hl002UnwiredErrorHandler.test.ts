import { afterEach, describe, expect, it } from "vitest";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

describe("HL002 unwired-error-handler", () => {
  it("flags onError on an AgentSpec, naming the tool and saying it is never called", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      const spec = new AgentSpec();
      spec.pre("bash", async () => undefined).onError("bash", () => console.log("never"));
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL002", text: "onError" })]);
    expect(findings[0]!.message).toBe('AgentSpec.onError handler for "bash" is never called: no Tool runs error hooks');
    expect(findings[0]!.explanation).toContain("TOOL_ERROR");
  });

  it("flags onError on a CodingToolkit and on a user subclass of AgentSpec", () => {
    const findings = analyzeFixture(`
      import { AgentSpec, CodingToolkit } from "@hooklens/runtime";
      class MySpec extends AgentSpec {}
      declare const toolkit: CodingToolkit;
      toolkit.onError("*", () => undefined);
      new MySpec().onError("reader", () => undefined);
    `);
    expect(findings.map((f) => f.code)).toEqual(["HL002", "HL002"]);
  });

  it("leaves other onError methods alone", () => {
    const findings = analyzeFixture(`
      const emitter = { onError(_name: string, _fn: () => void) {} };
      emitter.onError("bash", () => undefined);
    `);
    expect(findings).toEqual([]);
  });
});
