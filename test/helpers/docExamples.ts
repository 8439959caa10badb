// Runs the example programs a docs page embeds, and reads which ones it embeds.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Runs `path` (relative to the repository root) with tsx's loader in a child process, with `env`
 * added to this process's. `node --import tsx` is one process; the tsx command starts two.
 */
export function runExample(path: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", path], { cwd: repoRoot, timeout: 170_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The examples a doc embeds: `<!-- example: path -->` followed by a ```ts block, by path. */
export function embeddedExamples(docPath: string): Map<string, string> {
  const doc = readFileSync(`${repoRoot}${docPath}`, "utf8");
  const embedded = new Map<string, string>();
  for (const match of doc.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)) embedded.set(match[1]!, match[2]!);
  return embedded;
}

/** The `.ts` files of an examples folder, as repository-relative paths. */
export function examplesIn(folder: string): string[] {
  return readdirSync(`${repoRoot}${folder}`)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => `${folder}/${file}`);
}

/**
 * The two checks every runtime docs page gets: it embeds exactly the given example files,
 * verbatim, and each of them runs to completion with its assertions holding. Examples in
 * `runElsewhere` (they need a server) are checked as embedded here and run by a test of their own.
 */
export function describeDocExamples(docPath: string, examplePaths: readonly string[], runElsewhere: readonly string[] = []): void {
  const examples = [...examplePaths, ...runElsewhere].sort();
  const runHere = examples.filter((path) => !runElsewhere.includes(path));
  describe(`${docPath} examples`, () => {
    it("embeds every example, each exactly as the file reads", () => {
      const embedded = embeddedExamples(docPath);
      expect([...embedded.keys()].sort()).toEqual(examples);
      for (const [path, code] of embedded) expect(code, path).toBe(readFileSync(`${repoRoot}${path}`, "utf8"));
    });

    it.concurrent.each(runHere)(
      "%s runs to completion and its assertions hold",
      async (path) => {
        const { code, stdout, stderr } = await runExample(path);
        expect(stderr.includes("AssertionError"), stderr).toBe(false);
        expect(code, stderr).toBe(0);
        expect(stdout.trim().length).toBeGreaterThan(0);
      },
    );
  });
}
