import { describe, expect, it } from "vitest";
import {
  ALLOWED_EVENT_STATUSES,
  Event,
  EventExecution,
  EventStatus,
  InvalidValueError,
  MAX_RECORDED_ERRORS,
  StreamClosedError,
  TERMINAL_EVENT_STATUSES,
} from "@hooklens/runtime";
import { abortError, collect } from "./support.js";

/** An event whose work is a function of the run's signal. */
class Job extends Event {
  runs = 0;
  constructor(
    private readonly work: (signal?: AbortSignal) => Promise<unknown>,
    private readonly chunks: (signal?: AbortSignal) => AsyncGenerator<unknown> = async function* () {},
  ) {
    super();
  }
  protected override _invoke(signal?: AbortSignal): Promise<unknown> {
    this.runs++;
    return this.work(signal);
  }
  protected override _stream(signal?: AbortSignal): AsyncGenerator<unknown, void, undefined> {
    return this.chunks(signal) as AsyncGenerator<unknown, void, undefined>;
  }
}


describe("EventStatus", () => {
  it("has the seven status values, in order", () => {
    expect(ALLOWED_EVENT_STATUSES).toEqual(["pending", "processing", "completed", "failed", "skipped", "cancelled", "aborted"]);
  });

  it("treats completed, failed, cancelled, aborted and skipped as terminal", () => {
    expect([...TERMINAL_EVENT_STATUSES].sort()).toEqual(["aborted", "cancelled", "completed", "failed", "skipped"]);
  });
});

describe("Event.invoke", () => {
  it("records the result as the response and ends COMPLETED with a duration in seconds", async () => {
    const job = new Job(async () => "done");
    await job.invoke();
    expect(job.status).toBe(EventStatus.COMPLETED);
    expect(job.response).toBe("done");
    expect(job.execution.duration).toBeTypeOf("number");
    expect(job.execution.duration!).toBeGreaterThanOrEqual(0);
    expect(job.execution.duration!).toBeLessThan(5);
  });

  it("is total: a failure is recorded as FAILED with the error, not thrown", async () => {
    const boom = new Error("boom");
    const job = new Job(async () => {
      throw boom;
    });
    await expect(job.invoke()).resolves.toBeUndefined();
    expect(job.status).toBe(EventStatus.FAILED);
    expect(job.execution.error).toBe(boom);
    expect(job.execution.duration).not.toBeNull();
  });

  it("records a thrown non-Error as an Error", async () => {
    const job = new Job(() => Promise.reject("just a string"));
    await job.invoke();
    expect(job.execution.error).toBeInstanceOf(Error);
    expect((job.execution.error as Error).message).toBe("just a string");
  });

  it("turns an abort of its signal into CANCELLED and rethrows the abort", async () => {
    const controller = new AbortController();
    const job = new Job(
      (signal) =>
        new Promise((_resolve, reject) => {
          signal!.addEventListener("abort", () => reject(signal!.reason));
        }),
    );
    const running = job.invoke({ signal: controller.signal });
    controller.abort(new Error("caller gave up"));
    await expect(running).rejects.toThrow("caller gave up");
    expect(job.status).toBe(EventStatus.CANCELLED);
    expect(job.execution.duration).not.toBeNull();
  });

  it("treats an error named AbortError as a cancellation even without a signal", async () => {
    const job = new Job(async () => {
      throw abortError();
    });
    await expect(job.invoke()).rejects.toMatchObject({ name: "AbortError" });
    expect(job.status).toBe(EventStatus.CANCELLED);
  });

  it("runs only from PENDING: a second invoke does nothing", async () => {
    const job = new Job(async () => "once");
    await job.invoke();
    await job.invoke();
    expect(job.runs).toBe(1);
  });

  it("without an implementation ends FAILED", async () => {
    const plain = new Event();
    await plain.invoke();
    expect(plain.status).toBe(EventStatus.FAILED);
    expect(String(plain.execution.error)).toContain("does not implement _invoke()");
  });
});

