import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTempDir } from "../../helpers/tempDir.js";
import { guardDestructive, guardPaths, PATH_ARGUMENT_NAMES, PermissionError } from "@hooklens/runtime";

describe("guardDestructive", () => {
  it.each([
    "rm -rf build",
    "RM  -RF /",
    "git push --force origin main",
    "git reset --hard HEAD~1",
    "git clean -fdx",
    "psql -c 'DROP TABLE users'",
    "drop database prod",
    "truncate table logs",
    "mkfs.ext4 /dev/sda1",
    "dd if=/dev/zero of=x",
    "echo x > /dev/sdb",
  ])("blocks %j", async (command) => {
    await expect(guardDestructive("bash", "", { command })).rejects.toThrow(
      new PermissionError(`Blocked destructive command: ${command}\nIf you need this, explain why and ask the user to run it manually.`),
    );
  });

  it.each(["rm file.txt", "git push origin main", "ls -rf", "format-table", "add if=x"])("lets %j through", async (command) => {
    await expect(guardDestructive("bash", "", { command })).resolves.toBeUndefined();
  });

  it("ignores calls without a string command", async () => {
    await expect(guardDestructive("reader", "", { path: "rm -rf" })).resolves.toBeUndefined();
    await expect(guardDestructive("bash", "", { command: ["rm", "-rf"] })).resolves.toBeUndefined();
  });
});

describe("guardPaths", () => {
  const temp = createTempDir("hooklens-guard-");
  afterAll(() => temp.dispose());
  const base = realpathSync(temp.dir);
  const project = path.join(base, "project");
  mkdirSync(path.join(project, "src"), { recursive: true });
  mkdirSync(path.join(base, "project-evil"), { recursive: true });
  symlinkSync(base, path.join(project, "escape"));

  const guard = guardPaths({ allowedPaths: [project] });

  it("allows the root itself and paths inside it", async () => {
    await expect(guard("reader", "", { path: project })).resolves.toBeUndefined();
    await expect(guard("reader", "", { path: path.join(project, "src", "new.ts") })).resolves.toBeUndefined();
  });

  it("resolves a relative path against the first allowed root", async () => {
    await expect(guard("reader", "", { path: "src/a.ts" })).resolves.toBeUndefined();
    await expect(guard("reader", "", { path: "../outside.txt" })).rejects.toThrow(
      new PermissionError("Path not in allowed list: ../outside.txt"),
    );
  });

  it("compares whole components, so a sibling sharing the prefix (project-evil) is outside", async () => {
    const sibling = path.join(base, "project-evil", "x");
    await expect(guard("reader", "", { path: sibling })).rejects.toThrow(`Path not in allowed list: ${sibling}`);
  });

  it("follows symlinks before comparing, so a link out of the root is outside", async () => {
    await expect(guard("reader", "", { path: "escape/project-evil/x" })).rejects.toThrow(PermissionError);
  });

  it.each(["filePath", "file_path", "filepath", "fileName", "file_name", "filename", "file", "dirPath", "dir_path", "directory", "dir"])(
    "checks a path passed as %s, as tools ported from other languages name it",
    async (name) => {
      await expect(guard("editor", "write", { [name]: "/etc/passwd" })).rejects.toThrow("Path not in allowed list: /etc/passwd");
      await expect(guard("editor", "write", { [name]: "src/a.ts" })).resolves.toBeUndefined();
    },
  );

  it("checks every path argument a call carries, not only the first", async () => {
    await expect(guard("copy", "", { path: "src/a.ts", file_path: "/etc/passwd" })).rejects.toThrow("Path not in allowed list: /etc/passwd");
  });

  it("refuses a call whose path argument it cannot find, naming the keys it saw and the names it knows", async () => {
    await expect(guard("bash", "", { command: "ls /" })).rejects.toThrow(
      new PermissionError(`guardPaths refused bash: no path argument among command; it looks for ${PATH_ARGUMENT_NAMES.join(", ")}`),
    );
    await expect(guard("reader", "", {})).rejects.toThrow(/^guardPaths refused reader: no path argument among its \(no\) arguments/);
  });

  it("refuses a path argument that is not a non-empty string, and arguments that are not an object", async () => {
    await expect(guard("reader", "", { path: "" })).rejects.toThrow('guardPaths refused reader: argument "path" must be a non-empty path string, got ""');
    await expect(guard("reader", "", { file_path: ["/etc/passwd"] })).rejects.toThrow('argument "file_path" must be a non-empty path string, got ["/etc/passwd"]');
    await expect(guard("reader", "", null as unknown as Record<string, unknown>)).rejects.toThrow("guardPaths refused reader: its arguments are null, not an object with a path");
  });

  it("an absolute deny rule denies the path and everything under it", async () => {
    const denyGuard = guardPaths({ allowedPaths: [project], deniedPaths: [path.join(project, "src")] });
    await expect(denyGuard("reader", "", { path: "src/a.ts" })).rejects.toThrow(new PermissionError("Path matches deny rule: src/a.ts"));
    await expect(denyGuard("reader", "", { path: "srcx/a.ts" })).resolves.toBeUndefined();
  });

  it("a wildcard deny rule is matched against each resolved component", async () => {
    const denyGuard = guardPaths({ deniedPaths: ["*.pem"] });
    await expect(denyGuard("reader", "", { path: path.join(project, "keys.pem", "inner") })).rejects.toThrow("Path matches deny rule");
    await expect(denyGuard("reader", "", { path: path.join(project, "keys.pem.txt") })).resolves.toBeUndefined();
  });

  it("a plain relative deny rule is a substring test: .env also blocks .env.local, and braces are literal", async () => {
    const denyGuard = guardPaths({ deniedPaths: [".env", "secret~", "{secret}"] });
    await expect(denyGuard("reader", "", { path: path.join(project, ".env.local") })).rejects.toThrow("Path matches deny rule");
    await expect(denyGuard("reader", "", { path: path.join(project, "mysecret~backup") })).rejects.toThrow("Path matches deny rule");
    await expect(denyGuard("reader", "", { path: path.join(project, "secret") })).resolves.toBeUndefined();
    await expect(denyGuard("reader", "", { path: path.join(project, "{secret}.txt") })).rejects.toThrow("Path matches deny rule");
  });
});
