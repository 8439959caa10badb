import { flushLive, liveSink } from "@hooklens/runtime/live";
import { resetLiveForTests } from "../../../runtime/src/live/publisher.js";
import { runAgent } from "../../../examples/agent.js";
import { LiveServer } from "../../../client/src/signals/liveServer.js";
import { SignalStore, type LiveRun, type LiveSession } from "../../../client/src/signals/signalStore.js";

/** The example agent (every scope of the runtime) run once, its signals streamed over a real socket into a store. */
export interface AgentRun {
  store: SignalStore;
  run: LiveRun;
  session: LiveSession;
}

let cached: Promise<AgentRun> | undefined;

/** Runs the example agent once per test file and hands out the store its live stream filled. */
export function agentRun(): Promise<AgentRun> {
  cached ??= streamRun(async () => void (await runAgent(() => undefined)));
  return cached;
}

/** Runs `program` in this process with its signals streamed over a real socket into a fresh store. */
export async function streamRun(program: () => Promise<void>): Promise<AgentRun> {
  const store = new SignalStore();
  const server = await LiveServer.start({ onFrame: (peer, frame) => store.handleFrame(peer, frame), onDisconnect: (peer) => store.disconnect(peer) });
  const previous = process.env["HOOKLENS_LIVE"];
  process.env["HOOKLENS_LIVE"] = server.environmentValue;
  resetLiveForTests();
  try {
    await program();
    await flushLive();
    await liveSink()?.close();
    await until(() => store.runs()[0]?.connected === false, "the agent's stream to end");
  } finally {
    if (previous === undefined) delete process.env["HOOKLENS_LIVE"];
    else process.env["HOOKLENS_LIVE"] = previous;
    resetLiveForTests();
    await server.close();
  }
  const run = store.runs()[0]!;
  return { store, run, session: [...run.sessions.values()][0]! };
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
