/**
 * `hooklens check` on one large generated hook file: the CPU for 4N handlers against N in the same
 * run, each less the CPU of the same module with one handler (building the program, the libraries).
 * Linear work gives 4×; the CLI once grew with the square of the file (a 5 MB file ran past ten
 * minutes) because each lookup of a name scanned every declaration of it, each handler re-checked
 * every read of the bus, and each finding's line was counted from the top of the file.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkTargets } from "../../server/src/cli/check/runner.js";
import { targetsFromPaths } from "../../server/src/cli/check/targets.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = Number(process.env["HOOKLENS_BENCH_ROUNDS"] ?? 3);
const SMALL = 1_500;
const TARGET = 5;

/** A module registering `handlers` TOOL_PRE handlers on one bus, each with a finding (HL006). */
function hookModule(handlers: number): string {
  const lines = ['import { HookBus, HookPoint } from "@hooklens/runtime";', "const bus = new HookBus();"];
  for (let i = 0; i < handlers; i++) lines.push(`bus.on(HookPoint.TOOL_PRE, async (p: any) => { if (p.toolName === "t${i}") throw new Error("no ${i}"); return { ok: ${i} }; });`);
  return lines.join("\n") + "\n";
}

/** CPU milliseconds (user + system) of checking one file in this process. */
function cpuOfCheck(file: string): { ms: number; findings: number } {
  const targets = targetsFromPaths([file], { followSymlinks: false, maxFileBytes: Number.MAX_SAFE_INTEGER }).targets.map((t) => ({ ...t, config: { path: undefined, rules: {} } }));
  let findings = 0;
  const before = process.cpuUsage();
  checkTargets(targets, (report) => (findings += report.findings.length));
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, findings };
}

export async function run(): Promise<string> {
  const dir = join(ROOT, ".cache", "bench-large-file");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = [1, SMALL, 4 * SMALL].map((handlers) => {
    const file = join(dir, `handlers${handlers}.ts`);
    writeFileSync(file, hookModule(handlers));
    return file;
  });
  const [base, small, large] = files as [string, string, string];
  cpuOfCheck(small); // warm-up: the JIT warm, as for every later file
  const ratios: number[] = [];
  const rows: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const one = cpuOfCheck(base);
    const n = cpuOfCheck(small);
    const n4 = cpuOfCheck(large);
    ratios.push((n4.ms - one.ms) / (n.ms - one.ms));
    rows.push(`    round ${round + 1}: 1 handler ${one.ms.toFixed(0)} ms, ${SMALL} ${n.ms.toFixed(0)} ms, ${4 * SMALL} ${n4.ms.toFixed(0)} ms CPU (${n.findings} / ${n4.findings} findings)`);
  }
  rmSync(dir, { recursive: true, force: true });
  const worst = Math.max(...ratios);
  const range = `${Math.min(...ratios).toFixed(2)}–${worst.toFixed(2)}×`;
  return [`\nhooklens check, one large file: CPU for 4× the handlers (${ROUNDS} rounds)`, ...rows, `  4N / N: ${range}  ${worst <= TARGET ? "ok" : "OVER"} (linear is 4×; target ≤ ${TARGET}×)`].join("\n");
}
