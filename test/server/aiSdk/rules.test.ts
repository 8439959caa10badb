// The AI SDK pack's rules on code compiled against the real AI SDK 6 and 7: each trap in every
// import form and handler form the rule claims, and the correct code that looks closest to it.
import { describe, expect, it } from "vitest";
import { analyse, SDKS, type SdkName } from "./support.js";

const HEAD = `import { generateText, streamText, tool, wrapLanguageModel, stepCountIs, type LanguageModelMiddleware } from "ai";
import { z } from "zod";
declare const base: Parameters<typeof wrapLanguageModel>[0]["model"];
`;

interface Case {
  name: string;
  files: Record<string, string>;
  /** `code: text` of each finding, per SDK when they differ. */
  expected: readonly string[] | Record<SdkName, readonly string[]>;
  /** The case is plain JavaScript on purpose (TypeScript itself would reject it): type errors are not checked. */
  javaScript?: boolean;
}

const main = (body: string, head = HEAD): Record<string, string> => ({ "main.ts": `${head}${body}` });

const CASES: Case[] = [
  // HL301 wrap-generate-only
  { name: "HL301 inline middleware, model stored in a const and streamed", files: main(`const model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nstreamText({ model, prompt: "x" });\n`), expected: ["HL301: wrapGenerate"] },
  { name: "HL301 typed middleware const in an array, model passed directly", files: main(`const guard: LanguageModelMiddleware = { specificationVersion: "v3", async wrapGenerate({ doGenerate }) { return doGenerate(); } };\nstreamText({ model: wrapLanguageModel({ model: base, middleware: [guard] }), prompt: "x" });\n`), expected: ["HL301: wrapGenerate"] },
  { name: "HL301 namespace import", files: main(`const model = ai.wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nai.streamText({ model: model, prompt: "x" });\n`, `import * as ai from "ai";\ndeclare const base: Parameters<typeof ai.wrapLanguageModel>[0]["model"];\n`), expected: ["HL301: wrapGenerate"] },
  { name: "HL301 aliased imports", files: main(`const model = wrap({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nst({ model, prompt: "x" });\n`, `import { streamText as st, wrapLanguageModel as wrap } from "ai";\ndeclare const base: Parameters<typeof wrap>[0]["model"];\n`), expected: ["HL301: wrapGenerate"] },
  {
    name: "HL301 re-exported through a project module",
    files: { "main.ts": `import { streamText, wrapLanguageModel } from "./sdk";\ndeclare const base: Parameters<typeof wrapLanguageModel>[0]["model"];\nconst model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nstreamText({ model, prompt: "x" });\n`, "sdk.ts": `export { streamText, wrapLanguageModel } from "ai";\n` },
    expected: ["HL301: wrapGenerate"],
  },
  { name: "HL301 clean: both wraps", files: main(`const model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate(), wrapStream: async ({ doStream }) => doStream() } });\nstreamText({ model, prompt: "x" });\n`), expected: [] },
  { name: "HL301 clean: transformParams does the work", files: main(`const model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", transformParams: async ({ params }) => params, wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nstreamText({ model, prompt: "x" });\n`), expected: [] },
  { name: "HL301 clean: the model is only generated with", files: main(`const model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nawait generateText({ model, prompt: "x" });\n`), expected: [] },
  { name: "HL301 clean: a local streamText look-alike", files: main(`const model = wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate }) => doGenerate() } });\nfunction streamText2(o: { model: unknown; prompt: string }) { return o; }\nconst streamText_ = streamText2;\nstreamText_({ model, prompt: "x" });\n`), expected: [] },

  // HL302 params-rebuilt-in-wrap
  { name: "HL302 destructured params spread into a const, then doGenerate()", files: main(`export const m: LanguageModelMiddleware = { specificationVersion: "v3", wrapGenerate: async ({ doGenerate, params }) => { const tuned = { ...params, temperature: 0 }; console.log(tuned.temperature); return doGenerate(); } };\n`), expected: ["HL302: { ...params, temperature: 0 }"] },
  { name: "HL302 options.params in wrapStream, middleware handed to wrapLanguageModel", files: main(`wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapStream: async (options) => { const p = { ...options.params, maxOutputTokens: 10 }; return options.doStream(); } } });\n`), expected: ["HL302: { ...options.params, maxOutputTokens: 10 }"] },
  { name: "HL302 params passed to doGenerate (JavaScript)", javaScript: true, files: { "main.js": `import { wrapLanguageModel } from "ai";\nexport const make = (base) => wrapLanguageModel({ model: base, middleware: { specificationVersion: "v3", wrapGenerate: async ({ doGenerate, params }) => doGenerate({ ...params, temperature: 0 }) } });\n` }, expected: ["HL302: doGenerate({ ...params, temperature: 0 })"] },
  { name: "HL302 clean: the change made in transformParams", files: main(`export const m: LanguageModelMiddleware = { specificationVersion: "v3", transformParams: async ({ params }) => ({ ...params, temperature: 0 }), wrapGenerate: async ({ doGenerate }) => doGenerate() };\n`), expected: [] },
  { name: "HL302 clean: the rebuilt params given to model.doGenerate", files: main(`export const m: LanguageModelMiddleware = { specificationVersion: "v3", wrapGenerate: async ({ params, model }) => { const tuned = { ...params, temperature: 0 }; return model.doGenerate(tuned); } };\n`), expected: [] },
  { name: "HL302 clean: params changed in place (the same object doGenerate uses)", files: main(`export const m: LanguageModelMiddleware = { specificationVersion: "v3", wrapGenerate: async ({ doGenerate, params }) => { params.temperature = 0; return doGenerate(); } };\n`), expected: [] },

  // HL303 tool-loop-one-step
  { name: "HL303 tool() with execute, no stopWhen", files: main(`await generateText({ model: base, prompt: "x", tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => city }) } });\n`), expected: ["HL303: tools"] },
  { name: "HL303 tools from a const, streamText", files: main(`const tools = { weather: tool({ inputSchema: z.object({}), execute: async () => "sunny" }) };\nstreamText({ model: base, prompt: "x", tools });\n`), expected: ["HL303: tools"] },
  { name: "HL303 maxSteps (JavaScript)", javaScript: true, files: { "main.js": `import { generateText } from "ai";\nexport const run = (model) => generateText({ model, prompt: "x", maxSteps: 5 });\n` }, expected: ["HL303: maxSteps: 5"] },
  { name: "HL303 clean: stopWhen present", files: main(`await generateText({ model: base, prompt: "x", stopWhen: stepCountIs(5), tools: { weather: tool({ inputSchema: z.object({}), execute: async () => "sunny" }) } });\n`), expected: [] },
  { name: "HL303 clean: tools without execute (the client runs them)", files: main(`await generateText({ model: base, prompt: "x", tools: { weather: tool({ inputSchema: z.object({}) }) } });\n`), expected: [] },
  { name: "HL303 clean: toolChoice required (one forced call is the point)", files: main(`await generateText({ model: base, prompt: "x", toolChoice: "required", tools: { weather: tool({ inputSchema: z.object({}), execute: async () => "sunny" }) } });\n`), expected: [] },
  { name: "HL303 clean: options spread from a value syntax cannot read", files: main(`declare const settings: { stopWhen?: ReturnType<typeof stepCountIs> };\nawait generateText({ model: base, prompt: "x", ...settings, tools: { weather: tool({ inputSchema: z.object({}), execute: async () => "sunny" }) } });\n`), expected: [] },

  // HL304 old-and-new-option-names
  { name: "HL304 onFinish and onEnd", files: main(`streamText({ model: base, prompt: "x", onFinish() {}, onEnd() {} } as Parameters<typeof streamText>[0]);\n`), expected: { v6: [], v7: ["HL304: onFinish"] } },
  { name: "HL304 onStepFinish and onStepEnd, repair twice", files: main(`await generateText({ model: base, prompt: "x", onStepFinish: () => {}, onStepEnd: () => {}, experimental_repairToolCall: async () => null, repairToolCall: async () => null } as Parameters<typeof generateText>[0]);\n`), expected: { v6: [], v7: ["HL304: onStepFinish", "HL304: experimental_repairToolCall"] } },
  { name: "HL304 experimental_prepareStep and prepareStep (AI SDK 6)", files: main(`await generateText({ model: base, prompt: "x", experimental_prepareStep: async () => undefined, prepareStep: async () => undefined } as Parameters<typeof generateText>[0]);\n`), expected: { v6: ["HL304: experimental_prepareStep"], v7: [] } },
  { name: "HL304 clean: only the new names", files: main(`streamText({ model: base, prompt: "x", onStepFinish() {}, onFinish() {} });\n`), expected: [] },

  // HL305 try-around-stream
  { name: "HL305 try/catch around streamText, no onError", files: main(`export function handle() {\n  try {\n    const result = streamText({ model: base, prompt: "x" });\n    return result.toTextStreamResponse();\n  } catch (error) {\n    return new Response(String(error), { status: 500 });\n  }\n}\n`), expected: ["HL305: streamText"] },
  { name: "HL305 namespace import, streamObject", files: main(`export function handle() {\n  try {\n    return ai.streamObject({ model: base, prompt: "x", schema: z.object({ a: z.string() }) });\n  } catch {\n    return null;\n  }\n}\n`, `import * as ai from "ai";\nimport { z } from "zod";\ndeclare const base: Parameters<typeof ai.wrapLanguageModel>[0]["model"];\n`), expected: ["HL305: ai.streamObject"] },
  { name: "HL305 clean: onError given", files: main(`export function handle() {\n  try {\n    return streamText({ model: base, prompt: "x", onError: ({ error }) => console.error(error) }).toTextStreamResponse();\n  } catch {\n    return null;\n  }\n}\n`), expected: [] },
  { name: "HL305 clean: the result is awaited inside the try", files: main(`export async function handle() {\n  try {\n    return await streamText({ model: base, prompt: "x" }).text;\n  } catch {\n    return null;\n  }\n}\n`), expected: [] },
  { name: "HL305 clean: the call is in a callback the try only defines", files: main(`export function handle() {\n  try {\n    return () => streamText({ model: base, prompt: "x", onError: () => {} });\n  } catch {\n    return null;\n  }\n}\n`), expected: [] },
];

describe.each(SDKS)("AI SDK pack rules against AI SDK %s", (sdk) => {
  it.each(CASES)("$name", ({ files, expected, javaScript }) => {
    const { findings, typeErrors } = analyse(files, sdk);
    const want = Array.isArray(expected) ? expected : (expected as Record<SdkName, readonly string[]>)[sdk];
    expect(findings.map((f) => `${f.code}: ${f.text}`)).toEqual(want);
    if (!javaScript) expect(typeErrors.filter((e) => !e.includes("Top-level 'await'"))).toEqual([]);
  });
});
