import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import type { Finding } from "../../server/src/analyzer/index.js";
import { createFixture, type Fixture } from "./fixtureProject.js";
import { createSharedFixture } from "./sharedFixture.js";

type RuntimeMode = "resolved" | "missing";

/**
 * One fixture folder and one AnalysisProject per runtime mode, shared by every case of every test
 * file a worker runs (the analyzer suites run without isolation, see vitest.config.mts). Building
 * a project and loading the runtime's sources into the type checker is what made
 * one-project-per-case, then one-per-file, slow; each case still gets files of its own, in a folder
 * no earlier case used, so nothing leaks between cases. The folders are removed once the worker
 * has ended (sharedFixture.ts).
 */
interface SharedProject {
  fixture: Fixture;
  project: AnalysisProject;
  cases: number;
}

const shared = new Map<RuntimeMode, SharedProject>();

/** What the current case wrote, so the next case (or disposeFixture) can take it away again. */
interface CurrentCase {
  project: AnalysisProject;
  files: string[];
  dir: string;
  /** A case with a tsconfig of its own gets a project of its own, disposed with it. */
  own?: Fixture;
}

let current: CurrentCase | undefined;

export type FindingWithText = Finding & { text: string };

/** Analyses `main.ts` (plus extra files) in a fresh fixture folder; each finding carries the text it covers. */
export function analyzeFixture(mainSource: string, options: { runtime?: RuntimeMode; extra?: Record<string, string> } = {}): FindingWithText[] {
  disposeFixture();
  const extra = options.extra ?? {};
  const runtime = options.runtime ?? "resolved";
  // A case with a tsconfig of its own needs a project of its own: a project reads its tsconfig once.
  const own = "tsconfig.json" in extra ? createFixture(runtime) : undefined;
  const entry = own ? undefined : sharedProject(runtime);
  const dir = own ? own.dir : join(entry!.fixture.dir, `case-${++entry!.cases}`);
  const files: string[] = [];
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push(path);
    return path;
  };
  for (const [name, text] of Object.entries(extra)) write(name, text);
  const main = write("main.ts", mainSource);
  const project = own ? new AnalysisProject(own.dir) : entry!.project;
  current = { project, files, dir, ...(own && { own }) };
  const { findings, failures } = project.analyze(main);
  expect(failures).toEqual([]);
  expectHeadlineFormat(findings);
  return findings.map((f) => ({ ...f, text: mainSource.slice(f.start, f.end) }));
}

/** Every finding must carry a short headline (at most 100 characters) and an explanation for the hover. */
export function expectHeadlineFormat(findings: readonly Finding[]): void {
  for (const { code, message, explanation } of findings) {
    expect(message.length, `${code} headline over 100 characters: ${message}`).toBeLessThanOrEqual(100);
    expect(explanation?.trim(), `${code} finding without an explanation: ${message}`).toBeTruthy();
  }
}

/** Takes the current case's files away (its folder, and its sources from the shared project). */
export function disposeFixture(): void {
  if (!current) return;
  if (current.own) current.own.dispose();
  else {
    for (const file of current.files) current.project.remove(file);
    rmSync(current.dir, { recursive: true, force: true });
  }
  current = undefined;
}

function sharedProject(runtime: RuntimeMode): SharedProject {
  let entry = shared.get(runtime);
  if (!entry) {
    const fixture = createSharedFixture(runtime);
    entry = { fixture, project: new AnalysisProject(fixture.dir), cases: 0 };
    shared.set(runtime, entry);
  }
  return entry;
}

/** The source after applying a finding's quick fix. */
export function applyFix(source: string, finding: Finding): string {
  if (!finding.fix) throw new Error(`${finding.code} offers no fix`);
  return [...finding.fix.edits].sort((a, b) => b.start - a.start).reduce((text, edit) => text.slice(0, edit.start) + edit.newText + text.slice(edit.end), source);
}
