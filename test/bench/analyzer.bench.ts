import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AnalysisProject } from "../../server/src/analyzer/project.js";
import { measure, report } from "./measure.js";

const RUNTIME = fileURLToPath(new URL("../../runtime/src/index.ts", import.meta.url));

/** A typical hook module: a bus with a few registrations, a guard and some plain code. */
function source(edit: number): string {
  const handlers = Array.from({ length: 40 }, (_, i) => `bus.on(HookPoint.${i % 9 === 0 ? "API_PRE_CALL" : "TOOL_POST"}, (p) => { total += ${i} + String(p).length; });`);
  return `import { HookBus, HookPoint, hook } from "@hooklens/runtime";
let total = ${edit};
export const bus = new HookBus();
${handlers.join("\n")}
export const marked = hook("tool.pre")(() => total);
export function work(xs: number[]): number { return xs.reduce((a, b) => a + b, total); }
`;
}

/**
 * Cost of analysing one edit (HL001 with its type-checker look-ups) against what an editor already
 * pays per edit: re-parsing the file and asking the type checker for its diagnostics.
 */
export async function run(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-bench-"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, moduleResolution: "Bundler", module: "ESNext", target: "ES2022", paths: { "@hooklens/runtime": [RUNTIME] } } }));
  const file = join(dir, "hooks.ts");
  const project = new AnalysisProject(dir);
  let edit = 0;
  try {
    const typeCheck = await measure("parse + type-check", () => project.setText(file, source(edit++)).getPreEmitDiagnostics(), { batches: 9, minBatchMs: 200 });
    const analyze = await measure("parse + analyze", () => {
      project.setText(file, source(edit++));
      return project.analyze(file);
    }, { batches: 9, minBatchMs: 200 });
    return report("Analyzer, per edit of a 45-line hook module", [{ label: "HL001 analysis of an edited file", subject: analyze, baseline: typeCheck, target: 1 }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
