/**
 * A small agent run on the Session bus: two tools, a guard on TOOL_PRE that blocks a
 * destructive call, telemetry on TOOL_POST / TOOL_ERROR — and one handler on a dormant point,
 * which never runs (HookLens flags it as HL001).
 */
import { randomUUID } from "node:crypto";
import { HookBus, HookPoint, HookSignal, SessionObserver, toJsonSafe } from "@hooklens/runtime";

type ToolFn = (args: Record<string, unknown>) => unknown;

const tools: Record<string, ToolFn> = {
  search: ({ query }) => [`${String(query)}: result one`, `${String(query)}: result two`],
  deleteFile: ({ path }) => `deleted ${String(path)}`,
  divide: ({ a, b }) => {
    if (b === 0) throw new RangeError("division by zero");
    return Number(a) / Number(b);
  },
};

const observer = new SessionObserver();
const bus = new HookBus(observer);

// A guard: TOOL_PRE is blocking, so throwing here stops the call.
bus.on(HookPoint.TOOL_PRE, ({ toolName, argsSummary }) => {
  if (toolName === "deleteFile" && argsSummary.includes('"/')) throw new Error(`refusing to delete an absolute path: ${argsSummary}`);
});
bus.on(HookPoint.TOOL_ERROR, ({ toolName, error }) => console.log(`  ! ${toolName} failed: ${String(error)}`));
// Dormant: nothing emits API_PRE_CALL, so this never runs (HL001).
bus.on(HookPoint.API_PRE_CALL, () => console.log("  (this line is never printed)"));

const summary = (value: unknown) => (JSON.stringify(toJsonSafe(value)) ?? "null").slice(0, 200);

async function callTool(toolName: string, args: Record<string, unknown>): Promise<unknown> {
  const callId = randomUUID();
  await bus.emit(HookPoint.TOOL_PRE, { toolName, callId, argsSummary: summary(args) });
  const started = performance.now();
  try {
    const result = tools[toolName]!(args);
    await bus.emit(HookPoint.TOOL_POST, { toolName, callId, resultSummary: summary(result), duration: (performance.now() - started) / 1000 });
    return result;
  } catch (error) {
    await bus.emit(HookPoint.TOOL_ERROR, { toolName, callId, error, duration: null });
    return undefined;
  }
}

export async function runAgent(): Promise<HookSignal[]> {
  await bus.emit(HookPoint.SESSION_START, { sessionId: observer.sessionId, model: "scripted" });
  for (const [tool, args] of [
    ["search", { query: "hook semantics" }],
    ["divide", { a: 1, b: 0 }],
    ["deleteFile", { path: "/etc/passwd" }],
    ["deleteFile", { path: "notes/tmp.txt" }],
  ] as const) {
    try {
      const result = await callTool(tool, args);
      console.log(`→ ${tool}(${summary(args)}) = ${result === undefined ? "(failed)" : summary(result)}`);
    } catch (error) {
      console.log(`→ ${tool} blocked: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await bus.emit(HookPoint.SESSION_END, { sessionId: observer.sessionId, status: "completed" });
  return observer.byType(HookSignal);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const signals = await runAgent();
  console.log(`\nSignals recorded by the session observer (${signals.length}):`);
  for (const signal of signals) console.log(`  ${signal.point?.padEnd(14)} ${summary(signal.payload)}`);
}
