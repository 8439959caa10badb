import type { Rule } from "../facts.js";
import { dormantHookPoint } from "./hl001DormantHookPoint.js";
import { unwiredErrorHandler } from "./hl002UnwiredErrorHandler.js";
import { streamHandlerArity } from "./hl003StreamHandlerArity.js";
import { postHookDictOnly } from "./hl004PostHookDictOnly.js";
import { branchBeforeBus } from "./hl005BranchBeforeBus.js";
import { toolPreTransform } from "./hl006ToolPreTransform.js";
import { toolPreStopHook } from "./hl007ToolPreStopHook.js";
import { unknownHookPoint } from "./hl008UnknownHookPoint.js";
import { servicePhaseOverwritten } from "./hl009ServicePhaseOverwritten.js";
import { preCreateReturnIgnored } from "./hl010PreCreateReturnIgnored.js";
import { serviceHookReturnsError } from "./hl011ServiceHookReturnsError.js";
import { unregisteredHookMarker } from "./hl012UnregisteredHookMarker.js";
import { toolkitAliasKey } from "./hl013ToolkitAliasKey.js";
import { guardrailCheckReturn } from "./hl014GuardrailCheckReturn.js";
import { approvalRerunsBeforeTool } from "./hl015ApprovalRerunsBeforeTool.js";

/** The pack's rules, in code order. A new rule is one file in this folder plus one line here and a docs page. */
export const HOOKLENS_RULES: readonly Rule[] = [
  dormantHookPoint,
  unwiredErrorHandler,
  streamHandlerArity,
  postHookDictOnly,
  branchBeforeBus,
  toolPreTransform,
  toolPreStopHook,
  unknownHookPoint,
  servicePhaseOverwritten,
  preCreateReturnIgnored,
  serviceHookReturnsError,
  unregisteredHookMarker,
  toolkitAliasKey,
  guardrailCheckReturn,
  approvalRerunsBeforeTool,
];