describe("Event.status", () => {
  it("accepts a status value string", () => {
    const job = new Job(async () => null);
    job.status = "skipped";
    expect(job.status).toBe(EventStatus.SKIPPED);
  });

  it("rejects an unknown status with InvalidValueError", () => {
    const job = new Job(async () => null);
    expect(() => {
      job.status = "done" as EventStatus;
    }).toThrow(InvalidValueError);
  });
});

describe("EventExecution.addError", () => {
  it("stores the first error as is", () => {
    const execution = new EventExecution();
    const first = new Error("first");
    execution.addError(first);
    expect(execution.error).toBe(first);
  });

  it("groups a second error into an AggregateError named 'multiple errors'", () => {
    const execution = new EventExecution();
    const [a, b] = [new Error("a"), new Error("b")];
    execution.addError(a);
    execution.addError(b);
    expect(execution.error).toBeInstanceOf(AggregateError);
    expect((execution.error as AggregateError).message).toBe("multiple errors");
    expect((execution.error as AggregateError).errors).toEqual([a, b]);
  });

  it("stops recording errors once the group holds 100", () => {
    const execution = new EventExecution();
    for (let i = 0; i < 150; i++) execution.addError(new Error(`e${i}`));
    expect(MAX_RECORDED_ERRORS).toBe(100);
    expect((execution.error as AggregateError).errors).toHaveLength(100);
  });
});

describe("Event.stream", () => {
  it("yields every chunk and ends COMPLETED", async () => {
    const job = new Job(async () => null, async function* () {
      yield 1;
      yield 2;
    });
    expect(await collect(job.stream())).toEqual([1, 2]);
    expect(job.status).toBe(EventStatus.COMPLETED);
    expect(job.execution.duration).not.toBeNull();
  });

  it("ends quietly with FAILED when the stream fails, keeping the chunks already yielded", async () => {
    const boom = new Error("broke");
    const job = new Job(async () => null, async function* () {
      yield "a";
      throw boom;
    });
    expect(await collect(job.stream())).toEqual(["a"]);
    expect(job.status).toBe(EventStatus.FAILED);
    expect(job.execution.error).toBe(boom);
  });

  it("turns an abort into CANCELLED and rethrows it", async () => {
    const controller = new AbortController();
    const job = new Job(async () => null, async function* (signal) {
      yield "a";
      controller.abort();
      throw signal!.reason;
    });
    await expect(collect(job.stream({ signal: controller.signal }))).rejects.toMatchObject({ name: "AbortError" });
    expect(job.status).toBe(EventStatus.CANCELLED);
  });

  it("marks the event CANCELLED when the consumer stops reading early", async () => {
    const job = new Job(async () => null, async function* () {
      yield 1;
      yield 2;
    });
    for await (const chunk of job.stream()) {
      expect(chunk).toBe(1);
      break;
    }
    expect(job.status).toBe(EventStatus.CANCELLED);
    expect(job.execution.error).toBeInstanceOf(StreamClosedError);
  });

  it("yields nothing once the event is terminal", async () => {
    let started = false;
    const job = new Job(async () => null, async function* () {
      started = true;
      yield 1;
    });
    job.status = EventStatus.COMPLETED;
    expect(await collect(job.stream())).toEqual([]);
    expect(started).toBe(false);
  });
});

describe("Event.toDict", () => {
  it("snapshots id, class name, creation time and the execution, with errors as name and message", async () => {
    const job = new Job(async () => {
      throw new RangeError("out");
    });
    await job.invoke();
    const dict = job.toDict();
    expect(dict).toMatchObject({ id: job.id, lionClass: "Job", createdAt: job.createdAt, status: "failed", response: null });
    expect(dict.error).toEqual({ error: "RangeError", message: "out" });
    expect(job.createdAt).toBeCloseTo(Date.now() / 1000, 0);
  });
});
