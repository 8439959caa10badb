import { afterEach, describe, expect, it } from "vitest";
import { analyzeFixture, applyFix, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

describe("HL003 stream-handler-arity", () => {
  it("flags a one-parameter stream handler in a HookRegistry and says it receives null", () => {
    const source = `
      import { HookRegistry } from "@hooklens/runtime";
      export const registry = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => String(chunk) } });
    `;
    const findings = analyzeFixture(source);
    expect(findings).toEqual([expect.objectContaining({ code: "HL003", text: "chunk: unknown" })]);
    expect(findings[0]!.message).toContain('"chunk" receives null');
  });

  it("offers a quick fix that declares the event and chunk-type parameters first", () => {
    const source = `
      import { HookRegistry } from "@hooklens/runtime";
      export const registry = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => String(chunk) } });
    `;
    const [finding] = analyzeFixture(source);
    expect(applyFix(source, finding!)).toContain("text: (_event: null, _chunkType: string, chunk: unknown) => String(chunk)");
  });

  it("follows handlers passed by name and registries given to an IModel as a plain object", () => {
    const findings = analyzeFixture(`
      import { IModel, ScriptedEndpoint } from "@hooklens/runtime";
      function onChunk(chunk: unknown) { return chunk; }
      export const model = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { streamHandlers: { text: onChunk, dict: (a: unknown, b: unknown) => [a, b] } } });
    `);
    expect(findings.map((f) => f.text)).toEqual(["chunk: unknown", "a: unknown, b: unknown"]);
  });

  it("accepts handlers that reach the chunk (three or more parameters, or a rest parameter)", () => {
    const findings = analyzeFixture(`
      import { HookRegistry } from "@hooklens/runtime";
      export const registry = new HookRegistry({ streamHandlers: {
        a: (_e: null, _t: string, chunk: unknown) => chunk,
        b: (...args: unknown[]) => args[2],
      } });
    `);
    expect(findings).toEqual([]);
  });
});
