import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";

let cli: string;
let fixture: Fixture;
let missingRuntime: Fixture;

const DORMANT = `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`;
const CLEAN = `import { hook } from "@hooklens/runtime";\nexport const h = hook("tool.post")(() => 1);\n`;

beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture();
  fixture.write("src/dormant.ts", DORMANT);
  fixture.write("src/clean.ts", CLEAN);
  // 2,000 nested parentheses overflow TypeScript's recursive parser.
  fixture.write("deep/nested.ts", `export const x = ${"(".repeat(2000)}1${")".repeat(2000)};\n`);
  fixture.write("deep/dormant.ts", DORMANT);
  fixture.write("broken/syntax.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("tool.post")(() => 1) +;\n`);
  fixture.write("plain/broken.ts", `export function add(a: number, b: number) {\n  return a + ;\n}\n`);
  // As while typing: a new `import {` inside an import list.
  fixture.write("typing/unfinished.ts", `import {\n  HookBus,\nimport {\n  HookPoint,\n} from "@hooklens/runtime";\nconst bus = new HookBus();\nbus.on(HookPoint.API_PRE_CALL, () => 1);\n`);
  fixture.write("other/component.vue", `<template><div /></template>\n`);
  missingRuntime = createFixture("missing");
  missingRuntime.write("uses.ts", CLEAN);
}, 120_000);
afterAll(() => {
  fixture.dispose();
  missingRuntime.dispose();
});

const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
const hooklens = (...args: string[]) => run(fixture.dir, ...args);

describe("hooklens check says when it could not look", { timeout: 120_000 }, () => {
  it("a file the parser cannot handle is reported and the other files' findings still come out", () => {
    const { status, stdout, stderr } = hooklens("check", "deep");
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^deep\/nested\.ts:1:1 {2}incomplete {2}Not analysed: the file could not be parsed .*RangeError: Maximum call stack size exceeded/m);
    expect(stdout).toContain("deep/dormant.ts:2:23  warning");
    expect(stdout).toContain('1 of them not fully analysed (the lines marked "incomplete")');
    expect(status).toBe(1);
  });

  it("a file with syntax errors is reported as such, never as 'No problems', and exits 3", () => {
    const { status, stdout } = hooklens("check", "broken");
    expect(stdout).toMatch(/^broken\/syntax\.ts:1:1 {2}incomplete {2}Not fully analysed: a syntax error \(line 2: Expression expected\.\)/m);
    expect(stdout).not.toContain("No problems");
    expect(stdout).toMatch(/^0 problems in 1 file \(.+\); 1 of them not fully analysed .*--allow-incomplete accepts that\.$/m);
    expect(status).toBe(3);
  });

  it("a file without a runtime import that has a syntax error is reported too, at the error, and exits 3", () => {
    const { status, stdout } = hooklens("check", "plain");
    expect(stdout).toMatch(/^plain\/broken\.ts:2:14 {2}incomplete {2}Not fully analysed: a syntax error \(line 2: Expression expected\.\)/m);
    expect(status).toBe(3);
  });

  it("--allow-incomplete accepts files that were not fully analysed", () => {
    const { status, stdout } = hooklens("check", "broken", "--allow-incomplete");
    expect(stdout).toContain("1 of them not fully analysed");
    expect(status).toBe(0);
  });

  it("an unfinished import line makes no rule fail, and the file is reported as not fully analysed", () => {
    const { status, stdout } = hooklens("check", "typing", "--format", "json");
    const [report] = JSON.parse(stdout) as { notices: { kind: string }[] }[];
    expect(report!.notices.map((n) => n.kind)).toEqual(["syntax-errors"]);
    expect(status).toBe(3);
  });

  it("a runtime import that cannot be resolved is reported on the import", () => {
    const { status, stdout } = run(missingRuntime.dir, "check", "uses.ts");
    expect(stdout).toContain(`uses.ts:1:1  incomplete  Not fully analysed: "@hooklens/runtime" cannot be resolved from this file`);
    expect(status).toBe(3);
  });

  it("a file type the analyzer does not read is reported when named", () => {
    const { status, stdout } = hooklens("check", "other/component.vue");
    expect(stdout).toContain("other/component.vue:1:1  incomplete  Not analysed: HookLens reads .ts");
    expect(stdout).toContain("not .vue");
    expect(status).toBe(3);
  });
});
