export { analyzeSourceFile } from "./analyze.js";
export type { AnalysisNotice, AnalysisResult, AnalyzeOptions } from "./analyze.js";
export { AnalysisProject, ANALYZED_EXTENSIONS } from "./project.js";
export { ALL_RULES } from "./rules/index.js";
export { RuntimeResolver, RUNTIME_PACKAGE } from "./runtimeResolver.js";
export type { Finding, Rule, RuleContext, Severity } from "./types.js";
