import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { bundleServer } from "../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

// One project for every case (each case is its own file in it), so the type checker starts once.
let fixture: Fixture;
let project: AnalysisProject;
let cases = 0;
beforeAll(() => {
  fixture = createFixture();
  project = new AnalysisProject(fixture.dir);
});
afterAll(() => fixture.dispose());

const IMPORTS = `import { HookBus, HookPoint, HookRegistry } from "@hooklens/runtime";\nconst bus = new HookBus();\n`;
// One HL001 (dormant point) and one HL003 (one-parameter stream handler) per line, by line content.
const HL001 = `bus.on(HookPoint.API_PRE_CALL, () => undefined);`;
const HL001_B = `bus.on(HookPoint.ARTIFACT_CREATED, () => undefined);`;
const HL003 = `new HookRegistry({ streamHandlers: { text: (chunk: unknown) => chunk } });`;

/** The codes found, each with the text it covers, for a file made of IMPORTS and `lines`. */
function findings(...lines: string[]): string[] {
  const text = IMPORTS + lines.join("\n") + "\n";
  const path = fixture.path(`case${++cases}.ts`);
  project.setText(path, text);
  const result = project.analyze(path);
  expect(result.failures).toEqual([]);
  return result.findings.map((f) => `${f.code} ${text.slice(f.start, f.end)}`);
}

describe("hooklens-disable comments, in the analyzer (so the editor and the CLI agree)", () => {
  it("finds both traps when nothing is disabled (the baseline the other cases silence)", () => {
    expect(findings(HL001, HL003)).toEqual(["HL001 HookPoint.API_PRE_CALL", "HL003 chunk: unknown"]);
  });

  it.each([
    ["a named code silences that code on the next line only", ["// hooklens-disable-next-line HL001", HL001, HL001_B], ["HL001 HookPoint.ARTIFACT_CREATED"]],
    ["a code list (commas or spaces) names several rules", ["// hooklens-disable-next-line HL003, HL001", HL001], []],
    ["no code silences every rule on the next line", ["// hooklens-disable-next-line", HL001], []],
    ["another rule's code leaves the finding alone", ["// hooklens-disable-next-line HL003", HL001], ["HL001 HookPoint.API_PRE_CALL"]],
    ["a reason after -- is not read as a code", ["// hooklens-disable-next-line HL001 -- the model's hooks cover this", HL001], []],
    ["the block-comment form works for the next line too", ["/* hooklens-disable-next-line HL001 */", HL001], []],
    ["disable-line silences the comment's own line", [`${HL001} // hooklens-disable-line HL001`, HL001_B], ["HL001 HookPoint.ARTIFACT_CREATED"]],
    ["an indented comment counts like any other", ["if (bus) {", "  // hooklens-disable-next-line HL001", `  ${HL001}`, "}"], []],
  ])("next-line / line: %s", (_reason, lines, expected) => {
    expect(findings(...lines)).toEqual(expected);
  });

  it.each([
    ["a disable at the top silences the code in the whole file", ["/* hooklens-disable HL001 */", HL001, HL003, HL001_B], ["HL003 chunk: unknown"]],
    ["a disable applies from where it stands on, as in ESLint", [HL001, "/* hooklens-disable HL001 */", HL001_B], ["HL001 HookPoint.API_PRE_CALL"]],
    ["an enable naming the code ends the disabled stretch", ["/* hooklens-disable HL001 */", HL001, "/* hooklens-enable HL001 */", HL001_B], ["HL001 HookPoint.ARTIFACT_CREATED"]],
    ["disabling everything, then enabling one code, keeps the others off", ["/* hooklens-disable */", HL003, "/* hooklens-enable HL001 */", HL001, HL003], ["HL001 HookPoint.API_PRE_CALL"]],
    ["an enable without codes ends every disable", ["/* hooklens-disable HL001, HL003 */", HL001, "/* hooklens-enable */", HL003], ["HL003 chunk: unknown"]],
    ["the line-comment form of disable also works", ["// hooklens-disable HL003", HL003, HL001], ["HL001 HookPoint.API_PRE_CALL"]],
    ["a JSDoc-style comment before a statement counts", ["/** hooklens-disable HL001 */", HL001], []],
  ])("file-wide: %s", (_reason, lines, expected) => {
    expect(findings(...lines)).toEqual(expected);
  });

  it.each([
    ["the directive inside a string literal", [`const note = "// hooklens-disable-next-line HL001";`, HL001]],
    ["the directive inside a template literal", ["const note = `", "/* hooklens-disable */ ${1}`;", HL001]],
    ["a comment that merely mentions the directive", ["// see hooklens-disable-next-line in the docs", HL001]],
    ["a misspelt directive", ["// hooklens-disable-next-lines HL001", HL001]],
    ["a next-line comment two lines above", ["// hooklens-disable-next-line HL001", "", HL001]],
  ])("does not silence anything for %s", (_reason, lines) => {
    expect(findings(...lines)).toEqual(["HL001 HookPoint.API_PRE_CALL"]);
  });

  it("is honoured by `hooklens check`", async () => {
    const { cli } = await bundleServer();
    const project = createFixture();
    try {
      project.write("src/quiet.ts", `${IMPORTS}// hooklens-disable-next-line HL001 -- reviewed\n${HL001}\n`);
      project.write("src/loud.ts", `${IMPORTS}${HL001}\n`);
      const { stdout, status } = spawnSync(process.execPath, [cli, "check", "src", "--format", "json"], { cwd: project.dir, encoding: "utf8" });
      const reports = JSON.parse(stdout) as { file: string; findings: { code: string }[] }[];
      const byFile = Object.fromEntries(reports.map((r) => [r.file.replace(/^.*\//, ""), r.findings.map((f) => f.code)]));
      expect(byFile).toEqual({ "quiet.ts": [], "loud.ts": ["HL001"] });
      expect(status).toBe(1);
    } finally {
      project.dispose();
    }
  });
});
