// Issue 33, item 3: the CodingToolkit's confinement holds in races and through symlinks. Real
// processes swap folders for symlinks while the tools run, a bounded number of attempts each;
// FIFOs made with mkfifo sit in the workspace; a backtracking pattern meets a long line.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, layout, tools } from "./codingSupport.js";
import type { ToolArgs } from "@hooklens/runtime";

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const swapper of swappers.splice(0)) swapper.kill("SIGKILL");
});

/**
 * A separate process that keeps replacing `folder` with a symlink to `outside` and back with a
 * fresh folder, as fast as it can (the folder moved away is deleted; a folder that appeared in
 * the gap is moved away too). Resolves once it has swapped at least once.
 */
async function swapFolder(folder: string, outside: string): Promise<void> {
  const swapper = spawn(process.execPath, [
    "-e",
    `const fs = require("fs");
     const [folder, outside] = process.argv.slice(1);
     const hold = () => { const until = process.hrtime.bigint() + 200000n; while (process.hrtime.bigint() < until); };
     for (let n = 0; ; n++) {
       const away = folder + ".away" + (n % 4);
       try { fs.rmSync(away, { recursive: true, force: true }); fs.renameSync(folder, away); } catch {}
       try { fs.symlinkSync(outside, folder); } catch {}
       if (n === 0) process.stdout.write("swapping\\n");
       hold();
       try { fs.unlinkSync(folder); } catch {}
       try { fs.mkdirSync(folder); } catch {}
       hold();
     }`,
    folder,
    outside,
  ]);
  swappers.push(swapper);
  await new Promise<void>((resolve) => swapper.stdout!.once("data", () => resolve()));
}

