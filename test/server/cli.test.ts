import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let cli: string;
let fixture: Fixture;

// Every test runs the bundled CLI as a child process; each run pays TypeScript's cold start.
beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture();
  fixture.write("src/dormant.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`);
  fixture.write("src/clean.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("tool.post")(() => 1);\n`);
  fixture.write("node_modules/ignored/index.ts", `import { hook } from "@hooklens/runtime";\nhook("api.pre_call");\n`);
}, 120_000);
afterAll(() => fixture.dispose());

const hooklens = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: fixture.dir, encoding: "utf8" });

describe("hooklens --version and --help", () => {
  it("prints the version, and the usage with exit 0 when asked for it", () => {
    const version = hooklens("--version");
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.status).toBe(0);
    expect(hooklens("-v").stdout).toBe(version.stdout);
    const help = hooklens("--help");
    expect(help.stdout).toContain("Usage: hooklens check");
    expect(help.status).toBe(0);
  });
});

describe("hooklens check", { timeout: 120_000 }, () => {
  it("prints file:line:col, severity, message and code, and exits 1 when it finds a problem", () => {
    const { status, stdout } = hooklens("check", "src");
    expect(stdout).toContain("src/dormant.ts:2:23  warning  HookPoint.API_STREAM_CHUNK");
    expect(stdout).toContain("HL001");
    expect(stdout).toMatch(/^1 problem \(0 errors, 1 warning\) in 1 of 2 files \(\d+(\.\d+)? m?s\)\.$/m);
    expect(status).toBe(1);
  });

  it("skips node_modules and exits 0 for clean files", () => {
    const { status, stdout } = hooklens("check", "src/clean.ts");
    expect(stdout).toMatch(/^No problems in 1 file \(.+\)\.$/m);
    expect(status).toBe(0);
    expect(hooklens("check").stdout).not.toContain("ignored");
  });

  it("emits a JSON array of file reports with positions and the docs link", () => {
    const { stdout } = hooklens("check", "src", "--format", "json");
    const reports = JSON.parse(stdout) as { file: string; findings: { code: string; line: number; column: number; docs: string }[]; notices: unknown[] }[];
    expect(reports.map((r) => r.notices)).toEqual([[], []]);
    const finding = reports.flatMap((r) => r.findings)[0]!;
    expect(finding).toMatchObject({ code: "HL001", line: 2, column: 23 });
    expect(finding.docs).toMatch(/docs\/rules\/HL001\.md$/);
  });

  it("tolerates warnings up to --max-warnings", () => {
    expect(hooklens("check", "src", "--max-warnings", "1").status).toBe(0);
  });

  it("exits 2 with a specific message for bad usage and missing paths", () => {
    const badFormat = hooklens("check", "--format", "xml");
    expect(badFormat.status).toBe(2);
    expect(badFormat.stderr).toContain('--format must be "text", "json" or "sarif"');
    const unknown = hooklens("lint");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command "lint"');
    const missing = hooklens("check", "no/such/dir");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("no such file or directory: no/such/dir");
  });
});
