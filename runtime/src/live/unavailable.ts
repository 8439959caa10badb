/** Why the editor's live stream went dark before the program said bye. */
export interface LiveFailure {
  /** `connect`: the address did not answer; `closed`: the editor closed a connection it had accepted. */
  readonly phase: "connect" | "closed";
  /** The system error code, when there was one (ENOENT, ECONNREFUSED, EPIPE...). */
  readonly code: string | undefined;
  readonly message: string;
}

/** A connection error as a {@link LiveFailure}. */
export function liveFailure(phase: LiveFailure["phase"], error?: Error): LiveFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return { phase, code: typeof code === "string" ? code : undefined, message: error?.message ?? "closed by the editor" };
}

const STALE =
  "HOOKLENS_LIVE in this terminal is probably stale: it names the editor that was running when the terminal opened, " +
  "and a VS Code window that reloaded or closed since listens elsewhere, or not at all. Open a new terminal " +
  "(or start the program from the Run and Debug view), or unset HOOKLENS_LIVE to stop trying.";

/**
 * The one line a program prints when its live stream cannot reach the editor: what it tried and
 * how to fix it. Never the token: the address alone is enough to recognise the window.
 */
export function describeLiveFailure(endpoint: string, failure: LiveFailure): string {
  const what =
    failure.phase === "closed"
      ? `the editor at ${endpoint} closed the live stream (it closes a connection whose token it does not know, or when its window closes)`
      : failure.code === "ENOENT"
        ? `nothing listens at ${endpoint} (the socket does not exist)`
        : failure.code === "ECONNREFUSED"
          ? `${endpoint} refused the connection (no editor listens there any more)`
          : `could not connect to ${endpoint} (${failure.message})`;
  return `HookLens live view: ${what}, so this run is not streamed to the editor. ${STALE}`;
}
