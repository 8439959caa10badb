import type { Connection } from "vscode-languageserver/node";

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` under a "Loading types" progress indicator when `loading` says it will first build a
 * program (the one slow moment, seconds on a large workspace); otherwise just runs it. Clients
 * that do not support server-initiated progress get nothing, as the protocol says.
 */
export async function withLoadingProgress<T>(connection: Connection, loading: boolean, work: () => T): Promise<T> {
  if (!loading) return work();
  const progress = await connection.window.createWorkDoneProgress();
  progress.begin("HookLens", undefined, "Loading types for analysis…");
  try {
    await yieldToEventLoop(); // let the begin notification leave before the event loop is busy
    return work();
  } finally {
    progress.done();
  }
}
