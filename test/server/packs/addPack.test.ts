import { afterEach, describe, expect, it } from "vitest";
import { AnalysisProject, PACKS } from "../../../server/src/analyzer/index.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";
import { hookkitPack } from "./hookkitPack.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());

/** A workspace with hookkit 2.4.1 installed, as an SDK would be. */
function withHookkit(): Fixture {
  const made = createFixture();
  made.write("node_modules/hookkit/package.json", JSON.stringify({ name: "hookkit", version: "2.4.1", types: "index.d.ts" }));
  made.write(
    "node_modules/hookkit/index.d.ts",
    `export declare const HOOK_EVENTS: readonly ["PreToolUse", "PostToolUse"];\nexport declare function on(event: string, handler: () => void): void;\n`,
  );
  return made;
}

// The first analysis pays the cold start (TypeScript's library files), which a loaded machine stretches.
describe("a pack added without touching the engine", { timeout: 120_000 }, () => {
  it("runs its rule through the real engine, with the installed version and a table read from the package's declarations", () => {
    fixture = withHookkit();
    const file = fixture.write("agent.ts", `import { on as listen } from "hookkit";\nlisten("PreToolUse", () => {});\nlisten("PreToolUze", () => {});\n`);
    const project = new AnalysisProject(fixture.dir, { packs: [hookkitPack] });
    const { findings, notices, failures } = project.analyze(file);
    expect(failures).toEqual([]);
    expect(notices).toEqual([]);
    expect(findings.map((f) => [f.code, f.severity, f.message])).toEqual([["HL901", "warning", 'hookkit 2.4.1 has no event "PreToolUze"']]);
    expect(project.stats.checkedAnalyses).toBe(1);
  });

  it("keeps the early skip: a file that imports no pack's module costs no program", () => {
    fixture = withHookkit();
    const file = fixture.write("plain.ts", `import { readFileSync } from "node:fs";\nexport const on = (event: string) => readFileSync(event);\non("PreToolUze");\n`);
    const project = new AnalysisProject(fixture.dir, { packs: [hookkitPack] });
    expect(project.analyze(file).findings).toEqual([]);
    expect(project.stats).toMatchObject({ checkedAnalyses: 0, skippedAnalyses: 1 });
  });

  it("runs beside the shipped packs, each finding in its own code family, suppressed by the same comments", () => {
    fixture = withHookkit();
    const text = [
      `import { hook } from "@hooklens/runtime";`,
      `import { on } from "hookkit";`,
      `export const h = hook("api.pre_call")(() => 1);`,
      `on("Stop", () => {});`,
      `// hooklens-disable-next-line HL901`,
      `on("Start", () => {});`,
      ``,
    ].join("\n");
    const file = fixture.write("both.ts", text);
    const project = new AnalysisProject(fixture.dir, { packs: [...PACKS, hookkitPack] });
    expect(project.analyze(file).findings.map((f) => f.code)).toEqual(["HL001", "HL901"]);
  });

  it("reports nothing when the library is not installed (no table to compare with), and says the import does not resolve", () => {
    fixture = createFixture();
    const file = fixture.write("agent.ts", `import { on } from "hookkit";\non("PreToolUze", () => {});\n`);
    const result = new AnalysisProject(fixture.dir, { packs: [hookkitPack] }).analyze(file);
    expect(result.findings).toEqual([]);
    expect(result.notices.map((n) => n.kind)).toEqual(["runtime-unresolved"]);
  });
});
