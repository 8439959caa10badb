import { afterEach, describe, expect, it } from "vitest";
import { analyzeSourceFile } from "../../server/src/analyzer/engine/analyze.js";
import { AnalysisProject, PACKS } from "../../server/src/analyzer/index.js";
import { hookLensPack } from "../../server/src/analyzer/packs/hooklens/index.js";
import { dormantHookPoint } from "../../server/src/analyzer/packs/hooklens/rules/hl001DormantHookPoint.js";
import type { Rule } from "../../server/src/analyzer/packs/hooklens/facts.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());

describe("analyzer robustness", () => {
  it("records a throwing rule as a failure and keeps the other rules' findings", () => {
    fixture = createFixture();
    const file = fixture.write("main.ts", `import { hook } from "@hooklens/runtime";\nhook("api.pre_call")(() => 1);\n`);
    const exploding: Rule = { code: "HL999", name: "explodes", defaultSeverity: "error", summary: "", check: () => { throw new Error("rule bug"); } };
    const project = new AnalysisProject(fixture.dir, { packs: [{ ...hookLensPack, rules: [exploding, dormantHookPoint] }] });
    const result = project.analyze(file);
    expect(result.failures.map((f) => f.code)).toEqual(["HL999"]);
    expect(result.findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("stops between rules once cancelled", () => {
    fixture = createFixture();
    const project = new AnalysisProject(fixture.dir);
    const file = project.setText(fixture.path("main.ts"), `import { hook } from "@hooklens/runtime";\nhook("api.pre_call");\n`);
    expect(analyzeSourceFile(file, PACKS, { isCancelled: () => true }).findings).toEqual([]);
  });

  it("analyses the edited buffer, not the file on disk", () => {
    fixture = createFixture();
    const path = fixture.write("main.ts", `export {};\n`);
    const project = new AnalysisProject(fixture.dir);
    expect(project.analyze(path).findings).toEqual([]);
    project.setText(path, `import { hook } from "@hooklens/runtime";\nhook("artifact.created");\n`);
    expect(project.analyze(path).findings.map((f) => f.code)).toEqual(["HL001"]);
  });
});
