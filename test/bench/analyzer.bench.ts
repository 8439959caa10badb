import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LspSession } from "./analyzer/lspSession.js";
import { TypeScriptBaseline } from "./analyzer/typescriptBaseline.js";
import { createBenchWorkspace, type BenchWorkspace } from "./analyzer/workspace.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const SERVER_SOURCES = fileURLToPath(new URL("../../server/src", import.meta.url));

const ROUNDS = 3;
/** Per round and per file kind; 3 rounds × 2 files × 100 = the issue's 600 edits in one server. */
const EDITS_PER_FILE = 100;
const BASELINE_EDITS = 30;

const TARGETS = {
  runtimeP95Ms: 50,
  runtimeVsCheck: 1,
  plainP95Ms: 5,
  coldStartMs: 2000,
  rssMb: 400,
};

/** A keystroke-sized change that keeps the file valid: a number typed into one line. */
const editRuntimeFile = (text: string, n: number) => text.replace("let counter = ", `let counter = ${n} + `);
const editPlainFile = (text: string, n: number) => text.replace("  let total = 0;", `  let total = ${n};`);

interface Round {
  runtimeMs: number[];
  plainMs: number[];
}

/**
 * The analyzer as an editor sees it: the bundled server (dist/server.js) over JSON-RPC on a
 * generated 1,000-file workspace. Per-edit figures are the server's own CPU time (read through
 * the bench-only probe request), beside TypeScript's own parse and full check of the same file
 * measured in this process; cold start is wall time from spawning the server to the first
 * diagnostics; memory is the server's RSS after every one of 600 edits.
 */
export async function run(): Promise<string> {
  checkBundle();
  const workspace = createBenchWorkspace(1000);
  try {
    const cold = [];
    for (let i = 0; i < ROUNDS; i++) cold.push(await coldStart(workspace, workspace.runtimeFiles[10 + i]!));
    const { rounds, rss, heap, findings } = await editSession(workspace);
    const baseline = typeScriptCosts(workspace);
    return format(workspace, cold, rounds, { rss, heap }, findings, baseline);
  } finally {
    workspace.dispose();
  }
}

