import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SERVER_INLINING_BUDGET, SERVER_NODE_FLAGS } from "../../server/src/launchOptions.js";

/** The value V8 runs with for one of its flags, as it prints them at start (`--print-flag-values`). */
function v8FlagValue(flags: readonly string[], name: string): number {
  const printed = execFileSync(process.execPath, [...flags, "--print-flag-values", "-e", "0"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  const line = printed.split("\n").find((l) => l.startsWith(`--${name}=`));
  if (!line) throw new Error(`V8 printed no --${name}`);
  return Number(line.slice(name.length + 3));
}

describe("the server's Node flags", () => {
  it("are all flags this Node knows (an unknown one stops Node before it runs anything)", () => {
    expect(() => execFileSync(process.execPath, [...SERVER_NODE_FLAGS, "-e", "0"], { stdio: "pipe", env: { ...process.env, NODE_OPTIONS: "" } })).not.toThrow();
  });

  it("give TurboFan a smaller inlining budget than V8's own, and V8 takes it", () => {
    const v8Default = v8FlagValue([], "max-inlined-bytecode-size-cumulative");
    expect(SERVER_INLINING_BUDGET).toBeLessThan(v8Default);
    expect(v8FlagValue(SERVER_NODE_FLAGS, "max-inlined-bytecode-size-cumulative")).toBe(SERVER_INLINING_BUDGET);
  });
});
