import { spawn } from "node:child_process";
import { constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { call, layout, tools } from "./codingSupport.js";
import { guardPaths, OutsideWorkspaceError, Workspace } from "@hooklens/runtime";
import { openConfined, openForWrite } from "../../../runtime/src/tool/coding/confinedFile.js";

describe("the coding sandbox: dangling symlinks", () => {
  it("editor refuses to write through a dangling symlink to a file outside, and creates nothing there", async () => {
    const { root, outside } = layout();
    symlinkSync(path.join(outside, "planted.txt"), path.join(root, "link.txt"));
    const result = await call(tools(root), "editor", { action: "write", filePath: "link.txt", content: "x" });
    expect(result).toMatchObject({ success: false, error: expect.stringContaining("outside the workspace") });
    expect(existsSync(path.join(outside, "planted.txt"))).toBe(false);
  });

  it("editor refuses a dangling folder link whose target is missing, and creates no folder outside", async () => {
    const { root, outside } = layout();
    symlinkSync(path.join(outside, "newdir"), path.join(root, "dirlink"));
    const result = await call(tools(root), "editor", { action: "write", filePath: "dirlink/a/b.txt", content: "x" });
    expect(result).toMatchObject({ success: false });
    expect(existsSync(path.join(outside, "newdir"))).toBe(false);
  });

  it("refuses a dangling link even when it points inside the workspace (it could be re-pointed before the write)", async () => {
    const { root } = layout();
    symlinkSync(path.join(root, "later.txt"), path.join(root, "inner-link"));
    expect(() => new Workspace(root).resolve("inner-link")).toThrow(/dangling symlink/);
    expect(await call(tools(root), "reader", { path: "inner-link" })).toMatchObject({ success: false });
  });

  it("guardPaths sees where a dangling link leads", async () => {
    const { root, outside } = layout();
    symlinkSync(path.join(outside, "planted.txt"), path.join(root, "link.txt"));
    const guard = guardPaths({ allowedPaths: [root] });
    await expect(guard("editor", "write", { filePath: "link.txt" })).rejects.toThrow(/not in allowed list/);
  });
});

describe("the coding sandbox: checked again after opening", () => {
  it("a file swapped for a symlink after the check is refused, not read", async () => {
    const { root, outside } = layout();
    const target = new Workspace(root).resolve("inside.txt");
    rmSync(target);
    symlinkSync(path.join(outside, "secret.txt"), target); // the swap, between check and open
    await expect(openConfined(new Workspace(root), target, constants.O_RDONLY)).rejects.toBeInstanceOf(OutsideWorkspaceError);
  });

  it("a parent folder swapped for a symlink after the check is refused, for reads and writes", async () => {
    const { root, outside } = layout();
    mkdirSync(path.join(root, "sub"));
    writeFileSync(path.join(root, "sub", "secret.txt"), "inside\n");
    const workspace = new Workspace(root);
    const target = workspace.resolve("sub/secret.txt");
    renameSync(path.join(root, "sub"), path.join(root, "sub-old"));
    symlinkSync(outside, path.join(root, "sub"));
    await expect(openConfined(workspace, target, constants.O_RDONLY)).rejects.toThrow(/outside the workspace/);
    await expect(openForWrite(workspace, path.join(root, "sub", "new.txt"), true)).rejects.toBeInstanceOf(OutsideWorkspaceError);
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE\n");
  });

  it("reader never returns outside content while another process keeps swapping the file for a symlink", async () => {
    const { root, outside } = layout();
    const file = path.join(root, "inside.txt");
    // A real, separate process flips the path between the file and a link to the secret as fast as it can.
    const swapper = spawn(process.execPath, [
      "-e",
      `const fs = require("fs");
       const [file, secret] = process.argv.slice(1);
       fs.renameSync(file, file + ".real");
       for (;;) {
         try { fs.symlinkSync(secret, file + ".tmp"); fs.renameSync(file + ".tmp", file); } catch {}
         try { fs.linkSync(file + ".real", file + ".tmp2"); fs.renameSync(file + ".tmp2", file); } catch {}
       }`,
      file,
      path.join(outside, "secret.txt"),
    ]);
    try {
      const all = tools(root);
      let leaked = 0;
      let served = 0;
      for (let i = 0; i < 1500; i++) {
        const result = await call(all, "reader", { path: "inside.txt" });
        if (result["success"] === true) served++;
        if (JSON.stringify(result).includes("OUTSIDE")) leaked++;
      }
      expect(leaked).toBe(0);
      expect(served).toBeGreaterThan(0); // the race really ran: some reads saw the real file
    } finally {
      swapper.kill("SIGKILL");
    }
  }, 60_000);
});

describe("the coding sandbox: bash option values", () => {
  it("refuses attached option values that point outside, like separate ones", async () => {
    const { root } = layout();
    const all = tools(root);
    for (const command of ["cp -t/tmp inside.txt", "tar -C/etc -cf x.tar .", "cc -o/tmp/x a.c", "cp -t../x inside.txt", "tar -xC/etc -f x.tar"]) {
      expect(await call(all, "bash", { command }), command).toMatchObject({ success: false, error: expect.stringContaining("outside the workspace") });
    }
  });

  it("still runs options whose attached values stay inside", async () => {
    const { root } = layout();
    mkdirSync(path.join(root, "dest"));
    const result = await call(tools(root), "bash", { command: "cp -tdest inside.txt" });
    expect(result).toMatchObject({ success: true });
    expect(readFileSync(path.join(root, "dest", "inside.txt"), "utf8")).toBe("inside\n");
  });
});
