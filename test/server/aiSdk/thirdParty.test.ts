// Real code that uses the AI SDK correctly (test/fixtures/third-party/ai-sdk, with its licence):
// the pack finds nothing in it, against AI SDK 6 and 7, while it does read the SDK calls there.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { analyse, SDKS } from "./support.js";

const CHATBOT = join(REPO_ROOT, "test/fixtures/third-party/ai-sdk/ai-chatbot");

/** Each file, and the SDK calls the rules must have read in it (so a silent pass is not a blind one). */
const FILES: Array<[file: string, calls: Record<string, number>]> = [
  ["app/(chat)/api/chat/route.ts", { streamText: 1 }], // tools with execute, stopWhen: stepCountIs(5)
  ["lib/ai/providers.ts", { wrapLanguageModel: 1 }], // extractReasoningMiddleware, a model never streamed here
  ["artifacts/code/server.ts", { streamObject: 2 }],
  ["lib/ai/tools/get-weather.ts", { tool: 1 }],
  ["lib/ai/tools/request-suggestions.ts", { tool: 1, streamText: 1 }],
];

describe.each(SDKS)("vercel/ai-chatbot against AI SDK %s", (sdk) => {
  it.each(FILES)("%s: no finding", (file, calls) => {
    const { findings, sdkCalls } = analyse({ [basename(file)]: readFileSync(join(CHATBOT, file), "utf8") }, sdk);
    expect(findings).toEqual([]);
    expect(sdkCalls).toEqual(calls);
  });
});
