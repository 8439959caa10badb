import type { HrTime } from "@opentelemetry/api";

/** POSIX seconds as OpenTelemetry's [seconds, nanoseconds]. */
export function hrTime(seconds: number): HrTime {
  const whole = Math.floor(seconds);
  const nanos = Math.min(999_999_999, Math.round((seconds - whole) * 1e9));
  return [whole, nanos];
}

/**
 * {@link hrTime}, giving the same array again while the time does not change. A call's signals
 * often share a millisecond (`createdAt` is read from `Date.now()`), and the SDK keeps the array
 * it is given as the span's start, end or event time until the span is exported: one array per
 * distinct time instead of one per use is less to allocate and less for each waiting span to
 * hold. The SDK only reads these arrays.
 */
export class HrTimes {
  #seconds = Number.NaN;
  #time: HrTime = [0, 0];

  of(seconds: number): HrTime {
    if (seconds !== this.#seconds) {
      this.#seconds = seconds;
      this.#time = hrTime(seconds);
    }
    return this.#time;
  }
}
