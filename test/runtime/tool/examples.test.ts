import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const examplesDir = "examples/tool";
const docPath = "docs/runtime/tool.md";
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const examples = readdirSync(`${root}${examplesDir}`)
  .filter((file) => file.endsWith(".ts"))
  .sort();

function runExample(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsxCli, `${examplesDir}/${file}`], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The examples embedded in the doc: `<!-- example: path -->` followed by a ```ts block. */
function embeddedExamples(): Map<string, string> {
  const doc = readFileSync(`${root}${docPath}`, "utf8");
  const embedded = new Map<string, string>();
  for (const match of doc.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)) embedded.set(match[1]!, match[2]!);
  return embedded;
}

describe("docs/runtime/tool.md examples", () => {
  it("embeds every example file of examples/tool, each exactly as the file reads", () => {
    const embedded = embeddedExamples();
    expect([...embedded.keys()].sort()).toEqual(examples.map((file) => `${examplesDir}/${file}`));
    for (const [path, code] of embedded) expect(code, path).toBe(readFileSync(`${root}${path}`, "utf8"));
  });

  it.concurrent.each(examples)(
    "examples/tool/%s runs to completion and its assertions hold",
    async (file) => {
      const { code, stdout, stderr } = await runExample(file);
      expect(stderr.includes("AssertionError"), stderr).toBe(false);
      expect(code, stderr).toBe(0);
      expect(stdout.trim().length).toBeGreaterThan(0);
    },
    90_000,
  );
});
