import type { SourceFile } from "ts-morph";
import type { AnalysisResult } from "./analysisResult.js";
import { HookLibraries } from "./hookLibraries.js";
import type { ModuleExports } from "./moduleExports.js";
import { noticesFor } from "./notices.js";
import type { Pack, Rule } from "./pack.js";
import { packFile } from "./packFile.js";
import { PackageNames } from "./reach/packageNames.js";
import { removeSuppressed } from "./suppressions.js";
import type { Finding } from "./types.js";

export type { AnalysisNotice, AnalysisResult } from "./analysisResult.js";

export interface AnalyzeOptions {
  /** Only these of the packs' rules run (the CLI leaves out rules configured off); all when absent. */
  rules?: readonly Rule[];
  /** Checked between rules; a true value stops early (the caller has a newer version). */
  isCancelled?: () => boolean;
  /** The project's modules as syntax knows them, so re-exports of a hook library are followed without the checker. */
  modules?: ModuleExports;
  /** Package names by folder, kept between analyses (each analysis looks them up on disk otherwise). */
  packageNames?: PackageNames;
}

/**
 * Runs the packs' rules over one file. Static only: nothing from the user's code is ever executed.
 * A rule that throws is recorded as a failure and the others still run. A pack's facts about the
 * file are made when its first rule runs, once.
 */
export function analyzeSourceFile(sourceFile: SourceFile, packs: readonly Pack[], options: AnalyzeOptions = {}): AnalysisResult {
  const packageNames = options.packageNames ?? new PackageNames();
  const file = packFile(sourceFile, options.modules, packageNames);
  const findings: Finding[] = [];
  const failures: AnalysisResult["failures"] = [];
  const length = sourceFile.getEnd();
  const factsByPack = new Map<Pack<unknown>, unknown>();
  const factsOf = (pack: Pack<unknown>): unknown => {
    if (!factsByPack.has(pack)) factsByPack.set(pack, pack.facts(file));
    return factsByPack.get(pack);
  };
  for (const { pack, rule } of rulesToRun(packs, options.rules)) {
    if (options.isCancelled?.()) break;
    try {
      rule.check({
        sourceFile,
        facts: factsOf(pack),
        report: ({ severity, ...rest }) => {
          // Offsets past the end come from a node of another module: the rule fails (and says so) rather than the analysis.
          if (rest.start < 0 || rest.start > rest.end || rest.end > length) throw new RangeError(`${rule.code} reported ${rest.start}–${rest.end}, outside the file (0–${length})`);
          findings.push({ code: rule.code, severity: severity ?? rule.defaultSeverity, ...rest });
        },
      });
    } catch (error) {
      failures.push({ code: rule.code, error });
    }
  }
  findings.sort((a, b) => a.start - b.start || a.code.localeCompare(b.code));
  const libraries = new HookLibraries(packs.map((pack) => pack.library));
  // Applied here, once, so the editor and the CLI honour the same hooklens-disable comments.
  return { findings: removeSuppressed(findings, sourceFile.compilerNode), failures, notices: noticesFor(sourceFile, failures, { libraries, modules: options.modules, packageNames }) };
}

/** Every pack's rules in pack order, or only those `only` lists. */
function rulesToRun(packs: readonly Pack<unknown>[], only: readonly Rule<unknown>[] | undefined): { pack: Pack<unknown>; rule: Rule<unknown> }[] {
  return packs.flatMap((pack) => pack.rules.filter((rule) => !only || only.includes(rule)).map((rule) => ({ pack, rule })));
}
