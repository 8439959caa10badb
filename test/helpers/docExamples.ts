// Runs the example programs a docs page embeds, and reads which ones it embeds.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

/** Runs `path` (relative to the repository root) with tsx in a child process. */
export function runExample(path: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsxCli, path], { cwd: repoRoot, timeout: 60_000 }, (error, stdout, stderr) => {
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
