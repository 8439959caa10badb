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
    expect(findings[0]!.message).toBe('Stream handler\'s "chunk" receives null, not the chunk: the chunk is argument 3');
    expect(findings[0]!.explanation).toContain("(null, chunkType, chunk, params)");
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

  const REGISTRY = `import { HookRegistry } from "@hooklens/runtime";\n`;

  /** [why, handler source, texts flagged]: each handler is put in a HookRegistry's streamHandlers. */
  const table: [string, string, string[]][] = [
    ["a three-parameter handler reading its first parameter (always null) as the chunk", `(chunk: any, _type: string, _params: unknown) => chunk.text`, ["chunk: any"]],
    ["the same misreading in a method handler with a block body", `text(chunk: any, type: string, _params: unknown) { console.log(type); return chunk?.text; }`, ["chunk: any"]],
    ["a first parameter read while a rest parameter covering the chunk is not", `(chunk: any, ..._rest: unknown[]) => chunk.text`, ["chunk: any"]],
    ["a zero-parameter handler: it cannot misread the chunk", `() => console.log("chunk arrived")`, []],
    ["a zero-parameter method handler", `text() { return 1; }`, []],
    ["a three-parameter handler that reads the chunk from the third parameter", `(_event: null, _type: string, chunk: any) => chunk.text`, []],
    ["a first parameter that is read next to the real chunk (a null check, not a misreading)", `(event: unknown, _type: string, chunk: any) => (event ?? chunk).text`, []],
    ["all three parameters read: which one is meant as the chunk cannot be told", `(chunk: any, type: string, params: any) => [chunk, type, params.text]`, []],
    ["a three-parameter handler that reads nothing", `(_a: unknown, _b: unknown, _c: unknown) => undefined`, []],
    ["a destructured first parameter (it would throw on null, but names no chunk to report)", `({ text }: any, _t: string, _c: unknown) => text`, []],
  ];

  it.each(table)("%s", (_why, handler, texts) => {
    const entry = handler.startsWith("text(") ? handler : `text: ${handler}`;
    const findings = analyzeFixture(`${REGISTRY}export const registry = new HookRegistry({ streamHandlers: { ${entry} } });`);
    expect(findings.filter((f) => f.code === "HL003").map((f) => f.text)).toEqual(texts);
  });

  it("headlines the misread first parameter and offers no fix (which parameter is meant cannot be known)", () => {
    const [finding] = analyzeFixture(`${REGISTRY}new HookRegistry({ streamHandlers: { text: (chunk: any, type: string, _params: unknown) => [chunk.text, type] } });`);
    expect(finding).toMatchObject({ code: "HL003", message: 'Stream handler reads "chunk", which is always null: the chunk is argument 3' });
    expect(finding!.fix).toBeUndefined();
    expect(finding!.explanation).toContain("(null, chunkType, chunk, params)");
  });
});
