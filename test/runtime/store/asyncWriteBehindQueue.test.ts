import { afterEach, describe, expect, it, vi } from "vitest";
import { AsyncWriteBehindQueue } from "../../../runtime/src/store/queue/asyncWriteBehindQueue.js";

afterEach(() => vi.useRealTimers());

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("AsyncWriteBehindQueue", () => {
  it("writes one batch at a time; what arrives during a write becomes the next batch, in order", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const queue = new AsyncWriteBehindQueue<number>({
      write: async (batch) => {
        batches.push([...batch]);
        await new Promise<void>((resolve) => (release = resolve));
        return true;
      },
      onDrop: () => {},
    });
    queue.submit(1);
    queue.submit(2);
    expect(batches).toEqual([]);
    await tick();
    expect(batches).toEqual([[1, 2]]);
    queue.submit(3);
    queue.submit(4);
    await tick();
    expect(batches).toHaveLength(1); // never two writes in flight
    expect(queue.pending).toBe(4);
    release();
    await tick();
    await tick();
    expect(batches).toEqual([[1, 2], [3, 4]]);
    const flushed = queue.flush();
    release();
    await flushed;
    expect(queue.pending).toBe(0);
  });

  it("puts an unwritten batch back in front and retries it with a growing pause", async () => {
    vi.useFakeTimers();
    const written: number[] = [];
    let available = false;
    const queue = new AsyncWriteBehindQueue<number>({
      write: async (batch) => (available ? (written.push(...batch), true) : false),
      onDrop: () => {},
      firstRetryMs: 10,
      maxRetryMs: 40,
    });
    queue.submit(1);
    await vi.advanceTimersByTimeAsync(100);
    queue.submit(2);
    expect(queue.stalled).toBe(true);
    expect(queue.retries).toBeGreaterThanOrEqual(3);
    expect(queue.retries).toBeLessThanOrEqual(5);
    available = true;
    await vi.advanceTimersByTimeAsync(50);
    expect(written).toEqual([1, 2]);
    expect(queue.stalled).toBe(false);
  });

  it("drops everything waiting once the retry window is over, and reports the count and reason", async () => {
    vi.useFakeTimers();
    const drops: Array<[number, unknown]> = [];
    const queue = new AsyncWriteBehindQueue<number>({
      write: async () => false,
      onDrop: (items, reason) => drops.push([items.length, reason]),
      giveUpAfterMs: 1_000,
      giveUpReason: (waited) => `away for ${waited} ms`,
    });
    queue.submit(1);
    queue.submit(2);
    const flushed = queue.flush();
    await vi.advanceTimersByTimeAsync(2_500);
    await flushed;
    expect(drops).toHaveLength(1);
    expect(drops[0]![0]).toBe(2);
    expect(String(drops[0]![1])).toMatch(/^away for \d+ ms$/);
    expect(queue.dropped).toBe(2);
  });

  it("drops a batch whose write throws, and keeps going", async () => {
    const written: number[] = [];
    const reasons: unknown[] = [];
    let fail = true;
    const queue = new AsyncWriteBehindQueue<number>({
      write: async (batch) => {
        if (fail) {
          fail = false;
          throw new Error("rejected by the server");
        }
        written.push(...batch);
        return true;
      },
      onDrop: (_count, reason) => reasons.push(reason),
    });
    queue.submit(1);
    await queue.flush();
    queue.submit(2);
    await queue.flush();
    expect(written).toEqual([2]);
    expect(String(reasons[0])).toContain("rejected by the server");
  });

  it("counts the bytes of what is waiting (sizeOf), the batch in flight included, and releases them", async () => {
    const queue = new AsyncWriteBehindQueue<number>({ write: async () => false, onDrop: () => {}, sizeOf: () => 10 });
    for (let i = 0; i < 5; i++) queue.submit(i);
    expect(queue.pendingBytes).toBe(50);
    await queue.finish(() => "done");
    expect(queue.pendingBytes).toBe(0);
    expect(queue.dropped).toBe(5);
  });

  it("finish() makes one last attempt: written if it can, dropped with the reason if not", async () => {
    const written: number[] = [];
    const ok = new AsyncWriteBehindQueue<number>({ write: async (b) => (written.push(...b), true), onDrop: () => {} });
    ok.submit(7);
    await ok.finish(() => "unused");
    expect(written).toEqual([7]);

    const drops: unknown[] = [];
    let attempts = 0;
    const away = new AsyncWriteBehindQueue<number>({ write: async () => (attempts++, false), onDrop: (_n, reason) => drops.push(reason) });
    away.submit(1);
    await tick();
    const before = attempts;
    await away.finish(() => "server away");
    expect(attempts).toBe(before + 1);
    expect(drops).toEqual(["server away"]);
  });
});
