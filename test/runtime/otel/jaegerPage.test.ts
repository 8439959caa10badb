// The "Seeing a run in Jaeger" steps of docs/runtime/otel.md, run as written except for the
// container: the page's instrumentation.mjs, copied from the page, registers the SDK; the page's
// example runs under `HOOKLENS_OTEL=1 node --import ./instrumentation.mjs`; an OTLP/HTTP receiver on
// 127.0.0.1 stands in for Jaeger (reached through OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, one of the
// variables the page lists). What arrives must be the tree the page shows, under the page's service name.
import { execFile } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { testTempDir } from "../../helpers/tempDir.js";
import { startReceiver, type OtlpSpan } from "./otlpReceiver.js";

const PAGE = readFileSync(join(REPO_ROOT, "docs/runtime/otel.md"), "utf8");

/** The page's fenced block that starts with `first`. */
function block(first: string): string {
  const found = [...PAGE.matchAll(/```(?:text|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => text.startsWith(first));
  if (found === undefined) throw new Error(`docs/runtime/otel.md has no block starting with ${first}`);
  return found;
}

/** Received spans printed as the page's example prints its in-memory spans. */
function printed(spans: readonly OtlpSpan[]): string {
  const lines: string[] = [];
  const ids = new Set(spans.map((s) => s.spanId));
  const children = (parent: string | null) =>
    spans.filter((s) => (s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : null) === parent).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  const print = (span: OtlpSpan, depth: number): void => {
    const status = span.status?.code === 2 ? `  ERROR: ${span.status.message}` : "";
    const events = span.events?.length ? `  [${span.events.map((e) => e.name).join(", ")}]` : "";
    lines.push(`${"  ".repeat(depth)}${span.name}${status}${events}`);
    for (const child of children(span.spanId)) print(child, depth + 1);
  };
  for (const root of children(null)) print(root, 0);
  return `${lines.join("\n")}\n`;
}

describe("the Jaeger page's steps, with a local OTLP receiver for Jaeger", () => {
  it("the page's instrumentation and HOOKLENS_OTEL=1 deliver the example's run as the tree the page shows", async () => {
    const receiver = await startReceiver();
    try {
      const dir = testTempDir("hooklens-jaeger-page-");
      // The SDK packages resolve from the repository's node_modules, as from a project's own.
      symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      writeFileSync(join(dir, "instrumentation.mjs"), block("// instrumentation.mjs"));
      const env = { ...process.env, HOOKLENS_OTEL: "1", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url };
      const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(process.execPath, ["--import", join(dir, "instrumentation.mjs"), "--import", "tsx", "examples/otel/spanTree.ts"], { cwd: REPO_ROOT, env, timeout: 170_000 }, (error, _stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stderr }),
        );
      });
      expect(code, stderr).toBe(0);

      const services = receiver.requests.flatMap((r) => r.resourceSpans.map((rs) => rs.resource?.attributes.find((a) => a.key === "service.name")?.value.stringValue));
      expect(new Set(services)).toEqual(new Set(["support-agent"]));
      const scopes = receiver.requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.map((s) => s.scope.name)));
      expect(new Set(scopes)).toEqual(new Set(["@hooklens/runtime"]));
      // The page's example prints its own in-memory copy; the backend gets the same tree.
      expect(printed(receiver.spans())).toBe(block("session\n"));
    } finally {
      await receiver.close();
    }
  });
});
