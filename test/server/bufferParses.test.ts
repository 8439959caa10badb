import { afterEach, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { bareParse, BufferParses, parseOnlyNotices } from "../../server/src/analyzer/engine/parseOnlyNotices.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.dispose();
  fixture = undefined;
});

const BASE = [
  `import { twice } from "./helper.js";`,
  `export function total(items: readonly number[]): number {`,
  `  let sum = 0;`,
  `  for (const item of items) sum += twice(item);`,
  `  return sum;`,
  `}`,
  `export const label = \`total: \${total([1, 2])}\`;`,
  ``,
].join("\n");

/** Keystroke-sized edits, each from the version before: some break the syntax, later ones mend it. */
const EDITS: [string, string][] = [
  ["let sum = 0;", "let sum = 01;"],
  ["let sum = 01;", "let sum = 0"],
  ["for (const item", "for (const item item"],
  ["for (const item item", "for (const item"],
  ["return sum;", "return sum +;"],
  ["  return sum +;", "  return (sum +;"],
  ["  return (sum +;", "  return sum;"],
  ["`total: ", "`total: ${"],
  ["`total: ${", "`total: "],
  ["}\nexport const label", "\nexport const label"],
  ["\nexport const label", "}\nexport const label"],
  ["/* start", "/* start"],
];

describe("parse-only notices of an edited buffer, parsed incrementally", () => {
  it("are exactly those of a fresh parse of every version", () => {
    const parses = new BufferParses();
    let text = BASE;
    const seen = new Set<string>();
    for (const [from, to] of EDITS) {
      if (!text.includes(from)) continue;
      text = text.replace(from, to);
      const incremental = parseOnlyNotices("a.ts", () => parses.parse("a.ts", text));
      expect(incremental).toEqual(parseOnlyNotices("a.ts", () => bareParse("a.ts", text)));
      seen.add(incremental.length === 0 ? "clean" : "errors");
    }
    // The sequence went through both states, so the comparison covered errors appearing and going away.
    expect([...seen].sort()).toEqual(["clean", "errors"]);
  });

  it("come through the project for a plain buffer, version after version", () => {
    fixture = createFixture();
    fixture.write("helper.ts", "export const twice = (n: number) => n * 2;\n");
    const plain = fixture.write("plain.ts", BASE);
    const project = new AnalysisProject(fixture.dir);
    let text = BASE;
    for (const [from, to] of EDITS) {
      if (!text.includes(from)) continue;
      text = text.replace(from, to);
      project.setBuffer(plain, text);
      expect(project.analyze(plain)).toEqual({ findings: [], failures: [], notices: parseOnlyNotices(plain, () => bareParse(plain, text)) });
    }
    expect(project.stats.checkedAnalyses).toBe(0);
  });
});
