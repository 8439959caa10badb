import type { Diagnostic } from "vscode-languageserver";

/** One document's diagnostics for one version, or undefined when the version was superseded meanwhile. */
export type ComputeDiagnostics = (uri: string) => Promise<{ version: number; diagnostics: Diagnostic[] } | undefined>;

export interface PushDiagnosticsOptions {
  compute: ComputeDiagnostics;
  publish: (uri: string, version: number | undefined, diagnostics: Diagnostic[]) => void;
  /** Quiet time after the last change before analysing (tsserver waits a few hundred ms too). */
  delayMs: number;
}

/**
 * Published diagnostics for clients that do not pull: each change restarts the document's timer, so
 * a burst of keystrokes costs one analysis once typing pauses, and a version that was superseded
 * before or during its analysis is never published (the newer version has its own timer).
 */
export class PushDiagnostics {
  readonly #options: PushDiagnosticsOptions;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Documents whose analysis is running; a schedule meanwhile runs again after it. */
  readonly #running = new Set<string>();
  readonly #rerun = new Set<string>();

  constructor(options: PushDiagnosticsOptions) {
    this.#options = options;
  }

  /** Analyse and publish `uri` after the quiet time (or `delayMs`, e.g. 0 for a document just opened). */
  schedule(uri: string, delayMs = this.#options.delayMs): void {
    clearTimeout(this.#timers.get(uri));
    this.#timers.set(
      uri,
      setTimeout(() => {
        this.#timers.delete(uri);
        void this.#run(uri);
      }, delayMs),
    );
  }

  /** The document closed: nothing more is published for it and its diagnostics are cleared. */
  clear(uri: string): void {
    clearTimeout(this.#timers.get(uri));
    this.#timers.delete(uri);
    this.#rerun.delete(uri);
    this.#options.publish(uri, undefined, []);
  }

  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  async #run(uri: string): Promise<void> {
    if (this.#running.has(uri)) {
      this.#rerun.add(uri);
      return;
    }
    this.#running.add(uri);
    try {
      const outcome = await this.#options.compute(uri);
      if (outcome && !this.#timers.has(uri)) this.#options.publish(uri, outcome.version, outcome.diagnostics);
    } finally {
      this.#running.delete(uri);
      if (this.#rerun.delete(uri)) this.schedule(uri, 0);
    }
  }
}
