import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Workspace } from "../../../server/src/lsp/workspace.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());

const DORMANT = `import { hook } from "@hooklens/runtime";\nexport const h = hook("api.stream_chunk")(() => 1);\n`;
// 2,000 nested parentheses overflow TypeScript's recursive parser.
const DEEP = `export const x = ${"(".repeat(2000)}1${")".repeat(2000)};\n`;

// The editor side of "a file the parser cannot handle never hides anything": the document gets a
// notice instead of an error answer, and the other documents of the same project keep working.
describe("a document TypeScript cannot parse, in the editor", { timeout: 120_000 }, () => {
  it.each([
    ["uses the runtime", DORMANT + DEEP],
    ["does not use the runtime", DEEP],
  ])("one that %s is reported as not analysed, and the project's other documents are still analysed", (_kind, text) => {
    fixture = createFixture();
    const workspace = new Workspace();
    workspace.setFolders([pathToFileURL(fixture.dir).href]);
    const uri = (name: string) => pathToFileURL(fixture!.path(name)).href;
    expect(workspace.analyze(uri("good.ts"), 1, DORMANT, () => false).result.findings.map((f) => f.code)).toEqual(["HL001"]);
    const { result } = workspace.analyze(uri("deep.ts"), 1, text, () => false);
    expect(result.findings).toEqual([]);
    expect(result.notices).toEqual([expect.objectContaining({ kind: "unsupported-file", message: expect.stringContaining("RangeError") })]);
    expect(workspace.analyze(uri("good.ts"), 2, `${DORMANT}\n`, () => false).result.findings.map((f) => f.code)).toEqual(["HL001"]);
  });
});
