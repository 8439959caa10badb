import { getHeapStatistics } from "node:v8";
import type { Connection } from "vscode-languageserver/node";
import { compileCacheWrite } from "../compileCache.js";
import { idleWorkPending } from "../whenIdle.js";

/** Set to "1" in the server's environment to let a benchmark read the server's own CPU and memory. */
export const BENCH_PROBE_ENV = "HOOKLENS_BENCH_PROBE";
export const BENCH_PROBE_METHOD = "hooklens/benchProbe";

/** What the probe answers: cumulative CPU of the whole server process, and its memory now. */
export interface BenchProbeReading {
  cpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** The V8 heap limit the process runs under (set by the launch flags). */
  heapLimitBytes: number;
  /** The Node and V8 flags the process runs with (`process.execArgv`). */
  execArgv: string[];
  /** Analyses run since the server started (cache misses): what a burst of edits really cost. */
  analyses: number;
  /** Whether the compile cache this start writes (deferred until the server is idle) is written yet; "none" when it loaded one. */
  compileCacheWrite: "none" | "pending" | "written";
  /** Writes deferred until the server is idle (the compile cache, import lists) not done yet. */
  idleWorkPending: number;
}

/**
 * A custom request for `npm run bench` only (never registered unless the environment asks): the
 * bench reads the server's CPU before and after an edit, so it measures the server's own work
 * rather than the wall clock of a loaded machine.
 */
export function registerBenchProbe(connection: Connection, analysisCount: () => number): void {
  if (process.env[BENCH_PROBE_ENV] !== "1") return;
  connection.onRequest(BENCH_PROBE_METHOD, (): BenchProbeReading => {
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    return {
      cpuMicros: cpu.user + cpu.system,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapLimitBytes: getHeapStatistics().heap_size_limit,
      execArgv: process.execArgv,
      analyses: analysisCount(),
      compileCacheWrite: compileCacheWrite(),
      idleWorkPending: idleWorkPending(),
    };
  });
}