function checkBundle(): void {
  if (!existsSync(SERVER)) throw new Error("dist/server.js is missing: run `npm run build` (or `npm run bench`) first");
  const built = statSync(SERVER).mtimeMs;
  if (newestMtime(SERVER_SOURCES) > built)
    console.warn("warning: server/src is newer than dist/server.js; run `npm run build` to measure the current code");
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

interface ColdStart {
  wallMs: number;
  cpuMs: number;
  progressShown: boolean;
}

async function coldStart(workspace: BenchWorkspace, file: string): Promise<ColdStart> {
  const session = new LspSession(SERVER);
  try {
    await session.initialize(workspace.dir);
    await session.open(file);
    await session.diagnostics(file);
    const wallMs = performance.now() - session.startedAt;
    const { cpuMicros } = await session.probe();
    return {
      wallMs,
      cpuMs: cpuMicros / 1000,
      progressShown: session.progress.includes("begin") && session.progress.includes("end"),
    };
  } finally {
    await session.dispose();
  }
}

async function editSession(workspace: BenchWorkspace): Promise<{
  rounds: Round[];
  rss: number[];
  heap: number[];
  findings: number;
}> {
  const session = new LspSession(SERVER);
  const rounds: Round[] = [];
  const rss: number[] = [];
  const heap: number[] = [];
  let findings = 0;
  try {
    await session.initialize(workspace.dir);
    for (let r = 0; r < ROUNDS; r++) {
      const runtimeFile = workspace.runtimeFiles[20 + r * 7]!;
      const plainFile = workspace.plainFiles[200 + r * 61]!;
      const round: Round = { runtimeMs: [], plainMs: [] };
      for (const [file, edit, into] of [
        [runtimeFile, editRuntimeFile, round.runtimeMs],
        [plainFile, editPlainFile, round.plainMs],
      ] as const) {
        const text = await session.open(file);
        findings = Math.max(findings, await session.diagnostics(file));
        for (let e = 1; e <= EDITS_PER_FILE; e++) {
          const before = await session.probe();
          await session.change(file, edit(text, e));
          await session.diagnostics(file);
          const after = await session.probe();
          into.push((after.cpuMicros - before.cpuMicros) / 1000);
          rss.push(after.rssBytes / 2 ** 20);
          heap.push(after.heapUsedBytes / 2 ** 20);
        }
      }
      await session.close(runtimeFile);
      await session.close(plainFile);
      rounds.push(round);
    }
    if (session.stderr) console.warn(`server stderr:\n${session.stderr.slice(0, 2000)}`);
    return { rounds, rss, heap, findings };
  } finally {
    await session.dispose();
  }
}

interface TypeScriptCosts {
  runtimeParse: number[];
  runtimeCheck: number[];
  plainParse: number[];
  plainCheck: number[];
}

/** TypeScript's own per-edit cost for the same files and the same edits, in ms of CPU. */
function typeScriptCosts(workspace: BenchWorkspace): TypeScriptCosts {
  const baseline = new TypeScriptBaseline(join(workspace.dir, "tsconfig.json"));
  const costs: TypeScriptCosts = {
    runtimeParse: [],
    runtimeCheck: [],
    plainParse: [],
    plainCheck: [],
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [file, edit, parse, check] of [
      [workspace.runtimeFiles[20 + r * 7]!, editRuntimeFile, costs.runtimeParse, costs.runtimeCheck],
      [workspace.plainFiles[200 + r * 61]!, editPlainFile, costs.plainParse, costs.plainCheck],
    ] as const) {
      const text = readFileSync(file, "utf8");
      baseline.check(file, text); // the first check loads the program: an editor pays it once
      for (let e = 1; e <= BASELINE_EDITS; e++) {
        parse.push(baseline.parse(file, edit(text, e)) / 1000);
        check.push(baseline.check(file, edit(text, e)) / 1000);
      }
    }
  }
  return costs;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

function range(values: readonly number[], unit: (v: number) => string): string {
  return `${unit(Math.min(...values))}–${unit(Math.max(...values))}`;
}

function verdict(ok: boolean, target: string): string {
  return ok ? `ok (target ${target})` : `OVER target ${target}`;
}

function format(
  workspace: BenchWorkspace,
  cold: ColdStart[],
  rounds: Round[],
  memory: { rss: number[]; heap: number[] },
  findings: number,
  ts: TypeScriptCosts,
): string {
  const { rss, heap } = memory;
  const all = (pick: (r: Round) => number[]) => rounds.flatMap(pick);
  const perRound = (pick: (r: Round) => number[], p: number) => rounds.map((r) => percentile(pick(r), p));
  const runtimeP95 = percentile(
    all((r) => r.runtimeMs),
    95,
  );
  const plainP95 = percentile(
    all((r) => r.plainMs),
    95,
  );
  const checkP95 = percentile(ts.runtimeCheck, 95);
  const checkP50 = percentile(ts.runtimeCheck, 50);
  const coldMax = Math.max(...cold.map((c) => c.wallMs));
  const rssMax = Math.max(...rss);
  const lines = [
    `\nAnalyzer over LSP: bundled server, ${workspace.fileCount} files / ${Math.round(workspace.lineCount / 1000)}k lines, ` +
      `${ROUNDS} rounds × (${EDITS_PER_FILE} edits of a runtime-using file + ${EDITS_PER_FILE} of a plain file); server CPU per edit`,
    `  runtime-using file  p50 ${ms(
      percentile(
        all((r) => r.runtimeMs),
        50,
      ),
    )} (rounds ${range(
      perRound((r) => r.runtimeMs, 50),
      ms,
    )})` +
      `  p95 ${ms(runtimeP95)} (rounds ${range(
        perRound((r) => r.runtimeMs, 95),
        ms,
      )})  ${verdict(runtimeP95 <= TARGETS.runtimeP95Ms, `≤ ${TARGETS.runtimeP95Ms} ms`)}`,
    `    vs TypeScript's own check of that file: p50 ${ms(checkP50)}, p95 ${ms(checkP95)} → p95 ratio ${(runtimeP95 / checkP95).toFixed(2)}×, ` +
      `p50 ratio ${(
        percentile(
          all((r) => r.runtimeMs),
          50,
        ) / checkP50
      ).toFixed(2)}×  ${verdict(runtimeP95 / checkP95 <= TARGETS.runtimeVsCheck, `≤ ${TARGETS.runtimeVsCheck}×`)}`,
    `    TypeScript's parse of that file: p50 ${ms(percentile(ts.runtimeParse, 50))}, p95 ${ms(percentile(ts.runtimeParse, 95))}`,
    `  plain file          p50 ${ms(
      percentile(
        all((r) => r.plainMs),
        50,
      ),
    )} (rounds ${range(
      perRound((r) => r.plainMs, 50),
      ms,
    )})` +
      `  p95 ${ms(plainP95)} (rounds ${range(
        perRound((r) => r.plainMs, 95),
        ms,
      )})  ${verdict(plainP95 <= TARGETS.plainP95Ms, `≤ ${TARGETS.plainP95Ms} ms`)}`,
    `    TypeScript on that file: parse p50 ${ms(percentile(ts.plainParse, 50))}, full check p50 ${ms(percentile(ts.plainCheck, 50))}, p95 ${ms(percentile(ts.plainCheck, 95))}`,
    `  cold start to first diagnostics: ${range(
      cold.map((c) => c.wallMs),
      (v) => `${(v / 1000).toFixed(2)} s`,
    )} wall, ` +
      `${range(
        cold.map((c) => c.cpuMs),
        (v) => `${(v / 1000).toFixed(2)} s`,
      )} server CPU; progress shown: ${cold.every((c) => c.progressShown) ? "yes" : "no"}  ` +
      verdict(coldMax <= TARGETS.coldStartMs && cold.every((c) => c.progressShown), `≤ ${TARGETS.coldStartMs / 1000} s, with progress`),
    `  server RSS over ${rss.length} edits: ${Math.round(Math.min(...rss))}–${Math.round(rssMax)} MB (last ${Math.round(rss[rss.length - 1]!)} MB)  ` +
      verdict(rssMax <= TARGETS.rssMb, `≤ ${TARGETS.rssMb} MB`) +
      `; JS heap in use ${Math.round(Math.min(...heap))}–${Math.round(Math.max(...heap))} MB`,
    `  (diagnostics on the edited runtime file: ${findings}; figures are CPU time of the server process, not wall time)`,
  ];
  return lines.join("\n");
}
