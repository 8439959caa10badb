import { requirePositive } from "../../shared/arguments.js";

/**
 * Watches tool outcomes and produces a reminder for the model after a run of failures. The
 * toolkit's notify post-hook records each call and puts the reminder in `result.system`.
 */
export class NudgeEngine {
  readonly threshold: number;
  #failures = 0;
  #lastTool = "";

  constructor(threshold = 3) {
    this.threshold = requirePositive(threshold, "new NudgeEngine(threshold)", "threshold", true);
  }

  /** Records one call's outcome; a success resets the run of failures. */
  record(toolName: string, _action: string, ok: boolean): void {
    this.#lastTool = toolName;
    this.#failures = ok ? 0 : this.#failures + 1;
  }

  /** The reminder to show now, or null. */
  evaluate(): string | null {
    if (this.#failures < this.threshold) return null;
    return `${this.#failures} tool calls in a row failed (last: ${this.#lastTool}). Read the last error and change approach before retrying.`;
  }
}
