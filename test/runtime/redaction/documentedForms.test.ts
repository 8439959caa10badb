// Issue 33, item 1: every form docs/runtime/redaction.md lists (and the ten the probe found in
// clear) through every sink: the SQLite file's bytes, live frames on a real Unix socket,
// `hooklens show`, the runtime's log lines, endpoint error messages, and OpenTelemetry spans with
// and without captureContent (the SDK's in-memory exporter). A visible marker planted beside the
// secrets proves each sink really got the data.
import { spawnSync } from "node:child_process";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookPoint, HookSignal, OpenAIChatEndpoint, Session, setLogger, SqliteSignalStore, Tool, act, flushLive, type ToolArgs } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { captureLiveFrames, databaseFileBytes } from "../../helpers/secretSinks.js";
import { memoryTracing } from "../otel/support.js";
import { builtCli } from "../../helpers/builtCli.js";
import { DOCUMENTED_CASES, TEXT_CASES } from "../../helpers/documentedSecrets.js";
import { leaksIn } from "../../helpers/plantedSecrets.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { sendJson, startServer, type TestServer } from "../service/httpServer.js";

const MARKER = "visible-marker-33";
const cases = DOCUMENTED_CASES;

/** Every leaked case by form, so a failure names the forms that got through. */
const leaked = (output: string, table = cases): string[] => leaksIn(output, table).map((line) => line.slice(0, 90));

describe("every documented form through every sink", () => {
  const temp = createTempDir("hooklens-forms-");
  const dbPath = temp.path("signals.db");
  const withContent = memoryTracing();
  const withoutContent = memoryTracing();
  const logLines: string[] = [];
  let live: Awaited<ReturnType<typeof captureLiveFrames>>;
  let sessionId = "";

  beforeAll(async () => {
    live = await captureLiveFrames(temp.path("live.sock"));
    const capture = (level: string) => (obj: unknown, msg?: string) => logLines.push(`${level} ${inspect(obj, { depth: 12 })} ${msg ?? ""}`);
    const previousLogger = setLogger({ debug: capture("debug"), info: capture("info"), warn: capture("warn"), error: capture("error") });

    const store = await SqliteSignalStore.open(dbPath);
    const session = new Session();
    sessionId = session.id;
    session.observer.bindDbPersistence(sessionId, store);
    const exports = [
      exportToOpenTelemetry(session, { tracer: withContent.provider.getTracer("forms"), captureContent: true }),
      exportToOpenTelemetry(session, { tracer: withoutContent.provider.getTracer("forms") }),
    ];
    const branch = session.newBranch();
    let current: unknown = null;
    branch.registerTools([
      new Tool({ name: "echo", funcCallable: (args: ToolArgs) => ({ echoed: args }) }),
      new Tool({
        name: "fails",
        funcCallable: () => {
          // Text forms only: a structured value printed into a sentence loses the shape the rules read.
          throw new Error(`${MARKER} upstream said: ${typeof current === "string" ? current : "(data)"}`);
        },
      }),
    ]);
    try {
      for (const [i, planted] of cases.entries()) {
        current = planted.value;
        await branch.emit(new HookSignal(HookPoint.TOOL_PRE, { marker: MARKER, case: i, planted: planted.value }));
        await act(branch, { function: "echo", arguments: { marker: MARKER, planted: planted.value } }, { verboseAction: true });
        await act(branch, { function: "fails", arguments: { marker: MARKER } }, { suppressErrors: true });
      }
      await session.observer.flush();
      for (const exported of exports) await exported.end();
      await flushLive();
    } finally {
      setLogger(previousLogger);
      store.close();
    }
  });

  afterAll(async () => {
    await live.close();
    temp.dispose();
  });

  it("the SQLite file's bytes", () => {
    const bytes = databaseFileBytes(temp.dir, "signals.db");
    expect(bytes).toContain(MARKER);
    expect(leaked(bytes)).toEqual([]);
  });

  it("the live frames on the socket", () => {
    expect(live.bytes()).toContain(MARKER);
    expect(leaked(live.bytes())).toEqual([]);
  });

  it.each(["text", "json"])("hooklens show --format %s", (format) => {
    const { status, stdout, stderr } = spawnSync(process.execPath, [builtCli(), "show", sessionId, "--db", dbPath, "--format", format], {
      encoding: "utf8",
      env: { ...process.env, HOOKLENS_DB: "" },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toContain(MARKER);
    expect(leaked(stdout)).toEqual([]);
  });

  it("the runtime's log lines (a failing tool's error, a verbose action's result)", () => {
    const output = logLines.join("\n");
    expect(output).toContain(MARKER);
    // A Map or a class instance rendered by inspect inside a sentence loses the shape the rules read.
    expect(leaked(output, TEXT_CASES)).toEqual([]);
  });

  it.each([
    ["with captureContent", withContent],
    ["without captureContent", withoutContent],
  ])("OpenTelemetry spans %s", (_label, tracing) => {
    const spans = JSON.stringify(tracing.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })));
    expect(spans).toContain(MARKER);
    expect(leaked(spans)).toEqual([]);
  });
});

describe("every documented form in an endpoint's error messages", () => {
  let http: TestServer;
  beforeAll(async () => {
    // Quotes everything it received back in its error, as some servers do.
    http = await startServer((req, res) => sendJson(res, 400, { error: { message: `bad request ${req.body}` } }));
  });
  afterAll(() => http.close());

  it("an error quoting the request back carries none of them", async () => {
    const endpoint = new OpenAIChatEndpoint({ baseUrl: http.baseUrl, apiKey: null });
    const texts: string[] = [];
    for (const planted of cases) {
      const request = { messages: [{ role: "user", content: MARKER }], metadata: { planted: planted.value } };
      const error = (await endpoint.call({ request }).catch((e: unknown) => e)) as { message?: string; body?: string; stack?: string };
      texts.push([error.message, error.body, error.stack, inspect(error, { depth: 8, showHidden: true })].join("\n"));
    }
    expect(texts.join("\n")).toContain(MARKER);
    expect(leaked(texts.join("\n"))).toEqual([]);
  });
});
