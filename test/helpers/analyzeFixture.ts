import { expect } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/project.js";
import type { Finding } from "../../server/src/analyzer/types.js";
import { createFixture, type Fixture } from "./fixtureProject.js";

let current: Fixture | undefined;

export type FindingWithText = Finding & { text: string };

/** Analyses `main.ts` (plus extra files) in a fresh fixture folder; each finding carries the text it covers. */
export function analyzeFixture(mainSource: string, options: { runtime?: "resolved" | "missing"; extra?: Record<string, string> } = {}): FindingWithText[] {
  disposeFixture();
  current = createFixture(options.runtime);
  for (const [name, text] of Object.entries(options.extra ?? {})) current.write(name, text);
  const main = current.write("main.ts", mainSource);
  const { findings, failures } = new AnalysisProject(current.dir).analyze(main);
  expect(failures).toEqual([]);
  return findings.map((f) => ({ ...f, text: mainSource.slice(f.start, f.end) }));
}

export function disposeFixture(): void {
  current?.dispose();
  current = undefined;
}

/** The source after applying a finding's quick fix. */
export function applyFix(source: string, finding: Finding): string {
  if (!finding.fix) throw new Error(`${finding.code} offers no fix`);
  return [...finding.fix.edits].sort((a, b) => b.start - a.start).reduce((text, edit) => text.slice(0, edit.start) + edit.newText + text.slice(edit.end), source);
}
