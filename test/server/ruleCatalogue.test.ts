import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { ALL_RULES, PACKS } from "../../server/src/analyzer/index.js";
import { expectHeadlineFormat } from "../helpers/analyzeFixture.js";
import { createFixture, REPO_ROOT } from "../helpers/fixtureProject.js";
import { TRAP_CORPUS } from "./trapCorpus.js";

describe("rule catalogue", () => {
  it("gives every rule a unique HLnnn code and a kebab-case name", () => {
    const codes = ALL_RULES.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const rule of ALL_RULES) {
      expect(rule.code).toMatch(/^HL\d{3}$/);
      expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
  });

  it("has one docs page per rule, titled with its code and name, and no page without a rule", () => {
    for (const rule of ALL_RULES) {
      const page = join(REPO_ROOT, "docs/rules", `${rule.code}.md`);
      expect(existsSync(page), page).toBe(true);
      expect(readFileSync(page, "utf8").split("\n")[0]).toBe(`# ${rule.code} — ${rule.name}`);
    }
    const pages = readdirSync(join(REPO_ROOT, "docs/rules")).filter((f) => /^HL\d{3}\.md$/.test(f));
    expect(pages.sort()).toEqual(ALL_RULES.map((r) => `${r.code}.md`).sort());
  });

  it.each(PACKS.map((pack) => [pack.id, pack] as const))("keeps one file per rule of the %s pack in its folder's rules/, every code in its family", (id, pack) => {
    const files = readdirSync(join(REPO_ROOT, "server/src/analyzer/packs", id, "rules")).filter((f) => /^hl\d{3}/.test(f));
    expect(files.map((f) => f.slice(0, 5).toUpperCase()).sort()).toEqual(pack.rules.map((r) => r.code).sort());
    for (const rule of pack.rules) expect(rule.code.startsWith(pack.codeFamily)).toBe(true);
  });

  it("gives every pack its own code family", () => {
    const families = PACKS.map((pack) => pack.codeFamily);
    expect(new Set(families).size).toBe(families.length);
    for (const family of families) expect(family).toMatch(/^HL\d$/);
  });
});

describe("rule messages", () => {
  // One project for the whole corpus: each trap is its own file in it.
  const fixture = createFixture();
  afterAll(() => fixture.dispose());
  const project = new AnalysisProject(fixture.dir);

  it("has at least one trap in test/server/trapCorpus.ts for every rule", () => {
    const covered = new Set(TRAP_CORPUS.map(([code]) => code));
    expect(ALL_RULES.map((r) => r.code).filter((code) => !covered.has(code))).toEqual([]);
  });

  it.each(TRAP_CORPUS.map(([code, source], index) => [code, index, source] as const))(
    "%s trap #%i: found, with a headline of at most 100 characters and an explanation",
    (code, index, source) => {
      const file = fixture.write(`trap${index}.ts`, source);
      const { findings, failures } = project.analyze(file);
      expect(failures).toEqual([]);
      expect(findings.map((f) => f.code)).toContain(code);
      expectHeadlineFormat(findings);
    },
  );
});
