import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { testTempDir } from "../../helpers/tempDir.js";
import {
  ActionManager,
  AgentSpec,
  attachHooks,
  AUTO_FORMAT_TIMEOUT_MS,
  autoFormat,
  CodingToolkit,
  setLogger,
  Tool,
  type Logger,
} from "@hooklens/runtime";

/** The real prettier binary from npm, run as argv (no shell). */
const PRETTIER = fileURLToPath(new URL("../../../node_modules/.bin/prettier", import.meta.url));
const UGLY = "const   x = {a:1,\n b:2}\n";
const PRETTY = "const x = { a: 1, b: 2 };\n";

const format = autoFormat({ command: [PRETTIER, "--write"] });

function file(name: string, content = UGLY): string {
  const target = path.join(testTempDir("hooklens-format-"), name);
  writeFileSync(target, content);
  return target;
}

function captureWarnings(): string[] {
  const warnings: string[] = [];
  const push = (objOrMsg: object | string, msg?: string) => void warnings.push(typeof objOrMsg === "string" ? objOrMsg : (msg ?? ""));
  const spy: Logger = { debug: () => undefined, info: () => undefined, warn: push, error: push };
  restore = setLogger(spy);
  return warnings;
}

let restore: Logger | null = null;
afterEach(() => {
  if (restore) setLogger(restore);
  restore = null;
});

describe("autoFormat post hook", () => {
  it("formats the file of a successful edit with the real formatter and returns undefined", async () => {
    const target = file("a.ts");
    expect(await format("editor", "", { filePath: target }, { success: true })).toBeUndefined();
    expect(readFileSync(target, "utf8")).toBe(PRETTY);
  });

  it("leaves files with other endings alone", async () => {
    const target = file("a.js");
    await format("editor", "", { filePath: target }, { success: true });
    expect(readFileSync(target, "utf8")).toBe(UGLY);
  });

  it("does nothing after an unsuccessful edit or a non-object result", async () => {
    const target = file("a.ts");
    await format("editor", "", { filePath: target }, { success: false });
    await format("editor", "", { filePath: target }, "ok" as never);
    expect(readFileSync(target, "utf8")).toBe(UGLY);
  });

  it("runs the formatter as argv, so shell syntax in a file name is just a name", async () => {
    const target = file("x; touch pwned $(touch pwned2).ts");
    await format("editor", "", { filePath: target }, { success: true });
    expect(readFileSync(target, "utf8")).toBe(PRETTY);
    expect(existsSync(path.join(path.dirname(target), "pwned"))).toBe(false);
    expect(existsSync(path.join(process.cwd(), "pwned2"))).toBe(false);
  });

  it("swallows and logs a formatter that fails or is missing", async () => {
    const warnings = captureWarnings();
    const broken = file("broken.ts", "const = ;\n");
    await expect(format("editor", "", { filePath: broken }, { success: true })).resolves.toBeUndefined();
    await expect(
      autoFormat({ command: ["no-such-formatter-hooklens"] })("editor", "", { filePath: broken }, { success: true }),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^auto-format failed for .*broken\.ts: exit 2/);
    expect(warnings[1]).toMatch(/no-such-formatter-hooklens|ENOENT/);
  });

  it("has a 10 s deadline by default and kills a formatter that outlives its deadline", async () => {
    expect(AUTO_FORMAT_TIMEOUT_MS).toBe(10_000);
    const warnings = captureWarnings();
    const slow = autoFormat({ command: [process.execPath, "-e", "setTimeout(() => {}, 60000)"], timeoutMs: 200 });
    await slow("editor", "", { filePath: file("a.ts") }, { success: true });
    expect(warnings).toEqual([expect.stringMatching(/timed out after 200 ms/)]);
  });

  it("never formats when attached through a factory post chain, which passes {} as the arguments (as built)", async () => {
    const target = file("a.ts");
    const spec = new AgentSpec().post("write", format);
    const manager = new ActionManager();
    const edit = new Tool({ funcCallable: () => ({ success: true, filePath: target }), name: "write" });
    manager.register(attachHooks(edit, spec, "write"));
    await manager.invoke({ function: "write", arguments: { filePath: target } });
    expect(readFileSync(target, "utf8")).toBe(UGLY);
  });

  it("never formats through the CodingToolkit's post chain either", async () => {
    const root = testTempDir("hooklens-format-kit-");
    const toolkit = new CodingToolkit({ workspaceRoot: root, notify: false }).post("editor", format);
    const manager = new ActionManager(toolkit.bind());
    const call = await manager.invoke({ function: "editor", arguments: { action: "write", filePath: "a.ts", content: UGLY } });
    expect(call.response).toMatchObject({ success: true });
    expect(readFileSync(path.join(root, "a.ts"), "utf8")).toBe(UGLY);
  });
});
