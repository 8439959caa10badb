import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ALL_RULES } from "../../server/src/analyzer/index.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

afterEach(disposeFixture);

/**
 * Every rule's page. Each self-contained ```ts block (one that imports the runtime) is analysed as
 * a file of its own: the lines that end in a `// HLnnn` comment must be exactly the lines where
 * findings start, so a "wrong" example shows its finding and a "right" one stays clean.
 */
const PAGES = ALL_RULES.map((rule) => rule.code);

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

/**
 * The ```ts blocks of the other docs that import the runtime, except those embedded verbatim from
 * examples/ (`<!-- example: … -->`), which test/server/ownSources.test.ts already analyses as files.
 */
function otherDocsBlocks(): { page: string; code: string; embedded: boolean }[] {
  const pages = ["README.md", ...readdirSync(join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  pages.push(...readdirSync(join(REPO_ROOT, "docs/runtime")).filter((f) => f.endsWith(".md")).map((f) => `docs/runtime/${f}`));
  return pages.flatMap((page) =>
    [...readFileSync(join(REPO_ROOT, page), "utf8").matchAll(/(<!-- example: \S+ -->\n)?```ts\n([\s\S]*?)```/g)]
      .filter((match) => match[2]!.includes(`from "@hooklens/runtime"`))
      .map((match) => ({ page, code: match[2]!, embedded: match[1] !== undefined })),
  );
}

describe("rule docs examples", () => {
  it("has an example with a finding and one without on every page", () => {
    for (const page of PAGES) {
      const own = blocks.filter((b) => b.page === page);
      expect(own.some((b) => markedLines(b.code).length > 0), page).toBe(true);
      expect(own.some((b) => markedLines(b.code).length === 0), page).toBe(true);
    }
  });

  it("no finding on the code blocks of the other docs", () => {
    const all = otherDocsBlocks();
    // The pattern must still find the docs' blocks, though today every one is an embedded example.
    expect(all.length).toBeGreaterThan(20);
    for (const block of all.filter((b) => !b.embedded)) expect(analyzeFixture(block.code).map((f) => `${block.page}: ${f.code} ${f.message}`)).toEqual([]);
  });

  it.each(blocks.map((b) => [`${b.page} block ${b.index + 1}`, b] as const))("%s: findings exactly where the comments say", (_name, block) => {
    const findings = analyzeFixture(block.code);
    const lineOf = (offset: number) => block.code.slice(0, offset).split("\n").length;
    const found = [...new Set(findings.map((f) => `${lineOf(f.start)}: ${f.code}`))].sort();
    expect(found).toEqual(markedLines(block.code).sort());
  });
});
