import { afterEach, describe, expect, it } from "vitest";
import { analyzeSourceFile } from "../../server/src/analyzer/analyze.js";
import { AnalysisProject } from "../../server/src/analyzer/project.js";
import { dormantHookPoint } from "../../server/src/analyzer/rules/hl001DormantHookPoint.js";
import type { Rule } from "../../server/src/analyzer/types.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());

describe("analyzer robustness", () => {
  it("records a throwing rule as a failure and keeps the other rules' findings", () => {
    fixture = createFixture();
    const file = fixture.write("main.ts", `import { hook } from "@hooklens/runtime";\nhook("api.pre_call")(() => 1);\n`);
    const project = new AnalysisProject(fixture.dir);
    const exploding: Rule = { code: "HL999", name: "explodes", defaultSeverity: "error", summary: "", check: () => { throw new Error("rule bug"); } };
    const result = project.analyze(file, { rules: [exploding, dormantHookPoint] });
    expect(result.failures.map((f) => f.code)).toEqual(["HL999"]);
    expect(result.findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("stops between rules once cancelled", () => {
    fixture = createFixture();
    const project = new AnalysisProject(fixture.dir);
    const file = project.setText(fixture.path("main.ts"), `import { hook } from "@hooklens/runtime";\nhook("api.pre_call");\n`);
    expect(analyzeSourceFile(file, { isCancelled: () => true }).findings).toEqual([]);
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
