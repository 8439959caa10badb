/**
 * The language server's memory over a long editing session: 1,000 keystroke edits to one hook
 * module of the generated 1,000-file workspace, each one a change the analyzer must analyse afresh
 * with the type checker (the typed hook module: the dearest kind of edit), with the file growing by
 * a line every 25 edits as a user's does. The server's RSS is read every 25 edits; every point must
 * stay at or under 400 MB (a sawtooth whose troughs rise is a leak even below the line).
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { LspSession } from "./analyzer/lspSession.js";
import { BENCH_EDITS, createBenchWorkspace } from "./analyzer/workspace.js";

const DIST = process.env.HOOKLENS_BENCH_DIST ?? fileURLToPath(new URL("../../dist", import.meta.url));
const EDITS = Number(process.env["HOOKLENS_BENCH_MEMORY_EDITS"] ?? 1000);
const EVERY = 25;
const TARGET_MB = 400;

export async function run(): Promise<string> {
  const workspace = createBenchWorkspace(1000);
  const session = new LspSession(join(DIST, "server.js"));
  const trace: { edit: number; rssMb: number; heapMb: number }[] = [];
  try {
    await session.initialize(workspace.dir);
    const file = workspace.typedRuntimeFiles[4]!;
    const text = await session.open(file);
    await session.diagnostics(file);
    let added = "";
    for (let edit = 1; edit <= EDITS; edit++) {
      if (edit % EVERY === 0) added += `\nexport const extra${edit} = ${edit};`;
      await session.change(file, BENCH_EDITS.runtimeString(text, edit) + added);
      await session.diagnostics(file);
      if (edit % EVERY === 0) {
        const probe = await session.probe();
        trace.push({ edit, rssMb: probe.rssBytes / 2 ** 20, heapMb: probe.heapUsedBytes / 2 ** 20 });
      }
    }
  } finally {
    await session.dispose();
    workspace.dispose();
  }
  const peak = Math.max(...trace.map((point) => point.rssMb));
  // Troughs: the lowest RSS of each quarter of the session; a leak shows as troughs that keep rising.
  const quarter = Math.ceil(trace.length / 4);
  const troughs = [0, 1, 2, 3].map((q) => Math.min(...trace.slice(q * quarter, (q + 1) * quarter).map((point) => point.rssMb)));
  const lines = [`\nlanguage server memory, ${EDITS} edits to one typed hook module (RSS / JS heap in use, MB, every ${EVERY} edits)`];
  for (let i = 0; i < trace.length; i += 10) lines.push("    " + trace.slice(i, i + 10).map((p) => `${p.edit}: ${Math.round(p.rssMb)}/${Math.round(p.heapMb)}`).join("  "));
  lines.push(`  lowest RSS per quarter: ${troughs.map((mb) => Math.round(mb)).join(" → ")} MB`);
  lines.push(`  peak RSS ${Math.round(peak)} MB  ${peak <= TARGET_MB ? "ok" : "OVER"} (target ≤ ${TARGET_MB} MB at every point)`);
  return lines.join("\n");
}
