import { afterEach, describe, expect, it, vi } from "vitest";
import { WriteBehindQueue } from "../../../runtime/src/store/queue/writeBehindQueue.js";

afterEach(() => vi.useRealTimers());

describe("WriteBehindQueue", () => {
  it("writes everything submitted in one turn as one batch, after the caller returns", async () => {
    const batches: number[][] = [];
    const queue = new WriteBehindQueue<number>({ write: (b) => (batches.push([...b]), true), onDrop: () => {} });
    queue.submit(1);
    queue.submit(2);
    expect(batches).toEqual([]);
    await queue.flush();
    expect(batches).toEqual([[1, 2]]);
  });

  it("gives up a batch that stays busy past the limit and reports how many it dropped", async () => {
    vi.useFakeTimers();
    const drops: number[] = [];
    const queue = new WriteBehindQueue<number>({ write: () => false, onDrop: (items) => drops.push(items.length), giveUpAfterMs: 1_000 });
    queue.submit(1);
    queue.submit(2);
    const flushed = queue.flush();
    await vi.advanceTimersByTimeAsync(1_500);
    await flushed;
    expect(drops).toEqual([2]);
    expect(queue.dropped).toBe(2);
    expect(queue.busyRetries).toBeGreaterThan(3);
  });

  it("counts the bytes its submitters give for what is waiting, and releases them as records leave", () => {
    const queue = new WriteBehindQueue<number>({ write: () => false, onDrop: () => {} });
    for (let i = 0; i < 5; i++) queue.submit(i, 10);
    expect(queue.pendingBytes).toBe(50);
    expect(queue.drainNow()).toBe(false);
    expect(queue.waitingForLock).toBe(true);
    queue.abandon("done");
    expect(queue.pendingBytes).toBe(0);
    expect(queue.dropped).toBe(5);
  });

  it("drops a batch whose write fails for a reason other than the lock, and keeps going", async () => {
    const written: number[] = [];
    const dropped: unknown[] = [];
    let fail = true;
    const queue = new WriteBehindQueue<number>({
      write: (b) => {
        if (fail) {
          fail = false;
          throw new Error("disk full");
        }
        written.push(...b);
        return true;
      },
      onDrop: (_n, reason) => dropped.push(reason),
    });
    queue.submit(1);
    await queue.flush();
    queue.submit(2);
    await queue.flush();
    expect(written).toEqual([2]);
    expect(String(dropped[0])).toContain("disk full");
  });
});
