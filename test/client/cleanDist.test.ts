import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script, without types
import { cleanDist } from "../../scripts/cleanDist.mjs";

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the build's clean step", () => {
  it("empties dist but keeps the .vsix `npm run package` made (npm run demo builds after it)", () => {
    const dist = mkdtempSync(join(tmpdir(), "hl-dist-"));
    made.push(dist);
    mkdirSync(join(dist, "client"));
    writeFileSync(join(dist, "client/extension.js"), "");
    writeFileSync(join(dist, "hooklens.vsix"), "PK");
    (cleanDist as (folder: string) => void)(dist);
    expect(readdirSync(dist)).toEqual(["hooklens.vsix"]);
    (cleanDist as (folder: string) => void)(join(dist, "absent"));
    expect(existsSync(join(dist, "absent"))).toBe(false);
  });
});
