import { afterEach, describe, expect, it } from "vitest";
import { idleWorkPending, whenIdle } from "../../server/src/whenIdle.js";

const exitListeners = () => process.listenerCount("exit");
const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("whenIdle", () => {
  afterEach(() => expect(idleWorkPending()).toBe(0));

  it("runs each piece of work once the event loop is quiet, and no sooner than one window", async () => {
    const done: number[] = [];
    for (let i = 0; i < 3; i++) whenIdle(() => done.push(i), 20);
    expect(done).toEqual([]);
    expect(idleWorkPending()).toBe(3);
    while (idleWorkPending() > 0) await idle(10);
    expect(done.sort()).toEqual([0, 1, 2]);
  });

  it("waits with one exit listener however much work waits, and removes it once the work is done", async () => {
    const before = exitListeners();
    const done: number[] = [];
    // Eleven listeners would make Node print a possible-leak warning (a multi-root workspace saves a list per folder).
    for (let i = 0; i < 25; i++) whenIdle(() => done.push(i), 20);
    expect(exitListeners()).toBe(before + 1);
    while (idleWorkPending() > 0) await idle(10);
    expect(done).toHaveLength(25);
    expect(exitListeners()).toBe(before);
    // A later wait hooks the exit again, once.
    whenIdle(() => done.push(25), 20);
    expect(exitListeners()).toBe(before + 1);
    while (idleWorkPending() > 0) await idle(10);
    expect(exitListeners()).toBe(before);
  });
});
