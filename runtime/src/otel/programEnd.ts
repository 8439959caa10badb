import { isMainThread } from "node:worker_threads";
import { flushSignals } from "../session/pipeline/signalPipeline.js";

/** An export with spans that must not be lost when the program ends. */
export interface OpenTrace {
  /** Spans still open (roots included). */
  readonly openSpans: number;
  /** Ends every open span now. Synchronous, so it also works while the process is exiting. */
  end(): void;
  /** Asks the SDK to export the ended spans; resolves when it did (or gave up). */
  exportSpans(): Promise<void>;
}

/** How long a SIGINT or SIGTERM waits for the spans to be exported before the program dies by it. */
export const SIGNAL_EXPORT_MS = 3_000;
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
type ExitSignal = (typeof SIGNALS)[number];

const traces = new Set<OpenTrace>();
let installed = false;
let ending: Promise<void> | null = null;
let signalled: ExitSignal | null = null;

/**
 * Ends and exports `trace`'s spans however the program ends:
 * - it runs out of work (`beforeExit`): pending signals are flushed, spans ended and exported,
 *   and the program exits once the SDK's exporter is done (its own timeout bounds that);
 * - SIGINT or SIGTERM that nothing else in the program listens to: the same, then the program dies
 *   by that signal as it would have, after at most {@link SIGNAL_EXPORT_MS} (a second signal
 *   ends the wait); a program that listens itself decides when to exit, and the export starts;
 * - `process.exit()` or an uncaught error (`exit`): spans are ended synchronously, so a
 *   synchronous exporter still gets them; an exporter that needs the network cannot finish there,
 *   which is why `end()` exists.
 * Returns the function that stops watching `trace`.
 */
export function exportAtProgramEnd(trace: OpenTrace): () => void {
  traces.add(trace);
  install();
  return () => {
    traces.delete(trace);
    if (traces.size === 0) uninstall();
  };
}

/** Flushes pending signals, ends the open spans of every watched export and exports them. */
function endAll(): Promise<void> {
  ending ??= (async () => {
    try {
      await flushSignals();
      const watched = [...traces];
      for (const trace of watched) trace.end();
      await Promise.all(watched.map((trace) => trace.exportSpans().catch(() => undefined)));
    } finally {
      ending = null;
    }
  })();
  return ending;
}

const onBeforeExit = (): void => {
  // Only when something is open: ending nothing must not keep scheduling work (beforeExit would fire again).
  if (ending === null && [...traces].some((trace) => trace.openSpans > 0)) void endAll();
};

const onExit = (): void => {
  // The signal pipeline's own exit listener runs first and hands the last batch to the sinks.
  for (const trace of traces) {
    try {
      trace.end();
      void trace.exportSpans().catch(() => undefined);
    } catch {
      // Exiting: nothing can be reported any more.
    }
  }
};

const onSignal = (signal: ExitSignal): void => {
  const ours = process.listenerCount(signal) === 1;
  if (!ours) {
    // The program handles this signal itself and exits when it chooses: start the export now.
    void endAll();
    return;
  }
  if (signalled !== null) return dieBy(signal); // a second Ctrl-C: stop waiting
  signalled = signal;
  const deadline = setTimeout(() => dieBy(signal), SIGNAL_EXPORT_MS); // ref'd: the process must not exit 0 meanwhile
  void endAll().finally(() => {
    clearTimeout(deadline);
    dieBy(signal);
  });
};

/** Dies by `signal` as the program would have without these listeners (exit code 128 + n). */
function dieBy(signal: ExitSignal): void {
  for (const name of SIGNALS) process.removeListener(name, onSignal);
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("beforeExit", onBeforeExit);
  process.on("exit", onExit);
  // A worker thread receives no signals; its process's main thread owns them.
  if (isMainThread) for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener("beforeExit", onBeforeExit);
  process.removeListener("exit", onExit);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}
