// Issue 14's leak cases: secrets of every form planted in signal payloads, act() arguments,
// LoggingHook arguments and endpoint traffic must not reach any sink — the SQLite file on disk,
// the live socket's frames, `hooklens show`, LoggingHook lines, endpoint errors. Real parts
// throughout: a SQLite file, a Unix socket server, the built CLI, pino, an HTTP server on
// 127.0.0.1. A visible marker planted beside the secrets proves each sink really got the data.
import { spawnSync } from "node:child_process";
import { inspect } from "node:util";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Executor,
  HookPoint,
  Message,
  HookSignal,
  LoggingHook,
  OpenAIChatEndpoint,
  Session,
  setLogger,
  setSessionStateStore,
  Signal,
  SqliteSignalStore,
  Tool,
  act,
  flushLive,
  type ToolArgs,
} from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { captureLiveFrames, databaseFileBytes } from "../../helpers/secretSinks.js";
import { memoryTracing } from "../otel/support.js";
import { builtCli } from "../../helpers/builtCli.js";
import { leaksIn, plantedCases, FORM_NAMES, type PlantedCase } from "../../helpers/plantedSecrets.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { SqliteStateStore } from "../../helpers/sqliteStateStore.js";
import { branchTools } from "../middleware/support.js";
import { sendJson, startServer, type TestServer } from "../service/httpServer.js";

const SEED = 20261201;
const MARKER = "visible-marker-7q";
const cases = plantedCases(SEED, FORM_NAMES.length * 8);

describe("planted secrets through the signal pipeline", () => {
  const temp = createTempDir("hooklens-leaks-");
  const dbPath = temp.path("signals.db");
  let live: Awaited<ReturnType<typeof captureLiveFrames>>;
  let sessionId = "";
  const tracing = memoryTracing();

  beforeAll(async () => {
    live = await captureLiveFrames(temp.path("live.sock"));

    const store = await SqliteSignalStore.open(dbPath);
    const session = new Session();
    sessionId = session.id;
    session.observer.bindDbPersistence(sessionId, store);
    const otel = exportToOpenTelemetry(session, { tracer: tracing.provider.getTracer("leaks"), captureContent: true });
    const branch = session.newBranch();
    branch.registerTools(new Tool({ funcCallable: (args: ToolArgs) => ({ echoed: args }), name: "echo" }));
    session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
    for (const [i, planted] of cases.entries()) {
      const payload = { marker: MARKER, case: i, planted: planted.value };
      await branch.emit(new HookSignal(HookPoint.TOOL_PRE, payload));
      await branch.emit(new Signal({ data: payload }));
      // act(): the arguments reach the ToolCallAction, the FunctionCalling signal, TOOL_PRE's summary and the messages.
      await act(branch, { function: "echo", arguments: { marker: MARKER, planted: planted.value } });
    }
    await session.observer.flush();
    await otel.end();
    await flushLive();
    await new Promise((resolve) => setTimeout(resolve, 200));
    store.close();
  });

  afterAll(async () => {
    await live.close();
    temp.dispose();
  });

  it("the SQLite file (and anything beside it) holds none of them", () => {
    const bytes = databaseFileBytes(temp.dir, "signals.db");
    expect(bytes).toContain(MARKER);
    expect(leaksIn(bytes, cases)).toEqual([]);
  });

  it("the live socket's frames hold none of them", () => {
    expect(live.bytes()).toContain(MARKER);
    expect(leaksIn(live.bytes(), cases)).toEqual([]);
  });

  it("the OpenTelemetry spans (attributes, events, captured content) hold none of them", () => {
    const spans = JSON.stringify(
      tracing.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
    );
    expect(spans).toContain(MARKER);
    expect(leaksIn(spans, cases)).toEqual([]);
  });

  it("hooklens show prints none of them, as text or JSON", () => {
    const cli = builtCli();
    for (const format of ["text", "json"]) {
      const { status, stdout, stderr } = spawnSync(process.execPath, [cli, "show", sessionId, "--db", dbPath, "--format", format], {
        encoding: "utf8",
        env: { ...process.env, HOOKLENS_DB: "" },
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(stderr).toBe("");
      expect(status).toBe(0);
      expect(stdout).toContain(format === "json" ? MARKER : "marker");
      expect(leaksIn(stdout, cases)).toEqual([]);
    }
  });
});

describe("planted secrets in LoggingHook arguments", () => {
  it("no log line carries them, and every tool call succeeds", async () => {
    let output = "";
    const logger = pino(
      { level: "debug" },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          output += chunk.toString();
          done();
        },
      }),
    );
    const executor = new Executor(branchTools({ name: "search", fn: () => "ok" }).tools, { hooks: [new LoggingHook({ logger })] });
    for (const planted of cases) {
      const result = await executor.callTool({ name: "search", arguments: { marker: MARKER, planted: planted.value } }, executor.context());
      expect(result.status).toBe("ok");
    }
    expect(output).toContain(MARKER);
    expect(leaksIn(output, cases)).toEqual([]);
  });
});

