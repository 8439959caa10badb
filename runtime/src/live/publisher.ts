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
    if (!endpoint) {
      sink = null;
      return sink;
    }
    const connection = new LiveConnection(endpoint);
    const live = new LiveSink(connection, endpoint.endpoint);
    sink = live;
    // The socket is unref'd; when the program runs out of work, send what is left and `bye`.
    // flushSignals hands the last batch over synchronously; its promise is not awaited because it
    // would wait for a receiver that may never read. close() bounds the drain instead.
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      void flushSignals();
      void live.close();
    };
    process.once("beforeExit", finish);
    // Writes the editor does not read keep the process alive, and then beforeExit never comes.
    connection.onProgramDone(finish);
    // process.exit(), an uncaught error: no time left to send anything, only to count it.
    process.on("exit", () => live.closeAtExit());
  }
  return sink;
}

/** Waits until every signal recorded so far was handed to the editor's socket. */
export async function flushLive(): Promise<void> {
  // flushSignals hands the queued signals to the sinks at once; both waits then run side by side,
  // so a stalled editor costs the flush's bound once, not twice.
  await Promise.all([flushSignals(), sink?.flush()]);
}

/** Test hook: forget the connection so the next signal reads {@link LIVE_ENV} again. */
export function resetLiveForTests(): void {
  sink = undefined;
}
