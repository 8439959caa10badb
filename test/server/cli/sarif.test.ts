import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv-draft-04";
import type { Log } from "sarif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_RULES } from "../../../server/src/analyzer/index.js";
import { bundleServer } from "../../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";

// The SARIF 2.1.0 JSON schema as the OASIS committee published it, shipped by Microsoft's SARIF matchers package.
const require = createRequire(import.meta.url);
const SCHEMA = JSON.parse(readFileSync(require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8")) as object;

let cli: string;
let fixture: Fixture;

beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture();
  fixture.write("src/dormant.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`);
  // A post hook imported from another module: its finding names the handler's declaration as a related location.
  fixture.write("src/handlers.ts", `export function tidy() {\n  return "done";\n}\n`);
  fixture.write("src/post.ts", `import { AgentSpec } from "@hooklens/runtime";\nimport { tidy } from "./handlers.js";\nnew AgentSpec().post("write", tidy);\n`);
  fixture.write("src/with space/broken.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("tool.post")(() => 1) +;\n`);
}, 120_000);
afterAll(() => fixture.dispose());

describe("hooklens check --format sarif", { timeout: 120_000 }, () => {
  let log: Log;
  let status: number | null;

  beforeAll(() => {
    const result = spawnSync(process.execPath, [cli, "check", "src", "--format", "sarif"], { cwd: fixture.dir, encoding: "utf8" });
    status = result.status;
    log = JSON.parse(result.stdout) as Log;
  }, 120_000);

  it("is valid SARIF 2.1.0 by the published schema", () => {
    // unicodeRegExp off: the schema's language-tag pattern is valid only as a plain (non-unicode) regular expression.
    const validate = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }).compile(SCHEMA);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.version).toBe("2.1.0");
    expect(status).toBe(1);
  });

  it("describes every rule: id, name, short description, help URI and default level", () => {
    const rules = log.runs[0]!.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual(ALL_RULES.map((r) => r.code));
    expect(rules[0]).toMatchObject({
      id: "HL001",
      name: "dormant-hook-point",
      shortDescription: { text: expect.any(String) },
      helpUri: expect.stringMatching(/docs\/rules\/HL001\.md$/),
      defaultConfiguration: { level: "warning" },
    });
  });

  it("reports a finding with its rule, level, message and a 1-based region relative to %SRCROOT%", () => {
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds!["%SRCROOT%"]!.uri).toBe(new URL(`file://${fixture.dir}/`).href);
    expect(run.results).toHaveLength(2);
    const result = run.results!.find((r) => r.ruleId === "HL001");
    expect(result).toMatchObject({ ruleId: "HL001", ruleIndex: 0, level: "warning", message: { text: expect.stringContaining("HookPoint.API_STREAM_CHUNK") } });
    expect(result!.locations![0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "src/dormant.ts", uriBaseId: "%SRCROOT%" },
      region: { startLine: 2, startColumn: 23, endLine: 2, endColumn: 41 },
    });
  });

  it("names the declaration of an imported handler as a related location", () => {
    const result = log.runs[0]!.results!.find((r) => r.ruleId === "HL004");
    expect(result!.locations![0]!.physicalLocation!.region).toEqual({ startLine: 3, startColumn: 31, endLine: 3, endColumn: 35 });
    expect(result!.relatedLocations).toEqual([
      {
        physicalLocation: { artifactLocation: { uri: "src/handlers.ts", uriBaseId: "%SRCROOT%" }, region: { startLine: 1, startColumn: 1 } },
        message: { text: "The handler is declared here" },
      },
    ]);
  });

  it("lists a file that was not fully analysed as a notification of the invocation", () => {
    const [invocation] = log.runs[0]!.invocations!;
    const [notification] = invocation!.toolExecutionNotifications!;
    expect(notification).toMatchObject({
      descriptor: { id: "syntax-errors" },
      level: "warning",
      message: { text: expect.stringContaining("Not fully analysed: a syntax error") },
    });
    expect(notification!.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: "src/with%20space/broken.ts", uriBaseId: "%SRCROOT%" });
  });
});
