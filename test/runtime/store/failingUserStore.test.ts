// Issue 32, item 3: a SignalStore someone wrote never crashes the program that records into it.
// Each case runs a real program (a rejection nobody handles ends a Node process with code 1, and
// a flush that never settles leaves a top-level await unsettled, code 13): every store method the
// runtime calls × every way it can fail. The program must print "done", exit 0, and the log must
// say how many signals were dropped and why.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { runNode } from "../../helpers/runNode.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/failingUserStore.mts", import.meta.url));
/** Only tells an exit from a hang. */
const HANG_MS = 60_000;
/** The flush's bound in the cases that never settle; the others get HANG_MS, so a wait there shows as a hang. */
const SETTLE_MS = 300;

const METHODS = ["insertSessionSignal", "insertEncodedSignals", "flush"] as const;
const MODES = ["throw", "reject", "thenable", "thenableThrows", "hang"] as const;

const run = (method: string, mode: string) => runNode([bundledFixture(PROGRAM), method, mode, String(mode === "hang" ? SETTLE_MS : HANG_MS)], { hangMs: HANG_MS });

describe("a failing user store", () => {
  const cases = METHODS.flatMap((method) => MODES.map((mode) => [method, mode] as const));
  it.concurrent.each(cases)("%s that fails by %s: the program goes on, exits 0, and the failure is logged", async (method, mode) => {
    const { code, signal, stdout, stderr } = await run(method, mode);
    expect(signal, `killed as hung; stderr: ${stderr}`).toBeNull();
    expect(stderr).not.toMatch(/Unhandled|unsettled top-level await/i);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^done/m);
    if (method === "flush") {
      // A failed flush carries no signals of its own; it is logged with its reason.
      const reason = mode === "hang" ? `the store had not settled after ${SETTLE_MS} ms` : `the database went away \\(${mode}\\)`;
      expect(stderr).toMatch(new RegExp(`failed to flush for session .*${reason}`));
    } else {
      const reason = mode === "hang" ? `the store had not settled after ${SETTLE_MS} ms` : `the database went away \\(${mode}\\)`;
      expect(stderr).toMatch(new RegExp(`Dropped \\d+ signal\\(s\\) for session [^:]+: .*${reason}`));
    }
  }, HANG_MS + 30_000);
});
