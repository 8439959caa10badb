import { InvalidValueError } from "../../shared/errors.js";

/** Bursts of up to `calls`, refilled at `calls / per` per second (GCRA). */
export class Rate {
  readonly calls: number;
  readonly per: number;

  constructor(calls: number, per: number) {
    if (!Number.isInteger(calls) || calls < 1) throw new InvalidValueError(`Rate calls must be a positive integer, got ${calls}`);
    if (!Number.isFinite(per) || per <= 0) throw new InvalidValueError(`Rate per must be a positive number of seconds, got ${per}`);
    this.calls = calls;
    this.per = per;
  }

  /** Seconds between two slots once the burst is spent. */
  get interval(): number {
    return this.per / this.calls;
  }
}
