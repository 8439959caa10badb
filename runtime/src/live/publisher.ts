import { flushSignals } from "../session/pipeline/signalPipeline.js";
import { LiveConnection } from "./connection.js";
import { LIVE_ENV, parseLiveEnv } from "./frames.js";
import { LiveSink } from "./liveSink.js";

/** undefined: not looked up yet; null: live streaming is off for this process. */
let sink: LiveSink | null | undefined;

/** The process's live-stream sink when {@link LIVE_ENV} is set, connecting on first use; null otherwise. */
export function liveSink(): LiveSink | null {
  if (sink === undefined) {
    const endpoint = parseLiveEnv(process.env[LIVE_ENV]);
    sink = endpoint ? new LiveSink(new LiveConnection(endpoint)) : null;
    if (sink) {
      const live = sink;
      // The socket is unref'd; when the program runs out of work, send what is left and `bye`.
      process.once("beforeExit", () => {
        void flushSignals().then(() => live.close());
      });
    }
  }
  return sink;
}

/** Waits until every signal recorded so far was handed to the editor's socket. */
export async function flushLive(): Promise<void> {
  await flushSignals();
  if (sink) await sink.flush();
}

/** Test hook: forget the connection so the next signal reads {@link LIVE_ENV} again. */
export function resetLiveForTests(): void {
  sink = undefined;
}
