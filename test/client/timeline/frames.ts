import type { SignalFrame } from "@hooklens/runtime/live";
import { HookPoint, HookRegistry, IModel, PermissionError, ScriptedEndpoint, Session, Signal, Tool, act, encodeSignal } from "@hooklens/runtime";

let nextId = 0;

/** A HookSignal frame as the runtime streams it: `payload.point` and the handlers' `payload.payload`. */
export function hookFrame(point: string, at: number, payload: Record<string, unknown>, options: { sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  return {
    type: "signal",
    sessionId: options.sessionId ?? "session-1",
    branchId: options.branchId ?? null,
    id: `s${++nextId}`,
    kind: "HookSignal",
    createdAt: at,
    payload: { createdAt: at, metadata: {}, schemaVersion: 1, point, payload },
  };
}

/** Any other signal kind, its fields at the payload's top level (as the runtime encodes them). */
export function kindFrame(kind: string, at: number, fields: Record<string, unknown>, options: { sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  return {
    type: "signal",
    sessionId: options.sessionId ?? "session-1",
    branchId: options.branchId ?? null,
    id: `s${++nextId}`,
    kind,
    createdAt: at,
    payload: { createdAt: at, metadata: {}, schemaVersion: 1, ...fields },
  };
}

/**
 * Frames recorded by the real runtime: a session whose branch runs three tool calls through
 * act() (one succeeds, one fails, a TOOL_PRE guard blocks one) and streams one reply from a
 * scripted model with service hooks, encoded exactly as the live stream encodes them.
 */
export async function recordedRun(): Promise<SignalFrame[]> {
  const session = new Session();
  const bus = session.hooks;
  const branch = session.newBranch();
  bus.on(HookPoint.TOOL_PRE, ({ toolName }) => {
    if (toolName === "deleteFile") throw new PermissionError("deleteFile is not allowed here");
  });
  branch.actionManager.register(new Tool({ name: "searchDocs", funcCallable: ({ query }: { query: string }) => ({ hits: [query] }) }));
  branch.actionManager.register(new Tool({ name: "refund", funcCallable: () => { throw new RangeError("needs a manager"); } }));
  branch.actionManager.register(new Tool({ name: "deleteFile", funcCallable: ({ path }: { path: string }) => ({ deleted: path }) }));
  const registry = new HookRegistry();
  registry.preInvoke(() => undefined);
  registry.postInvoke(() => undefined);
  const model = new IModel({ endpoint: new ScriptedEndpoint({ script: ["Refunds are automatic."], model: "scripted-model" }), hookRegistry: registry, signals: session.observer });

  const sessionId = session.id;
  await bus.emit(HookPoint.SESSION_START, { sessionId, model: "scripted-model" });
  for await (const _chunk of model.stream({ messages: [{ role: "user", content: "Refunds?" }] })) void _chunk;
  for (const [name, args] of [["searchDocs", { query: "refunds" }], ["refund", { amount: 500 }], ["deleteFile", { path: "/etc/passwd" }]] as const) {
    await act(branch, { function: name, arguments: args }, { suppressErrors: true }).catch(() => undefined);
  }
  await bus.emit(HookPoint.SESSION_END, { sessionId, status: "completed" });
  await branch.drainSignals();
  return session.observer.byType(Signal).map((signal) => {
    const encoded = encodeSignal(signal, signal.createdAt);
    return { type: "signal", sessionId, branchId: encoded.branchId, id: encoded.id, kind: encoded.kind, createdAt: encoded.createdAt, payload: encoded.payload };
  });
}
