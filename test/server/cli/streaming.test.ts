import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";
import { writeTypeHeavyTree } from "../../helpers/typeHeavyTree.js";

const FILES = 40;

let cli: string;
let fixture: Fixture;

beforeAll(async () => {
  ({ cli } = await bundleServer());
  fixture = createFixture();
  writeTypeHeavyTree(fixture.dir, FILES);
  fixture.write("a/dormant.ts", `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`);
}, 120_000);
afterAll(() => fixture.dispose());

interface Report {
  file: string;
  findings: { code: string }[];
}

describe("hooklens check --format json streams", { timeout: 600_000 }, () => {
  it("writes each file's report as it is done, so a run that dies midway keeps what it found", async () => {
    const child = spawn(process.execPath, [cli, "check", "a", "src", "--format", "json"], { cwd: fixture.dir });
    let output = "";
    const killed = await new Promise<boolean>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        // The first file's report, while the other files are still being checked: stop the run hard.
        if (output.includes("HL001") && child.kill("SIGKILL")) resolve(true);
      });
      child.on("exit", () => resolve(false));
    });
    expect(killed).toBe(true);
    const lines = output.split("\n");
    expect(lines[0]).toBe("[");
    const first = JSON.parse(lines[1]!.replace(/,$/, "")) as Report;
    expect(first.file).toBe(fixture.path("a/dormant.ts"));
    expect(first.findings.map((f) => f.code)).toEqual(["HL001"]);
    expect(output).not.toContain(`m${FILES - 1}.ts`);
  });
});
