import type { SourceFile, TypeChecker } from "ts-morph";
import type { HookLibrary } from "./hookLibraries.js";
import type { ModuleExports } from "./moduleExports.js";
import type { PackageNames } from "./reach/packageNames.js";
import type { Finding, Severity } from "./types.js";

/**
 * One hook library's knowledge: which modules make a file worth analysing, its rules, and the
 * facts about a file those rules share. The engine (this folder) knows no library; every library
 * is a pack in `packs/<library>/`, listed once in `packs/index.ts`. See `packs/README.md`.
 */
export interface Pack<Facts = unknown> {
  /** The pack's folder name (`hooklens`, `claude-agent-sdk`, …). */
  readonly id: string;
  /** The library's package and the module names that import it: the reach's early skip reads these. */
  readonly library: HookLibrary;
  /**
   * The first three characters every code of this pack starts with (`HL0` for the HookLens runtime,
   * `HL1` Claude Agent SDK, `HL2` OpenAI Agents, `HL3` AI SDK): a code names one rule of one pack.
   */
  readonly codeFamily: string;
  /** In code order. Each rule has a page `docs/rules/<code>.md`. */
  readonly rules: readonly Rule<Facts>[];
  /**
   * The facts this pack's rules share about one file (resolvers, registries found…). Called at most
   * once per analysed file, when the first of the pack's rules runs; keep it cheap and lazy (the
   * type checker is built only when something asks it).
   */
  facts(file: PackFile): Facts;
}

/** What a pack gets to compute a file's facts from. */
export interface PackFile {
  readonly sourceFile: SourceFile;
  /** The program's type checker; building it costs the program, so ask only for candidate nodes. */
  readonly checker: TypeChecker;
  /** The project's modules as syntax knows them (re-exports followed without the checker). */
  readonly modules: ModuleExports | undefined;
  /** Package names by folder, kept between analyses. */
  readonly packageNames: PackageNames;
  /**
   * The installed version of `packageName` as this file resolves it (the `version` of the package.json
   * of the package the module resolves into), or undefined when it does not resolve.
   */
  installedVersion(packageName: string): string | undefined;
  /**
   * The string literal members of a constant a module exports, read from its declarations through
   * the type checker (`export declare const HOOK_EVENTS: readonly ["PreToolUse", …]`, or a union of
   * string literals). Undefined when the module or the name cannot be found, or its type holds
   * anything else. Asks the checker: call it only once a file is known to need it.
   */
  exportedStrings(module: string, exportName: string): readonly string[] | undefined;
}

/** What a rule gets: the file, its pack's facts about it, and where to report. */
export interface RuleContext<Facts = unknown> {
  sourceFile: SourceFile;
  facts: Facts;
  report(finding: Omit<Finding, "code" | "severity"> & { severity?: Severity }): void;
}

/** An analyzer rule: a stable code, a default severity, its docs page and a check. */
export interface Rule<Facts = unknown> {
  /** `HL` and three digits, in its pack's family; the docs page is `docs/rules/<code>.md`. */
  code: string;
  /** Kebab-case name, shown next to the code. */
  name: string;
  defaultSeverity: Severity;
  /** One sentence: what the rule protects against (the hover and SARIF show it). */
  summary: string;
  /** Reports findings through `context.report`; a finding's `fix` is its quick fix. */
  check(context: RuleContext<Facts>): void;
}
