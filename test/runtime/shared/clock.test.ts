import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The clock module with its anchor fresh (the anchor is module state). */
async function freshClock(): Promise<typeof import("../../../runtime/src/shared/clock.js")> {
  vi.resetModules();
  return import("../../../runtime/src/shared/clock.js");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("epochSecondsAt: wall-clock seconds from a monotonic reading", () => {
  it("agrees with Date.now() to within its millisecond rounding", async () => {
    const { epochSeconds } = await freshClock();
    for (let i = 0; i < 50; i++) {
      const before = Date.now();
      const seconds = epochSeconds();
      const after = Date.now();
      expect(seconds * 1000).toBeGreaterThanOrEqual(before - 1.5);
      expect(seconds * 1000).toBeLessThanOrEqual(after + 1.5);
    }
  });

  it("starts from the wall clock when it was adjusted after the process started (timeOrigin is then stale)", async () => {
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + 5);
    const { epochSeconds } = await freshClock();
    const before = Date.now();
    const seconds = epochSeconds();
    const after = Date.now();
    expect(seconds * 1000).toBeGreaterThanOrEqual(before - 1.5);
    expect(seconds * 1000).toBeLessThanOrEqual(after + 1.5);
  });

  it("keeps sub-millisecond precision, as Python's timestamps do", async () => {
    const { epochSeconds } = await freshClock();
    const readings = Array.from({ length: 20 }, () => epochSeconds() * 1000);
    expect(readings.some((ms) => !Number.isInteger(ms))).toBe(true);
  });

  it("converts one reading to one time, and readings 250 ms apart to times 250 ms apart", async () => {
    const { epochSecondsAt } = await freshClock();
    const early = performance.now();
    expect(epochSecondsAt(early)).toBe(epochSecondsAt(early));
    expect(epochSecondsAt(early + 250) - epochSecondsAt(early)).toBeCloseTo(0.25, 5);
  });

  it("follows a wall-clock adjustment at its next check, and not before", async () => {
    const { epochSecondsAt } = await freshClock();
    const start = performance.now();
    const before = epochSecondsAt(start);
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + 60_000);
    expect(epochSecondsAt(start)).toBe(before);
    // A reading more than a second after the last check makes it check, and it finds the minute.
    const later = epochSecondsAt(performance.now() + 2000);
    expect(later - before).toBeGreaterThan(61.9);
    expect(later - before).toBeLessThan(62.5);
  });

  it("does not move for Date.now()'s own millisecond rounding", async () => {
    const { epochSecondsAt } = await freshClock();
    const start = performance.now();
    // Two checks against the real wall clock, which is the anchor less up to 1 ms of rounding.
    const before = epochSecondsAt(start + 1100);
    expect(epochSecondsAt(start + 2300) - before).toBeCloseTo(1.2, 5);
  });
});