describe("confinement in races", () => {
  it("the editor never creates a folder outside while a parent is swapped for a symlink (300 attempts)", async () => {
    const { root, outside } = layout("hooklens-races-");
    mkdirSync(path.join(root, "a"));
    await swapFolder(path.join(root, "a"), outside);
    const all = tools(root);
    let written = 0;
    for (let i = 0; i < 300; i++) {
      const result = await call(all, "editor", { action: "write", filePath: `a/b${i}/c/file.txt`, content: "x" });
      if (result["success"] === true) written++;
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(written).toBeGreaterThan(0); // the race really ran: some writes saw the real folder
  }, 120_000);

  it("bash never starts a program outside while its folder is swapped for a symlink (200 attempts)", async () => {
    const { root, outside } = layout("hooklens-races-");
    mkdirSync(path.join(root, "sub"));
    await swapFolder(path.join(root, "sub"), outside);
    const all = tools(root);
    const places = new Set<string>();
    let ran = 0;
    for (let i = 0; i < 200; i++) {
      const result = await call(all, "bash", { command: "pwd -P", cwd: "sub" });
      if (result["success"] !== true) continue;
      ran++;
      places.add(String(result["stdout"]).trim());
    }
    expect([...places].filter((place) => !place.startsWith(root))).toEqual([]);
    expect(ran).toBeGreaterThan(0);
  }, 120_000);
});

describe("bash arguments through symlinks", () => {
  it.each([
    ["cat rootlink/etc/passwd", "a path under a link to /"],
    ["ls rootlink", "the link itself"],
    ["cat outlink/secret.txt", "a path under a link to a folder outside"],
    ["cat secretlink", "a link to a file outside"],
    ["head --lines=1 outlink/secret.txt", "an option's attached value"],
  ])("refuses %j (%s), as the reader does", async (command) => {
    const { root, outside } = layout("hooklens-races-");
    symlinkSync("/", path.join(root, "rootlink"));
    symlinkSync(outside, path.join(root, "outlink"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secretlink"));
    const all = tools(root);
    const result = await call(all, "bash", { command });
    expect(result).toMatchObject({ success: false, error: expect.stringContaining("outside the workspace") });
    expect(JSON.stringify(result)).not.toContain("OUTSIDE");
  });

  it("still runs commands whose path arguments, links included, stay inside", async () => {
    const { root } = layout("hooklens-races-");
    mkdirSync(path.join(root, "real"));
    writeFileSync(path.join(root, "real", "a.txt"), "inside\n");
    symlinkSync(path.join(root, "real"), path.join(root, "innerlink"));
    const result = await call(tools(root), "bash", { command: "cat innerlink/a.txt" });
    expect(result).toMatchObject({ success: true, stdout: "inside\n" });
  });
});

describe("non-regular files", () => {
  const fifoIn = (root: string, name: string): string => {
    const fifo = path.join(root, name);
    const made = spawnSync("mkfifo", [fifo]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
    return fifo;
  };

  it.each([
    ["reader", { path: "pipe" }],
    ["editor", { action: "edit", filePath: "pipe", oldString: "a", newString: "b" }],
    ["editor", { action: "write", filePath: "pipe", content: "x" }],
  ] as const)("%s refuses a FIFO at once instead of waiting for a writer", async (name, args) => {
    const { root } = layout("hooklens-races-");
    fifoIn(root, "pipe");
    const result = await call(tools(root), name, { ...args });
    expect(result).toMatchObject({ success: false, error: expect.stringContaining("Not a regular file") });
  });

  it("four calls on FIFOs leave file work running: a read afterwards still answers", async () => {
    const { root } = layout("hooklens-races-");
    writeFileSync(path.join(root, "plain.txt"), "plain\n");
    for (const name of ["p1", "p2", "p3", "p4"]) fifoIn(root, name);
    const all = tools(root);
    const stuck = await Promise.all(["p1", "p2", "p3", "p4"].map((name) => call(all, "reader", { path: name })));
    expect(stuck.every((result) => result["success"] === false)).toBe(true);
    expect(await call(all, "reader", { path: "plain.txt" })).toMatchObject({ success: true, content: "plain\n" });
  });

  it("search skips a FIFO and finds the rest", async () => {
    const { root } = layout("hooklens-races-");
    writeFileSync(path.join(root, "plain.txt"), "needle\n");
    fifoIn(root, "pipe.txt");
    const result = await call(tools(root), "search", { pattern: "needle" });
    expect(result).toMatchObject({ success: true, matches: [{ file: "plain.txt", line: 1 }] });
  });
});

describe("patterns from the model", () => {
  it.each(["^(a+)+$", "(a|aa)+$", "^(a|a?)+$"])("%j on a long line fails within its budget while the event loop keeps running", async (pattern) => {
    const { root } = layout("hooklens-races-");
    writeFileSync(path.join(root, "long.txt"), `${"a".repeat(40)}!\n`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const result = await call(tools(root, { search: { patternTimeoutMs: 300 } }), "search", { pattern });
      expect(result).toMatchObject({ success: false, error: expect.stringContaining("took longer than 300 ms") });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0); // the main thread was never blocked by the match
  });

  it("an ordinary pattern still finds its lines", async () => {
    const { root } = layout("hooklens-races-");
    writeFileSync(path.join(root, "a.ts"), "const x = 1;\nfunction hello() {}\n");
    const result = await call(tools(root), "search", { pattern: "^function (\\w+)" });
    expect(result).toMatchObject({ success: true, matches: [{ file: "a.ts", line: 2, text: "function hello() {}" }] });
  });
});

describe("every file tool call is bounded in time", () => {
  it("a body that never settles answers with a failure at its deadline", async () => {
    const { defineCodingTool } = await import("../../../runtime/src/tool/coding/definition.js");
    const { ReaderRequest } = await import("@hooklens/runtime");
    const stuck = defineCodingTool("never answers", ReaderRequest, () => new Promise<ToolArgs>(() => undefined), 50);
    expect(await stuck.run({ path: "x" })).toMatchObject({ success: false, error: expect.stringContaining("Did not finish within 50 ms") });
  });
});
