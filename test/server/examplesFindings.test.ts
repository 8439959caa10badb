import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPaths } from "../../server/src/cli/check/runner.js";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

// The service examples deliberately show two traps (examples/service/traps.ts); `hooklens check`
// must report exactly those there, and nothing else of the service rules anywhere in the folder.
const SERVICE_RULES = ["HL009", "HL010", "HL011"];

describe("hooklens check on examples/service", () => {
  it("reports the returned Error (HL011) and the ignored pre-create return (HL010) of traps.ts, and nothing else", () => {
    const found = checkPaths([join(REPO_ROOT, "examples/service")]).flatMap((report) =>
      report.findings.filter((f) => SERVICE_RULES.includes(f.code)).map((f) => `${report.file.slice(REPO_ROOT.length)}:${f.line} ${f.code}`),
    );
    expect(found).toEqual(["examples/service/traps.ts:11 HL011", "examples/service/traps.ts:30 HL010"]);
  });
});
