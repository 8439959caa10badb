import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

/**
 * Every ```ts block of the docs that is not an embedded example (those are files under examples/,
 * type-checked by `npm run typecheck` and run by the docs-examples tests) must type-check: the
 * rule pages' snippets above all, which show traps with `declare`d values and so cannot run.
 * One program for all of them; each block is a module of its own.
 */
function docPages(): string[] {
  const inFolder = (folder: string) => readdirSync(join(REPO_ROOT, folder)).filter((f) => f.endsWith(".md")).map((f) => `${folder}/${f}`);
  return ["README.md", "runtime/README.md", ...inFolder("docs"), ...inFolder("docs/runtime"), ...inFolder("docs/rules")];
}

function blocks(): { name: string; code: string }[] {
  return docPages().flatMap((page) =>
    [...readFileSync(join(REPO_ROOT, page), "utf8").matchAll(/(<!-- example: \S+ -->\n)?```ts\n([\s\S]*?)```/g)]
      .map((match, index) => ({ embedded: match[1] !== undefined, name: `${page} block ${index + 1}`, code: match[2]! }))
      .filter((block) => !block.embedded),
  );
}

const dir = mkdtempSync(join(tmpdir(), "hooklens-doc-blocks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("every ```ts block of the docs that is not an embedded example type-checks", () => {
  const all = blocks();
  expect(all.length).toBeGreaterThan(20);
  const files = new Map<string, string>();
  all.forEach((block, i) => {
    const path = join(dir, `block${i}`, "main.ts");
    mkdirSync(join(dir, `block${i}`));
    // A block without an import or export is still its own module, not a script sharing globals.
    writeFileSync(path, /^\s*(import|export)\s/m.test(block.code) ? block.code : `${block.code}\nexport {};\n`);
    files.set(path, block.name);
  });
  const runtime = (entry: string) => [join(REPO_ROOT, "runtime/src", entry)];
  const program = ts.createProgram([...files.keys()], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    typeRoots: [join(REPO_ROOT, "node_modules/@types")],
    paths: {
      "@hooklens/runtime": runtime("index.ts"),
      "@hooklens/runtime/live": runtime("live/index.ts"),
      "@hooklens/runtime/store": runtime("store/index.ts"),
      "@hooklens/runtime/otel": runtime("otel/index.ts"),
      "@hooklens/runtime/ai-sdk": runtime("ai-sdk/index.ts"),
    },
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.has(d.file.fileName))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${files.get(d.file!.fileName)}, line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  expect(problems).toEqual([]);
});
