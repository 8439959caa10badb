// A recording as the runtime really writes it, with a gap (signals dropped past the pending-work
// bound while another process held the file) and every kind of refused call, read back by both
// readers users have: `hooklens show` (the built CLI) and the Signals view (its recording reader
// and labels). Each must show the gap as "N signals dropped here" and each refusal with its tool,
// call id, reason and the hook that decided.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BranchTools,
  Executor,
  GuardrailHook,
  Hook,
  HookPoint,
  SIGNALS_DROPPED_KIND,
  Session,
  ShortCircuit,
  SqliteSignalStore,
  Tool,
  ToolCallAction,
  ToolInvocation,
  configureSignals,
  createRunContext,
  runBefore,
  type ToolSpec,
} from "@hooklens/runtime";
import { readRecordedSession } from "../../../client/src/signals/recordingReader.js";
import { readSignal } from "../../../client/src/signals/model/signalFacts.js";
import { SessionModel } from "../../../client/src/signals/model/sessionModel.js";
import { builtCli } from "../../helpers/builtCli.js";
import { captureLogs } from "../../helpers/captureLogs.js";
import { createTempDir } from "../../helpers/tempDir.js";

const BURST = 300;
const DENIAL_KINDS = ["ToolCallBlocked", "GateDenied", "GuardrailBlock", "HookShortCircuit"];
let temp: ReturnType<typeof createTempDir>;
let db: string;
let session: Session;
/** Signals the gap stands for, as the store counted them. */
let dropped = 0;

const spec = (name: string): ToolSpec => ({ name, kind: name, confirm: false, cacheable: false, schema: null });

beforeAll(async () => {
  temp = createTempDir("hooklens-gaps-denials-");
  db = temp.path("signals.db");
  const store = await SqliteSignalStore.open(db);
  session = new Session();
  void session.hooks; // the bus exists before the branch joins
  session.observer.bindDbPersistence(session.id, store);
  const branch = session.newBranch();
  branch.registerTools(new Tool({ funcCallable: () => "done", name: "deleteFile" }));
  const { restore } = captureLogs(); // the drop report and the guardrail's warning
  try {
    // 1. A gap: another process holds the file and the pending-work bound is small.
    mkdirSync(`${db}.lock`);
    const previous = configureSignals({ maxPendingBytes: 8_000 });
    try {
      for (let i = 0; i < BURST; i++) await session.emit({ i });
      await new Promise((resolve) => setImmediate(resolve)); // the end-of-turn flush
    } finally {
      configureSignals(previous);
      rmdirSync(`${db}.lock`);
    }
    dropped = store.droppedWrites;
    // 2. A TOOL_PRE guard that blocks.
    session.hooks.on(HookPoint.TOOL_PRE, function noDeletes(payload) {
      if (payload.toolName === "deleteFile") throw new Error("deleting is not allowed");
    });
    await expect(branch.act({ function: "deleteFile", arguments: { path: "/etc/passwd" } })).rejects.toThrow("deleting is not allowed");
    // 3. The observer's gate.
    session.gate(function onlyReads(subject) {
      return !(subject instanceof ToolCallAction && subject.function === "deleteFile");
    });
    await branch.act({ function: "deleteFile", arguments: { path: "drafts/a.txt" } });
    session.gate(null);
    // 4. A guardrail and 5. a middleware ShortCircuit, recorded through the run context.
    const ctx = createRunContext({ signals: session });
    const guardrail = new GuardrailHook(() => "looks like a password");
    await expect(runBefore([guardrail], "beforeTool", new ToolInvocation(spec("lookup"), { id: "call-guard", name: "lookup", arguments: { q: "pw" } }, ctx))).rejects.toThrow();
    class Cached extends Hook {
      override name = "cached";
      override beforeTool(): ShortCircuit {
        return new ShortCircuit("from cache");
      }
    }
    await runBefore([new Cached()], "beforeTool", new ToolInvocation(spec("search"), { id: "call-cached", name: "search", arguments: {} }, ctx));
    // 6. A flow node a middleware hook skipped: no tool and no model call.
    class Replay extends Hook {
      override name = "replay";
      override beforeNode(): ShortCircuit {
        return new ShortCircuit({ topic: "billing" });
      }
    }
    const executor = new Executor(new BranchTools(branch), { hooks: [new Replay()] });
    await executor.runNode("support", { name: "classify", run: () => ({ topic: "?" }) }, {}, executor.context({ signals: session }));
    await session.observer.flush();
  } finally {
    restore();
    store.close();
  }
});
afterAll(() => temp.dispose());

