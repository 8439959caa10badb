// What a bundler can break and the sources cannot show: this suite also runs against the built
// ESM and CJS files (the dist projects of vitest.config.ts), where `@hooklens/runtime` and its
// `/live` and `/store` subpaths resolve to the bundles a user installs.
import { describe, expect, it } from "vitest";
import * as runtime from "@hooklens/runtime";
import * as live from "@hooklens/runtime/live";
import * as store from "@hooklens/runtime/store";
import * as aiSdk from "@hooklens/runtime/ai-sdk";
import * as claude from "@hooklens/runtime/claude-agent-sdk";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import * as openaiAgents from "@hooklens/runtime/openai-agents";
import { Agent, Runner, setTraceProcessors, setTracingDisabled } from "@openai/agents";
import { ScriptedModel, scriptedProvider } from "../openai-agents/scriptedModel.js";

type Exported = Record<string, unknown>;
const root = runtime as unknown as Exported;

/** Exported classes derived from `base` (the base itself included). */
function classesOf(base: abstract new (...args: never[]) => unknown): Array<[string, { name: string; kind?: string }]> {
  return Object.entries(root).filter(
    (entry): entry is [string, { name: string; kind?: string }] =>
      typeof entry[1] === "function" && (entry[1] === base || (entry[1] as { prototype?: unknown }).prototype instanceof base),
  );
}

describe("the package's subpaths", () => {
  it("are the files this project means to test (Node loads a CommonJS bundle with its module.exports as default)", () => {
    const project = process.env["HOOKLENS_TEST_RUNTIME"] ?? "source";
    const loadedAsCommonJs = "default" in runtime && (root["default"] as Exported)["Session"] === runtime.Session;
    expect(loadedAsCommonJs).toBe(project === "dist-cjs");
  });

  it.each([
    ["@hooklens/runtime/live", live as unknown as Exported],
    ["@hooklens/runtime/store", store as unknown as Exported],
  ])("%s exports the very objects the root exports, under the same names", (_subpath, module) => {
    const names = Object.keys(module);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(module[name], name).toBe(root[name]);
  });

  it("@hooklens/runtime/ai-sdk exports the very objects the root exports, under the same names", () => {
    const module = aiSdk as unknown as Exported;
    expect(Object.keys(module)).toEqual(expect.arrayContaining(["AI_SDK_TRACING_CHANNEL", "hookLensMiddleware", "observeAiSdk"]));
    for (const name of Object.keys(module)) expect(module[name], name).toBe(root[name]);
  });

  it("share module state: a default store set through /store is where a Session from the root persists", async () => {
    const records = new store.InMemorySignalStore();
    const previous = store.setDefaultSignalStore(records);
    try {
      const session = new runtime.Session();
      session.observer.bindDbPersistence(session.id);
      await session.emit({ step: 1 });
      await session.observer.flush();
      expect(records.records.map((r) => [r.kind, r.payload["data"]])).toEqual([["Signal", { step: 1 }]]);
    } finally {
      store.setDefaultSignalStore(previous);
    }
  });
});

describe("@hooklens/runtime/openai-agents", () => {
  it("records a real run with the root's own classes, into a Session made from the root", async () => {
    setTraceProcessors([]);
    setTracingDisabled(false);
    const session = new runtime.Session();
    const model = new ScriptedModel([{ text: "done" }]);
    const runner = new Runner({ modelProvider: scriptedProvider(model) });
    const bridge = openaiAgents.instrumentRunner(runner, { signals: session });
    await runner.run(new Agent({ name: "solo", model }), "go");
    bridge.detach();
    await session.observer.flush();
    const signals = session.observer.byType(runtime.Signal);
    expect(signals.map((signal) => runtime.signalKind(signal))).toEqual(["RunStart", "RunEnd"]);
    expect(signals[0]).toBeInstanceOf(runtime.RunStart);
  });
});

describe("names a bundler must not change", () => {
  it("every exported Signal class persists and streams under its own explicit kind", async () => {
    const signalClasses = classesOf(runtime.Signal);
    expect(signalClasses.map(([name]) => name)).toEqual(expect.arrayContaining(["Signal", "HookSignal", "GateDenied", "ToolCallBlocked"]));
    const records = new runtime.InMemorySignalStore();
    const observer = new runtime.SessionObserver();
    observer.bindDbPersistence("kinds", records);
    for (const [name, type] of signalClasses) {
      expect(type.kind, name).toBe(name);
      expect(type.name, name).toBe(name);
      const signal = Object.create((type as unknown as { prototype: object }).prototype) as runtime.Signal;
      Object.assign(signal, new runtime.Signal({ data: name }));
      expect(runtime.signalKind(signal), name).toBe(name);
      await observer.emit(signal);
    }
    await observer.flush();
    expect(records.records.map((r) => r.kind)).toEqual(signalClasses.map(([name]) => name));
  });

  it("every exported Error class keeps its name, and instanceof holds across subpaths", async () => {
    const errorClasses = classesOf(Error);
    expect(errorClasses.length).toBeGreaterThan(10);
    for (const [name, type] of errorClasses) expect(type.name, name).toBe(name);
    const missing = await store.SqliteSignalStore.open("/nonexistent/hooklens/none.db", { readOnly: true }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(runtime.SignalStoreMissingError);
    expect(missing).toBeInstanceOf(runtime.SignalStoreError);
    expect((missing as Error).name).toBe("SignalStoreMissingError");
  });

  it("the Claude Agent SDK bridge's signals are the root's Signal (one copy of the runtime) under their own kinds", async () => {
    const records = new runtime.InMemorySignalStore();
    const observer = new runtime.SessionObserver();
    observer.bindDbPersistence("bridge", records);
    const options = claude.withHookLens<Options>({ hooks: { Stop: [{ hooks: [async () => ({})] }] } }, { session: observer });
    await options.hooks!.Stop![0]!.hooks[0]!({ hook_event_name: "Stop" } as never, undefined, { signal: new AbortController().signal });
    await observer.flush();
    expect(observer.flow.items[0]).toBeInstanceOf(runtime.Signal);
    expect(records.records.map((r) => r.kind)).toEqual(["ClaudeHookCall"]);
    for (const type of [claude.ClaudeHookCall, claude.ClaudePermissionCall, claude.ClaudeQueryEvent]) expect(type.kind).toBe(type.name);
  });

  it("the runtime's classes keep their names (stack traces and messages quote them)", () => {
    for (const name of ["Session", "SessionObserver", "HookBus", "Branch", "Tool", "IModel", "HookRegistry", "LiveSink", "SqliteSignalStore"]) {
      expect((root[name] as { name?: string } | undefined)?.name, name).toBe(name);
    }
  });
});