describe("planted secrets in endpoint traffic", () => {
  let http: TestServer;
  beforeAll(async () => {
    // Echoes everything it received — headers and body — in the error it answers with.
    http = await startServer((req, res) => {
      sendJson(res, 400, { error: { message: `bad request ${req.body} ${JSON.stringify(req.headers)}` } });
    });
  });
  afterAll(() => http.close());

  const errorText = (error: unknown): string => {
    const { message, body, stack } = error as { message?: string; body?: string; stack?: string };
    return [message, body, stack, inspect(error, { depth: 8, showHidden: true })].join("\n");
  };

  it("errors carry no secret from the request payload, though the server quotes the request back", async () => {
    const endpoint = new OpenAIChatEndpoint({ baseUrl: http.baseUrl, apiKey: null });
    const leaks: string[] = [];
    for (const planted of cases.slice(0, 66)) {
      const request = { messages: [{ role: "user", content: MARKER }], metadata: planted.value };
      const error = await endpoint.call({ request }).catch((e: unknown) => e);
      expect(errorText(error)).toContain(MARKER);
      leaks.push(...leaksIn(errorText(error), [planted]));
    }
    expect(leaks).toEqual([]);
  });

  it("errors carry no form of the credentials the endpoint was given", async () => {
    const key = plantedCases(SEED + 1, 1)[0]!.secrets[0]!;
    const credentialCase: PlantedCase[] = [{ form: "endpoint key", value: null, secrets: [key] }];
    const endpoints = [
      new OpenAIChatEndpoint({ baseUrl: http.baseUrl, apiKey: `${key}\n` }),
      new OpenAIChatEndpoint({ baseUrl: http.baseUrl, apiKey: null, headers: { "api-key": key } }),
      new OpenAIChatEndpoint({ baseUrl: http.baseUrl.replace("http://", `http://svc:${key}@`), apiKey: null }),
    ];
    for (const endpoint of endpoints) {
      const error = await endpoint.call({ request: { marker: MARKER } }).catch((e: unknown) => e);
      expect(errorText(error)).toContain(MARKER);
      expect(leaksIn(errorText(error) + inspect(endpoint), credentialCase)).toEqual([]);
    }
  });
});

