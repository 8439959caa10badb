import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../helpers/bundleServer.js";
import { REPO_ROOT, createFixture, type Fixture } from "../../helpers/fixtureProject.js";

let cli: string;
let fixture: Fixture;

const DORMANT = `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`;

beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture("missing");
  // A tsconfig that is not the folder's default: only it maps the runtime, and it leaves out legacy/.
  writeFileSync(fixture.path("tsconfig.lib.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true, paths: { "@hooklens/runtime": [join(REPO_ROOT, "runtime/src/index.ts")] } },
    include: ["lib"],
  }));
  fixture.write("lib/dormant.ts", DORMANT);
  fixture.write("lib/types.d.ts", `export declare const x: number;\n`);
  fixture.write("legacy/dormant.ts", DORMANT);
  fixture.write("configured/hooklens.config.json", JSON.stringify({ rules: { HL001: "error" } }));
  fixture.write("configured/dormant.ts", DORMANT);
  fixture.write("configured/quiet/hooklens.config.json", JSON.stringify({ rules: { HL001: "off" } }));
  fixture.write("configured/quiet/dormant.ts", DORMANT);
  fixture.write("wrong/hooklens.config.json", JSON.stringify({ rules: { HL001: "loud" } }));
  fixture.write("wrong/dormant.ts", DORMANT);
}, 120_000);
afterAll(() => fixture.dispose());

const hooklens = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });

describe("hooklens check --project", { timeout: 120_000 }, () => {
  it("checks the files the tsconfig includes, with its options", () => {
    const { status, stdout } = hooklens(fixture.dir, "check", "--project", "tsconfig.lib.json", "--format", "json");
    const reports = JSON.parse(stdout) as { file: string; findings: { code: string }[]; notices: unknown[] }[];
    // Its paths mapping resolves the runtime (the folder's own tsconfig does not), and legacy/ and .d.ts files are left out.
    expect(reports.map((r) => r.file)).toEqual([fixture.path("lib/dormant.ts")]);
    expect(reports[0]!.notices).toEqual([]);
    expect(reports[0]!.findings.map((f) => f.code)).toEqual(["HL001"]);
    expect(status).toBe(1);
  });

  it("exits 2 naming a tsconfig that does not exist", () => {
    const { status, stderr } = hooklens(fixture.dir, "check", "--project", "nope.json");
    expect(stderr).toContain("--project: no such tsconfig: nope.json");
    expect(status).toBe(2);
  });
});

describe("hooklens.config.json", { timeout: 120_000 }, () => {
  it("the nearest config file above each file sets its rules' levels", () => {
    const { stdout } = hooklens(fixture.dir, "check", "configured", "--allow-incomplete");
    expect(stdout).toContain("configured/dormant.ts:2:23  error  HookPoint.API_STREAM_CHUNK");
    expect(stdout).not.toContain("configured/quiet/dormant.ts:2");
  });

  it("a file with no config above it takes the one nearest the working folder", () => {
    const { stdout } = hooklens(fixture.path("configured/quiet"), "check", fixture.path("legacy/dormant.ts"), "--allow-incomplete");
    expect(stdout).not.toContain("HL001");
    expect(stdout).toMatch(/^0 problems in 1 file/m);
  });

  it("a wrong value is an error naming the file and the key, before anything is checked", () => {
    const { status, stdout, stderr } = hooklens(fixture.dir, "check", "wrong");
    expect(stderr).toContain(`${fixture.path("wrong/hooklens.config.json")}: rules.HL001: "HL001" must be one of error, warning, information, hint, off, got "loud"`);
    expect(stdout).toBe("");
    expect(status).toBe(2);
  });
});
