import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

// `npm test` starts test/e2e/install.sh through npm, whose environment names the outer npm's Node
// (npm_config_user_agent "… node/v20 …"): code-server's postinstall read it and refused to install.
// The install must see none of the outer npm's settings, however it is started.
describe("the end-to-end toolchain install", () => {
  const installEnv = (command: string[]): string[] => {
    const run = spawnSync(command[0]!, command.slice(1), { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout.split("\n").filter(Boolean);
  };

  it.each([
    ["started by npm", ["npm", "exec", "--offline", "-c", "bash test/e2e/install.sh --print-install-env"]],
    ["started directly", ["bash", "test/e2e/install.sh", "--print-install-env"]],
  ])("runs its npm installs without the outer npm's settings when %s", (_how, command) => {
    const env = installEnv(command);
    expect(env.filter((line) => /^(npm_|INIT_CWD=|NODE=)/.test(line))).toEqual([]);
    expect(env.some((line) => line.startsWith("PATH="))).toBe(true);
  });

  it("really is started by npm in the test above (npm exports its user agent to what it runs)", () => {
    const outer = installEnv(["npm", "exec", "--offline", "-c", "env"]);
    expect(outer.find((line) => line.startsWith("npm_config_user_agent="))).toMatch(/node\/v\d+/);
  });
});
