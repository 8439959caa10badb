// The export under the SDK's sampler, chosen only through OTEL_TRACES_SAMPLER (and _ARG) in a real
// program exporting over OTLP/HTTP to a receiver on 127.0.0.1: what the sampler drops is never
// sent, nothing fails, a sampled trace arrives whole, and for a dropped trace HookLens starts no
// span past its root and the first call (it checks the root's isRecording() and stops there).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { startReceiver, type OtlpSpan, type Receiver } from "./otlpReceiver.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/sampledSessions.mts", import.meta.url));
const SESSIONS = 24;
const CALLS = 5;
/** Per sampled session: the root and one span per call. */
const SPANS_PER_TRACE = 1 + CALLS;

// The bound only stops a hung child (a loaded machine can take seconds to start one).
const CHILD_LIMIT_MS = 170_000;

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function run(sampler: Record<string, string>): Promise<{ spans: OtlpSpan[]; requests: number; asked: { started: number; recording: number } }> {
  const otlp = await startReceiver();
  receivers.push(otlp);
  const env: NodeJS.ProcessEnv = { ...process.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlp.url };
  delete env["OTEL_TRACES_SAMPLER"];
  delete env["OTEL_TRACES_SAMPLER_ARG"];
  Object.assign(env, sampler);
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [bundledFixture(PROGRAM), String(SESSIONS), String(CALLS)], { cwd: REPO_ROOT, env, timeout: CHILD_LIMIT_MS }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
  expect(code, stderr).toBe(0);
  expect(stderr).toBe("");
  const asked = JSON.parse(stdout.trim().split("\n").pop()!) as { started: number; recording: number };
  return { spans: otlp.spans(), requests: otlp.requests.length, asked };
}

/** The arrived spans grouped by trace: each must be one whole session (its root and every call under it). */
function wholeTraces(spans: readonly OtlpSpan[]): number {
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const span of spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
  for (const trace of byTrace.values()) {
    const root = trace.filter((s) => s.name === "session");
    expect(root).toHaveLength(1);
    const calls = trace.filter((s) => s.name === "execute_tool add");
    expect(calls).toHaveLength(CALLS);
    for (const call of calls) expect(call.parentSpanId).toBe(root[0]!.spanId);
  }
  return byTrace.size;
}

describe("OTEL_TRACES_SAMPLER decides what is exported", () => {
  it("unset (the SDK's parentbased_always_on): every session arrives whole — the control for the cases below", async () => {
    const { spans, asked } = await run({});
    expect(wholeTraces(spans)).toBe(SESSIONS);
    expect(asked).toEqual({ started: SESSIONS * SPANS_PER_TRACE, recording: SESSIONS * SPANS_PER_TRACE });
  });

  it.each<Record<string, string>>([{ OTEL_TRACES_SAMPLER: "always_off" }, { OTEL_TRACES_SAMPLER: "parentbased_always_off" }, { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }])(
    "%o: nothing is sent, the program runs and exits cleanly, and HookLens stops at each root",
    async (sampler) => {
      const { requests, asked } = await run(sampler);
      expect(requests).toBe(0);
      // Per session: the root, and the span of the call that created it; nothing after the root said it does not record.
      expect(asked).toEqual({ started: SESSIONS * 2, recording: 0 });
    },
  );

  it("traceidratio 0.5: some sessions are sampled, each arrives whole, the others cost two non-recording spans", async () => {
    const { spans, asked } = await run({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.5" });
    const sampled = wholeTraces(spans);
    // 24 sessions at 0.5: all or none sampled has a chance of 2 in 16 million.
    expect(sampled).toBeGreaterThan(0);
    expect(sampled).toBeLessThan(SESSIONS);
    expect(asked).toEqual({ started: sampled * SPANS_PER_TRACE + (SESSIONS - sampled) * 2, recording: sampled * SPANS_PER_TRACE });
  });
});
