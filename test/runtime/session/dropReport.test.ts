// Drop reports: one log line per flush and at most one a second, and no drop ever left out of
// the log: a line held back by that second is written when it is over, or when the program exits.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DropReport } from "../../../runtime/src/session/pipeline/dropReport.js";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const counts = () => logs.filter((l) => l.level === "error").map((l) => l.fields["count"]);

describe("DropReport", () => {
  it("writes one line for what was counted, holds the next back for the rest of the second, then writes it with everything since", async () => {
    const report = new DropReport("a sink");
    report.count(2, new Error("full"));
    report.report();
    expect(counts()).toEqual([2]);
    report.count(5, new Error("full"));
    report.report();
    report.count(1, new Error("still full"));
    report.report();
    expect(counts()).toEqual([2]);
    await vi.waitFor(() => expect(counts()).toEqual([2, 6]), { timeout: 5_000, interval: 50 });
    expect(logs.at(-1)!.msg).toBe("Dropped 6 signal(s) for a sink: still full");
    expect(report.total).toBe(8);
  });

  it("a forced report writes the held-back line at once, and only once", async () => {
    const report = new DropReport("a sink");
    report.count(1, "x");
    report.report();
    report.count(3, "y");
    report.report();
    report.report(true);
    expect(counts()).toEqual([1, 3]);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(counts()).toEqual([1, 3]);
  });

  it("a program that ends within that second still logs every held-back line, one exit listener for all", () => {
    const fixture = bundledFixture(fileURLToPath(new URL("./fixtures/dropsAtExit.mts", import.meta.url)));
    const { status, stderr } = spawnSync(process.execPath, [fixture, "12"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(status).toBe(0);
    const lines = stderr.split("\n").filter((line) => line.includes("Dropped"));
    expect(lines.filter((line) => line.includes("Dropped 3 signal(s)"))).toHaveLength(12);
    expect(lines.filter((line) => line.includes("Dropped 4 signal(s)"))).toHaveLength(12);
    expect(stderr).not.toContain("MaxListenersExceededWarning");
  });
});
