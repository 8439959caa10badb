import type { PackFile, Rule as EngineRule, RuleContext as EngineRuleContext } from "../../engine/pack.js";
import { RuntimeResolver } from "./runtimeResolver.js";

/** What the HookLens runtime's rules share about one file: the resolver that tells the runtime's exports from look-alikes. */
export interface HookLensFacts {
  runtime: RuntimeResolver;
}

export type RuleContext = EngineRuleContext<HookLensFacts>;
export type Rule = EngineRule<HookLensFacts>;

export function hookLensFacts(file: PackFile): HookLensFacts {
  return { runtime: new RuntimeResolver(file.checker, { modules: file.modules }, file.packageNames) };
}
