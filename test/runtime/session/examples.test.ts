import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { embeddedExamples, repoRoot, runExample } from "../../helpers/docExamples.js";

const examplesDir = "examples/session";
const docPath = "docs/runtime/session.md";
const examples = readdirSync(`${repoRoot}${examplesDir}`).filter((file) => file.endsWith(".ts")).sort();

describe("docs/runtime/session.md examples", () => {
  it("embeds every example file of examples/session, each exactly as the file reads", () => {
    const embedded = embeddedExamples(docPath);
    expect([...embedded.keys()].sort()).toEqual(examples.map((file) => `${examplesDir}/${file}`));
    for (const [path, code] of embedded) expect(code, path).toBe(readFileSync(`${repoRoot}${path}`, "utf8"));
  });

  it.concurrent.each(examples)("examples/session/%s runs to completion and its assertions hold", async (file) => {
    const { code, stdout, stderr } = await runExample(`${examplesDir}/${file}`);
    expect(stderr.includes("AssertionError"), stderr).toBe(false);
    expect(code, stderr).toBe(0);
    expect(stdout.trim().length).toBeGreaterThan(0);
  }, 90_000);
});