describe("a recording with a gap and refused calls", () => {
  it("was written with a gap: some of the burst kept, the rest counted in one marker", async () => {
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThan(BURST);
    const store = await SqliteSignalStore.open(db, { readOnly: true });
    try {
      const rows = store.listSessionSignals(session.id);
      const markers = rows.filter((r) => r.kind === SIGNALS_DROPPED_KIND);
      expect(markers.map((m) => m.payload["count"])).toEqual([dropped]);
      expect(rows.filter((r) => r.kind === "Signal" && typeof (r.payload["data"] as { i?: unknown })?.i === "number")).toHaveLength(BURST - dropped);
    } finally {
      store.close();
    }
  });

  it("hooklens show prints the gap and each refusal with its tool, call id, reason and hook", () => {
    const { status, stdout, stderr } = spawnSync(process.execPath, [builtCli(), "show", session.id, "--db", db], { encoding: "utf8", env: { ...process.env, HOOKLENS_DB: "" } });
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const lines = stdout.split("\n");
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\S+ {2}${dropped} signals dropped here \\(more than 8,000 bytes of signals waiting to be written\\)$`)));
    const uuid = "[0-9a-f-]{36}";
    for (const pattern of [
      `ToolCallBlocked +- +deleteFile blocked by tool\\.pre:noDeletes \\(call ${uuid}\\): deleting is not allowed$`,
      `GateDenied +- +deleteFile denied by observer\\.gate:onlyReads \\(call ${uuid}\\): the gate returned false$`,
      `GuardrailBlock +- +lookup blocked by guardrail\\.beforeTool \\(call call-guard\\): looks like a password$`,
      `HookShortCircuit +- +search skipped by cached\\.beforeTool \\(call call-cached\\)$`,
      `HookShortCircuit +- +flow node support/classify skipped by replay\\.beforeNode$`,
    ]) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(pattern)));
    }
  });

  it("the Signals view shows the gap where it is and each refusal in words, with its reason and hook", async () => {
    const { frames, skipped } = await readRecordedSession(db, session.id);
    expect(skipped).toBe(0);
    const facts = frames.map(readSignal);
    expect(facts.map((f) => f.label)).toContain(`${dropped} signals dropped here`);
    // The marker sits after the part of the burst that was kept, before the calls that followed.
    const gapAt = facts.findIndex((f) => f.droppedCount !== null);
    expect(facts.slice(0, gapAt).some((f) => f.kindKey === "ToolCallStarted")).toBe(false);
    // The refusals' own signals (each call's ToolCallFinished says "denied" as well).
    const denials = facts.filter((f) => DENIAL_KINDS.includes(f.kindKey)).map((f) => [f.label, f.toolName, f.call?.callId !== undefined, f.detail, f.hook]);
    expect(denials).toEqual([
      ["deleteFile — blocked by noDeletes: deleting is not allowed", "deleteFile", true, "deleting is not allowed", "tool.pre:noDeletes"],
      ["deleteFile — denied by the observer gate", "deleteFile", true, "the gate returned false", "observer.gate:onlyReads"],
      ["lookup — blocked by guardrail.beforeTool: looks like a password", "lookup", true, "looks like a password", "guardrail.beforeTool"],
      ["search — skipped by cached.beforeTool", "search", true, "skipped by a ShortCircuit from cached.beforeTool", "cached.beforeTool"],
      ["flow node support/classify — skipped by replay.beforeNode", null, false, "skipped by a ShortCircuit from replay.beforeNode", "replay.beforeNode"],
    ]);
    const model = new SessionModel(session.id);
    for (const frame of frames) model.add(frame);
    expect(model.droppedSignals).toBe(dropped);
    expect(model.deniedRows).toBeGreaterThanOrEqual(3);
  });
});
