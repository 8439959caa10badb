import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import vm from "node:vm";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "../../helpers/builtCli.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { testTempDir } from "../../helpers/tempDir.js";

// The analyzer's bundles hold TypeScript's compiler as a function expression V8 compiles with the
// bundle, not as a lazily compiled method parsed twice (scripts/eagerTypeScript.mjs).
const EAGER_MODULE = /"[^"]*\/typescript\.js":\(function\((\w+),(\w+)\)\{/g;
const { compileTypeScriptEagerly } = (await import(join(REPO_ROOT, "scripts/eagerTypeScript.mjs"))) as { compileTypeScriptEagerly(path: string): void };

let bundles: string[];
beforeAll(() => {
  // The same build writes dist/ and server/dist/; the test run's own CLI bundles sit elsewhere.
  const cli = builtCli();
  bundles = [join(REPO_ROOT, "dist/server-main.cjs"), join(REPO_ROOT, "server/dist/check.cjs"), join(dirname(cli), "check.cjs")];
}, 300_000);

describe("TypeScript's compiler in the analyzer's bundles", { timeout: 300_000 }, () => {
  it("is one parenthesised function expression in the server's and the check command's bundles, which still compile", () => {
    for (const bundle of bundles) {
      const text = readFileSync(bundle, "latin1");
      expect([...text.matchAll(EAGER_MODULE)], bundle).toHaveLength(1);
      expect(text, bundle).not.toMatch(/"[^"]*\/typescript\.js"\(\w+,\w+\)\{/);
      expect(() => new vm.Script(text.replace(/^#!.*/, ""), { filename: bundle }), bundle).not.toThrow();
    }
  });

  it("moves the source map's columns after each inserted text, and only those", () => {
    const dir = testTempDir("hooklens-eager-ts-");
    // TypeScript's module as esbuild wraps it, start and end on one line, code after it on that line and the next.
    const text =
      'var require_typescript=__commonJS({"node_modules/@ts-morph/common/dist/typescript.js"(exports2,module2){var ts2={};(module3=>{first()})' +
      '({get exports(){return ts2},set exports(v){ts2=v,typeof module2<"u"&&module2.exports&&(module2.exports=v)}})}});var after=1;\nnext();';
    const tokens = ["var require_typescript", "exports2,module2", "var ts2", "first()", "get exports", "var after"];
    const bundle = join(dir, "bundle.cjs");
    writeFileSync(bundle, text);
    // One segment per token, each mapped to its own source line, and one on the second line.
    const segments = tokens.map((token, line): [number, number, number, number] => [text.indexOf(token), 0, line, 0]);
    writeFileSync(`${bundle}.map`, JSON.stringify({ version: 3, sources: ["typescript.js"], names: [], mappings: encode([segments, [[0, 0, 99, 0]]]) }));

    compileTypeScriptEagerly(bundle);

    const rewritten = readFileSync(bundle, "utf8");
    expect(rewritten).toContain('typescript.js":(function(exports2,module2){var ts2');
    expect(() => new vm.Script(rewritten)).not.toThrow();
    const [line, next] = decode((JSON.parse(readFileSync(`${bundle}.map`, "utf8")) as { mappings: string }).mappings);
    expect(line!.map(([column, , sourceLine]) => [rewritten.slice(column, column + tokens[sourceLine!]!.length), sourceLine])).toEqual(tokens.map((token, i) => [token, i]));
    expect(next).toEqual([[0, 0, 99, 0]]);
  });

  it("fails the build, naming the bundle, when the bundle does not have the shape it relies on", () => {
    const dir = testTempDir("hooklens-eager-ts-");
    const missing = join(dir, "no-typescript.cjs");
    writeFileSync(missing, 'var require_x=__commonJS({"node_modules/x/index.js"(exports2,module2){module2.exports=1}});');
    expect(() => compileTypeScriptEagerly(missing)).toThrow(/no-typescript\.cjs: expected TypeScript's module once/);
    // TypeScript's module found, but not the last statement the rewrite closes after.
    const unended = join(dir, "unended.cjs");
    writeFileSync(unended, 'var require_typescript=__commonJS({"node_modules/@ts-morph/common/dist/typescript.js"(exports2,module2){var ts2={};module2.exports=ts2}});');
    expect(() => compileTypeScriptEagerly(unended)).toThrow(/unended\.cjs: expected the end of TypeScript's module once/);
    expect(readFileSync(unended, "utf8")).toContain('typescript.js"(exports2,module2){');
  });
});
