import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

afterEach(disposeFixture);

/**
 * The rule pages whose examples are checked here. Every self-contained ```ts block (one that
 * imports the runtime) is analysed as a file of its own: the lines that end in a `// HLnnn`
 * comment must be exactly the lines where findings start, so a "wrong" example shows its finding and a
 * "right" one stays clean.
 */
const PAGES = ["HL007", "HL008", "HL009", "HL010", "HL011", "HL012", "HL013", "HL014", "HL015"];

interface Block {
  page: string;
  index: number;
  code: string;
}

function blocksOf(page: string): Block[] {
  const text = readFileSync(join(REPO_ROOT, "docs/rules", `${page}.md`), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match, index) => ({ page, index, code: match[1]! }))
    .filter((block) => block.code.includes(`from "@hooklens/runtime"`));
}

/** "line: CODE" for every line marked `// HLnnn` (a comment may name several codes). */
function markedLines(code: string): string[] {
  return code.split("\n").flatMap((line, i) => [...line.matchAll(/\/\/.*?\b(HL\d{3})\b/g)].map((m) => `${i + 1}: ${m[1]}`));
}

const blocks = PAGES.flatMap(blocksOf);

describe("rule docs examples", () => {
  it("has an example with a finding and one without on every page", () => {
    for (const page of new Set(blocks.map((b) => b.page))) {
      const own = blocks.filter((b) => b.page === page);
      expect(own.some((b) => markedLines(b.code).length > 0), page).toBe(true);
      expect(own.some((b) => markedLines(b.code).length === 0), page).toBe(true);
    }
  });

  it.each(blocks.map((b) => [`${b.page} block ${b.index + 1}`, b] as const))("%s: findings exactly where the comments say", (_name, block) => {
    const findings = analyzeFixture(block.code);
    const lineOf = (offset: number) => block.code.slice(0, offset).split("\n").length;
    const found = [...new Set(findings.map((f) => `${lineOf(f.start)}: ${f.code}`))].sort();
    expect(found).toEqual(markedLines(block.code).sort());
  });
});
