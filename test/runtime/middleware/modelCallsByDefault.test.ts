// Issue 32: model calls are recorded whenever a session is active, without `signals:`. An IModel
// or Executor given no `signals` records into its tools' session or the Session made last;
// `signals: null` still records nothing, and an explicit recorder still wins.
import { describe, expect, it } from "vitest";
import { Branch, BranchTools, Executor, IModel, IModelClient, InMemorySignalStore, ModelCallFinished, ModelCallStarted, ScriptedEndpoint, Session } from "@hooklens/runtime";

const completion = (content: string) => ({ response: { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] } });
const scripted = () => new ScriptedEndpoint({ model: "m-1", script: [completion("planned"), "streamed reply"] });
const messages = [{ role: "user", content: "hello" }];

/** A session persisting to memory: what `hooklens show` and the Signals view would get. */
function recordedSession(): { session: Session; store: InMemorySignalStore } {
  const session = new Session();
  const store = new InMemorySignalStore();
  session.observer.bindDbPersistence(session.id, store);
  return { session, store };
}

async function kindsStored(session: Session, store: InMemorySignalStore): Promise<string[]> {
  await session.observer.flush();
  return store.records.map((record) => record.kind).filter((kind) => kind.startsWith("ModelCall"));
}

describe("model calls are recorded into the active session by default", () => {
  it("service scope: an IModel's invoke and stream, with no signals option", async () => {
    const { session, store } = recordedSession();
    const model = new IModel({ endpoint: scripted() });
    await model.invoke({ messages });
    for await (const _chunk of model.stream({ messages })) void _chunk;
    const started = session.observer.byType(ModelCallStarted);
    expect(started.map((signal) => [signal.source, signal.stream])).toEqual([
      ["imodel", false],
      ["imodel", true],
    ]);
    expect(session.observer.byType(ModelCallFinished).map((signal) => signal.status)).toEqual(["ok", "ok"]);
    expect(await kindsStored(session, store)).toEqual(["ModelCallStarted", "ModelCallFinished", "ModelCallStarted", "ModelCallFinished"]);
  });

  it("middleware: Executor.callLlm through its BranchTools' session, the IModel inside nested under it", async () => {
    const { session, store } = recordedSession();
    const executor = new Executor(new BranchTools(session.newBranch()), { model: new IModelClient(new IModel({ endpoint: scripted() })) });
    // A Session made later is the active one, but the executor's tools name theirs.
    const later = new Session();
    await executor.callLlm({ messages: [{ role: "user", content: "plan" }] }, executor.context({ runId: "run-1" }));
    const [outer] = session.observer.byType(ModelCallStarted);
    expect(outer?.source).toBe("executor");
    expect(later.observer.byType(ModelCallStarted).map((signal) => [signal.source, signal.parentCallId])).toEqual([["imodel", outer!.callId]]);
    expect(await kindsStored(session, store)).toEqual(["ModelCallStarted", "ModelCallFinished"]);
  });

  it("middleware: an Executor whose tools' branch is in no session, made before the session, records into it", async () => {
    const executor = new Executor(new BranchTools(new Branch()), { model: new IModelClient(new IModel({ endpoint: scripted() })) });
    const { session, store } = recordedSession();
    await executor.callLlm({ messages: [{ role: "user", content: "plan" }] }, executor.context());
    expect(session.observer.byType(ModelCallStarted).map((signal) => signal.source)).toEqual(["executor", "imodel"]);
    expect(await kindsStored(session, store)).toHaveLength(4);
  });

  it("signals: null records nothing, and an explicit recorder wins over the active session", async () => {
    const { session } = recordedSession();
    const other = new Session();
    const active = new Session();
    await new IModel({ endpoint: scripted(), signals: null }).invoke({ messages });
    await new IModel({ endpoint: scripted(), signals: other }).invoke({ messages });
    const silent = new Executor(new BranchTools(session.newBranch()), { signals: null, model: new IModelClient(new IModel({ endpoint: scripted(), signals: null })) });
    await silent.callLlm({ messages: [{ role: "user", content: "plan" }] }, silent.context());
    expect(session.observer.byType(ModelCallStarted)).toHaveLength(0);
    expect(active.observer.byType(ModelCallStarted)).toHaveLength(0);
    expect(other.observer.byType(ModelCallStarted)).toHaveLength(1);
    // Setting signals later also ends following the active session.
    const model = new IModel({ endpoint: scripted() });
    model.signals = other;
    await model.invoke({ messages });
    expect(active.observer.byType(ModelCallStarted)).toHaveLength(0);
    expect(other.observer.byType(ModelCallStarted)).toHaveLength(2);
  });
});
