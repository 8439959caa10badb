import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadWASM, OnigScanner, OnigString } from "vscode-oniguruma";
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from "vscode-textmate";
import { DORMANT_HOOK_POINTS, HookPoint } from "@hooklens/runtime";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

const INJECTION = join(REPO_ROOT, "syntaxes/hook-points.injection.tmLanguage.json");
const HOST = join(REPO_ROOT, "test/client/fixtures/miniTypeScript.tmLanguage.json");

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("vscode-oniguruma/release/onig.wasm"));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new OnigScanner(p), createOnigString: (s) => new OnigString(s) }),
    loadGrammar: async (scope) => {
      const path = scope === "source.ts" ? HOST : scope === "hooklens.hook-points.injection" ? INJECTION : null;
      return path ? parseRawGrammar(readFileSync(path, "utf8"), path) : null;
    },
    getInjections: (scope) => (scope === "source.ts" ? ["hooklens.hook-points.injection"] : undefined),
  });
  const grammar = await registry.loadGrammar("source.ts");
  if (!grammar) throw new Error("host grammar did not load");
  return grammar;
}

/** The scopes of the token covering `text` on `line`. */
function scopesOf(grammar: IGrammar, line: string, text: string): string[] {
  const at = line.indexOf(text);
  const token = grammar.tokenizeLine(line, INITIAL).tokens.find((t) => t.startIndex <= at && at < t.endIndex);
  return token?.scopes ?? [];
}

describe("hook point literal grammar", () => {
  it("marks each dormant point value inside a string as deprecated", async () => {
    const grammar = await loadGrammar();
    for (const point of DORMANT_HOOK_POINTS) {
      for (const quote of ['"', "'", "`"]) {
        const line = `bus.on(${quote}${point}${quote}, handler);`;
        expect(scopesOf(grammar, line, point)).toContain("invalid.deprecated.hook-point.dormant.hooklens");
      }
    }
  });

  it("marks the seven points that emit as hook point constants", async () => {
    const grammar = await loadGrammar();
    const live = Object.values(HookPoint).filter((p) => !DORMANT_HOOK_POINTS.has(p));
    expect(live).toHaveLength(7);
    for (const point of live) expect(scopesOf(grammar, `bus.on("${point}", h);`, point)).toContain("support.constant.hook-point.hooklens");
  });

  it("leaves strings that merely contain a point value, and comments, alone", async () => {
    const grammar = await loadGrammar();
    for (const [line, text] of [
      ['log("api.pre_call happened");', "api.pre_call"],
      ['x = "tool.prefix";', "tool.pre"],
      ["// bus.on('api.pre_call')", "api.pre_call"],
    ] as const) {
      expect(scopesOf(grammar, line, text).some((s) => s.endsWith(".hooklens"))).toBe(false);
    }
  });
});
