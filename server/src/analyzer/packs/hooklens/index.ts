import type { Pack } from "../../engine/pack.js";
import { hookLensFacts, type HookLensFacts } from "./facts.js";
import { HOOKLENS_RULES } from "./rules/index.js";
import { RUNTIME_PACKAGE } from "./runtimePackage.js";

/** The HookLens runtime (`@hooklens/runtime`): rules HL001–HL099. */
export const hookLensPack: Pack<HookLensFacts> = {
  id: "hooklens",
  library: { packageName: RUNTIME_PACKAGE, modules: [RUNTIME_PACKAGE] },
  codeFamily: "HL0",
  rules: HOOKLENS_RULES,
  facts: hookLensFacts,
};
