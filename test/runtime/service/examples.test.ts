import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { embeddedExamples, repoRoot, runExample } from "../../helpers/docExamples.js";

const docPath = "docs/runtime/service.md";
const examples = [
  "examples/streaming-model.ts",
  ...readdirSync(`${repoRoot}examples/service`)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => `examples/service/${file}`),
].sort();

describe("docs/runtime/service.md examples", () => {
  it("embeds every service example, each exactly as the file reads", () => {
    const embedded = embeddedExamples(docPath);
    expect([...embedded.keys()].sort()).toEqual(examples);
    for (const [path, code] of embedded) expect(code, path).toBe(readFileSync(`${repoRoot}${path}`, "utf8"));
  });

  it.concurrent.each(examples)("%s runs to completion and its assertions hold", async (path) => {
    const { code, stdout, stderr } = await runExample(path);
    expect(stderr.includes("AssertionError"), stderr).toBe(false);
    expect(code, stderr).toBe(0);
    expect(stdout.trim().length).toBeGreaterThan(0);
  });

  it("examples/streaming-model.ts prints the reply it streamed through its chunk handler", async () => {
    const { stdout } = await runExample("examples/streaming-model.ts");
    expect(stdout.trim()).toBe("Hooks run before, after and between chunks.[stop]");
  });
});
