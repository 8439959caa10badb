import { basename } from "node:path";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { analysisLib } from "../../server/src/analyzer/engine/analysisLib.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { createFixture } from "../helpers/fixtureProject.js";

const fixture = createFixture();
afterAll(() => fixture.dispose());

describe("the standard library the analyzer checks with", () => {
  it("is the target's ES library without the DOM when the tsconfig names no lib", () => {
    expect(analysisLib({ target: ts.ScriptTarget.ES2022 })).toEqual(["lib.es2022.d.ts"]);
    expect(analysisLib({ target: ts.ScriptTarget.ESNext })).toEqual(["lib.esnext.d.ts"]);
    expect(analysisLib({ target: ts.ScriptTarget.ES5 })).toEqual(["lib.es5.d.ts"]);
  });

  it("is the tsconfig's own when it names one (the DOM too, if listed), and nothing with noLib", () => {
    expect(analysisLib({ lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] })).toBeUndefined();
    expect(analysisLib({ noLib: true })).toBeUndefined();
  });

  it("keeps lib.dom.d.ts out of the program of a project whose tsconfig names no lib, and the runtime's types in", () => {
    const file = fixture.write("agent.ts", 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n');
    const project = new AnalysisProject(fixture.dir);
    expect(project.analyze(file).findings.map((f) => f.code)).toEqual(["HL001"]);
    const loaded = project.setText(file, "").getProject().getProgram().compilerObject.getSourceFiles().map((f) => basename(f.fileName));
    expect(loaded).toContain("lib.es2022.d.ts");
    expect(loaded).not.toContain("lib.dom.d.ts");
  });
});
