import type { Rule } from "../types.js";
import { dormantHookPoint } from "./hl001DormantHookPoint.js";

/** Every rule, in code order. A new rule is one file in this folder plus one line here and a docs page. */
export const ALL_RULES: readonly Rule[] = [dormantHookPoint];