describe("planted secrets in the runtime's own log lines", () => {
  it("a failing tool's error and a verbose action's output are logged without them", async () => {
    const lines: string[] = [];
    const capture = (level: string) => (obj: unknown, msg?: string) => lines.push(`${level} ${inspect(obj, { depth: 12 })} ${msg ?? ""}`);
    const previous = setLogger({ debug: capture("debug"), info: capture("info"), warn: capture("warn"), error: capture("error") });
    try {
      const branch = new Session().newBranch();
      let next = 0;
      branch.registerTools([
        new Tool({ name: "fails", funcCallable: () => { throw new Error(`${MARKER} upstream said: ${inspect(cases[next]!.value, { depth: 12 })}`); } }),
        new Tool({ name: "returns", funcCallable: () => ({ marker: MARKER, planted: cases[next]!.value }) }),
      ]);
      for (next = 0; next < cases.length; next++) {
        await act(branch, { function: "fails", arguments: {} }, { suppressErrors: true });
        await act(branch, { function: "returns", arguments: {} }, { verboseAction: true });
      }
    } finally {
      setLogger(previous);
    }
    const output = lines.join("\n");
    expect(output).toContain(MARKER);
    // Rendered with inspect, a Map or a Set loses the shapes the rules read; the forms that stay text must not leak.
    const textForms = cases.filter((c) => typeof c.value === "string" || c.value instanceof Error);
    expect(leaksIn(output, textForms)).toEqual([]);
  });
});

describe("planted secrets in session state rows and messages", () => {
  it("the built-in persistence handlers write none of them to a SQLite state store", async () => {
    const temp = createTempDir("hooklens-state-leaks-");
    const store = await SqliteStateStore.open(temp.path("state.db"));
    const previous = setSessionStateStore(store);
    try {
      const session = new Session();
      // Text columns get the forms that are text; data columns (error, message) get every form.
      const text = (value: unknown): string => (typeof value === "string" ? value : "plain");
      for (const [i, planted] of cases.entries()) {
        const sessionId = `${session.id}-${i}`;
        store.createSession(sessionId);
        // Every default handler the Session bus starts with, through the bus as a program runs them.
        await session.hooks.emit(HookPoint.SESSION_START, { sessionId, agentName: `${MARKER} ${text(planted.value)}`, model: text(planted.value) });
        await session.hooks.emit(HookPoint.BRANCH_CREATE, { branchId: `b-${i}`, agentName: text(planted.value) });
        const message = new Message({ role: i % 2 ? "system" : "user", content: { marker: MARKER, planted: planted.value }, metadata: { planted: planted.value } });
        await session.hooks.blockingEmit(HookPoint.MESSAGE_ADD, { message, sessionId, branchId: `b-${i}`, branchProgressionId: `p-${i}` } as never);
        await session.hooks.emit(HookPoint.SESSION_END, { sessionId, status: "failed", error: planted.value });
      }
      const rows = ["sessions", "branches", "messages"].map((table) => JSON.stringify(store.rows(table))).join("\n");
      expect(rows).toContain(MARKER);
      expect(rows).toContain('"error"');
      store.close();
      const bytes = databaseFileBytes(temp.dir, "");
      expect(bytes).toContain(MARKER);
      expect(leaksIn(bytes, cases)).toEqual([]);
    } finally {
      setSessionStateStore(previous);
      temp.dispose();
    }
  });
});

describe("a payload nested 20,000 levels deep", () => {
  it("goes through the pipeline to SQLite without throwing, its secret masked", async () => {
    const temp = createTempDir("hooklens-deep-");
    try {
      const store = await SqliteSignalStore.open(temp.path("deep.db"));
      const session = new Session();
      session.observer.bindDbPersistence(session.id, store);
      let deep: Record<string, unknown> = { password: "s3cr3t-at-the-bottom" };
      for (let i = 0; i < 20_000; i++) deep = { next: deep };
      await session.emit(new Signal({ data: { marker: MARKER, deep, apiKey: "s3cr3t-at-the-top" } }));
      await session.observer.flush();
      const [record] = store.listSessionSignals(session.id);
      store.close();
      const text = JSON.stringify(record);
      expect(text).toContain(MARKER);
      expect(text).not.toContain("s3cr3t-at-the-top");
      expect(text).not.toContain("s3cr3t-at-the-bottom");
    } finally {
      temp.dispose();
    }
  });
});
