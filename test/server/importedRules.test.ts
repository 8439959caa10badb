import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";
import { MAINS, MODULES } from "./importCorpus.js";
import { programBuilt } from "../../server/src/analyzer/engine/tsMorphInternals.js";

type Mode = "resolved" | "loose" | "missing";

/** The corpus in one folder per mode (`loose`: the runtime resolved, strict off, where literal returns widen differently). */
const fixtures = new Map<Mode, Fixture>();
function fixtureFor(mode: Mode): Fixture {
  let fixture = fixtures.get(mode);
  if (!fixture) {
    fixture = createFixture(mode === "missing" ? "missing" : "resolved");
    for (const [path, text] of Object.entries(MODULES)) fixture.write(path, text);
    for (const [name, text] of Object.entries(MAINS)) fixture.write(`${name}.ts`, text);
    if (mode === "loose") {
      const tsconfig = fixture.path("tsconfig.json");
      const { compilerOptions } = JSON.parse(readFileSync(tsconfig, "utf8")) as { compilerOptions: Record<string, unknown> };
      writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { ...compilerOptions, strict: false } }));
    }
    fixtures.set(mode, fixture);
  }
  return fixture;
}
afterAll(() => {
  for (const fixture of fixtures.values()) fixture.dispose();
});

/** Every finding of a hook module, as the editor shows it. */
function findings(project: AnalysisProject, path: string): string[] {
  const result = project.analyze(path);
  expect(result.failures).toEqual([]);
  return result.findings.map((f) => `${f.code} ${f.start}-${f.end} ${f.message}${f.fix ? ` [fix: ${JSON.stringify(f.fix.edits)}]` : ""}`);
}

describe("each rule reports the same with imports followed by syntax as with the checker alone", () => {
  const cases = (["resolved", "loose", "missing"] as const).flatMap((mode) => Object.keys(MAINS).map((name) => [mode, name] as const));
  it.each(cases)("%s: %s", (mode, name) => {
    const fixture = fixtureFor(mode);
    const path = fixture.path(`${name}.ts`);
    const bySyntax = findings(new AnalysisProject(fixture.dir), path);
    const byChecker = findings(new AnalysisProject(fixture.dir, { followImports: false }), path);
    expect(bySyntax).toEqual(byChecker);
    if (mode !== "missing" && name !== "sharedNarrowed") expect(bySyntax.length).toBeGreaterThan(0);
  });

  it("analyses the common hook module, handlers and bus imported from siblings, without a program", () => {
    const fixture = fixtureFor("resolved");
    const path = fixture.path("common.ts");
    const project = new AnalysisProject(fixture.dir);
    const file = project.setText(path, MAINS["common"]!);
    const codes = project.analyze(path).findings.map((f) => f.code);
    expect(codes).toEqual(["HL001", "HL004", "HL004", "HL004", "HL010", "HL014"]);
    expect(programBuilt(file.getProject())).toBe(false);
    // The checker, asked afterwards, agrees (and its program holds the same trees syntax read).
    expect(findings(new AnalysisProject(fixture.dir, { followImports: false }), path).map((f) => f.slice(0, 5))).toEqual(codes);
  });
});
