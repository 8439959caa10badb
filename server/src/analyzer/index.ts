// The analyzer as the server and the CLI use it: the engine with every pack.
export type { AnalysisNotice, AnalysisResult } from "./engine/analysisResult.js";
export type { AnalyzeOptions } from "./engine/analyze.js";
export type { Pack, PackFile, Rule, RuleContext } from "./engine/pack.js";
export type { Finding, Fix, RelatedPlace, Severity } from "./engine/types.js";
export { ANALYZED_EXTENSIONS, type ProjectStats } from "./engine/project.js";
export { AnalysisProject } from "./analysisProject.js";
export { ALL_RULES, PACKS } from "./packs/index.js";
