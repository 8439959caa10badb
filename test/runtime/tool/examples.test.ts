import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { embeddedExamples, repoRoot, runExample } from "../../helpers/docExamples.js";

const examplesDir = "examples/tool";
const examples = readdirSync(`${repoRoot}${examplesDir}`)
  .filter((file) => file.endsWith(".ts"))
  .sort();

describe("docs/runtime/tool.md examples", () => {
  it("embeds every example file of examples/tool, each exactly as the file reads", () => {
    const embedded = embeddedExamples("docs/runtime/tool.md");
    expect([...embedded.keys()].sort()).toEqual(examples.map((file) => `${examplesDir}/${file}`));
    for (const [path, code] of embedded) expect(code, path).toBe(readFileSync(`${repoRoot}${path}`, "utf8"));
  });

  it.concurrent.each(examples)(
    "examples/tool/%s runs to completion and its assertions hold",
    async (file) => {
      const { code, stdout, stderr } = await runExample(`${examplesDir}/${file}`);
      expect(stderr.includes("AssertionError"), stderr).toBe(false);
      expect(code, stderr).toBe(0);
      expect(stdout.trim().length).toBeGreaterThan(0);
    },
    90_000,
  );
});
