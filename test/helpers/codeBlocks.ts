import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./fixtureProject.js";

/** The ```ts code blocks of a Markdown file (repository-relative path), in order. */
export function codeBlocks(markdownPath: string): string[] {
  const text = readFileSync(join(REPO_ROOT, markdownPath), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}
