import { toolLoopOneStep } from "./hl303ToolLoopOneStep.js";
import { oldAndNewCallbackNames } from "./hl304OldAndNewCallbackNames.js";
import { paramsRebuilt } from "./hl302ParamsRebuilt.js";
import type { AiSdkRule } from "./rule.js";
import { wrapGenerateOnly } from "./hl301WrapGenerateOnly.js";
import { tryAroundStream } from "./hl305TryAroundStream.js";

/**
 * The AI SDK pack's rules (HL3nn), in code order. Registered in the analyzer's pack list once
 * the engine's Pack interface is on main: `{ id: "ai-sdk", library: { packageName: "ai",
 * modules: ["ai"] }, codeFamily: "HL3", rules: AI_SDK_RULES, facts: ({ sourceFile }) => aiSdkFacts(sourceFile) }`.
 */
export const AI_SDK_RULES: readonly AiSdkRule[] = [wrapGenerateOnly, paramsRebuilt, toolLoopOneStep, oldAndNewCallbackNames, tryAroundStream];
export { aiSdkFacts } from "./facts.js";
export type { AiSdkFacts } from "./facts.js";
