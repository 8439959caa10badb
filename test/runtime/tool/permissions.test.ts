import { describe, expect, it } from "vitest";
import { fnmatch, PermissionError, PermissionPolicy } from "@hooklens/runtime";

describe("PermissionPolicy", () => {
  it("allow_all (the default) allows everything", () => {
    expect(new PermissionPolicy().check("bash", "", { command: "rm -rf /" }).behavior).toBe("allow");
  });

  it("deny_all denies everything", () => {
    expect(new PermissionPolicy({ mode: "deny_all" }).check("reader", "", { path: "a" }).behavior).toBe("deny");
  });

  it("rules: a deny match wins over an allow match", () => {
    const policy = new PermissionPolicy({ mode: "rules", allow: { bash: ["*"] }, deny: { bash: ["rm *"] } });
    expect(policy.check("bash", "", { command: "rm x" })).toEqual({
      behavior: "deny",
      toolName: "bash",
      action: "",
      reason: "matched deny rule 'rm *'",
      matchedRule: "rm *",
    });
    expect(policy.check("bash", "", { command: "ls" }).behavior).toBe("allow");
  });

  it("rules: allow is tried before escalate", () => {
    const policy = new PermissionPolicy({ mode: "rules", allow: { bash: ["git status"] }, escalate: { bash: ["*"] } });
    expect(policy.check("bash", "", { command: "git status" }).behavior).toBe("allow");
    expect(policy.check("bash", "", { command: "git commit" }).behavior).toBe("escalate");
  });

  it("rules: the tool's own patterns are tried before the wildcard's within each list", () => {
    const policy = new PermissionPolicy({ mode: "rules", deny: { "*": ["*secret*"], editor: ["*.lock"] } });
    expect(policy.check("editor", "write", { filePath: "x.lock" }).matchedRule).toBe("*.lock");
    expect(policy.check("reader", "", { path: "my-secret.txt" }).matchedRule).toBe("*secret*");
  });

  it("rules: no matching rule is a default deny", () => {
    expect(new PermissionPolicy({ mode: "rules" }).check("reader", "", { path: "a" }).reason).toBe("no matching rule, default deny");
  });

  it("rules: a call whose arguments are not an object is denied, even where every value is allowed", () => {
    const policy = PermissionPolicy.readOnly();
    for (const args of [null, undefined, "src/app.ts", ["src/app.ts"]]) {
      expect(policy.check("reader", "", args as never)).toMatchObject({ behavior: "deny", reason: "the call's arguments are not an object, so no rule can be matched" });
    }
    expect(policy.check("reader", "", { path: "src/app.ts" }).behavior).toBe("allow");
  });

  it("rules: a bash command with a shell control operator is denied before any rule", () => {
    const policy = new PermissionPolicy({ mode: "rules", allow: { bash: ["*"] } });
    for (const command of ["ls; rm x", "ls && rm x", "ls | sh", "echo $(id)", "echo `id`", "cat > f", "sleep 1 &"]) {
      const decision = policy.check("bash", "", { command });
      expect(decision.behavior).toBe("deny");
      expect(decision.reason).toBe(`Shell control operator requires explicit approval: ${command}`);
    }
  });

  it("rules: builds the match string per tool (editor filePath, reader path, search pattern + path, others action + values)", () => {
    const policy = new PermissionPolicy({
      mode: "rules",
      allow: { editor: ["src/*"], reader: ["docs/*"], search: ["TODO src"], deploy: ["push prod"] },
    });
    expect(policy.check("editor", "write", { filePath: "src/a.ts" }).behavior).toBe("allow");
    expect(policy.check("reader", "", { path: "docs/x.md" }).behavior).toBe("allow");
    expect(policy.check("search", "", { pattern: "TODO", path: "src" }).behavior).toBe("allow");
    expect(policy.check("deploy", "push", { action: "push", target: "prod" }).behavior).toBe("allow");
  });

  it("normalises the standalone registration names (bash_tool → bash) in rules", () => {
    const policy = new PermissionPolicy({ mode: "rules", allow: { reader_tool: ["*"] } });
    expect(policy.check("reader", "", { path: "a" }).behavior).toBe("allow");
  });

  it("preset readOnly allows reader, search and context and denies editor and bash", () => {
    const policy = PermissionPolicy.readOnly();
    expect(["reader", "search", "context"].map((tool) => policy.check(tool, "", {}).behavior)).toEqual(["allow", "allow", "allow"]);
    expect(["editor", "bash"].map((tool) => policy.check(tool, "", {}).behavior)).toEqual(["deny", "deny"]);
  });

  it("preset safe denies dangerous bash, escalates other bash and allows the file tools", () => {
    const policy = PermissionPolicy.safe();
    expect(policy.check("bash", "", { command: "sudo ls" }).behavior).toBe("deny");
    expect(policy.check("bash", "", { command: "npm test" }).behavior).toBe("escalate");
    expect(policy.check("editor", "write", { filePath: "a" }).behavior).toBe("allow");
  });

  it("refuses an unknown mode", () => {
    expect(() => new PermissionPolicy({ mode: "maybe" as never })).toThrow(/Unknown permission mode/);
  });
});

describe("PermissionPolicy.toPreHook", () => {
  it("passes an allowed call (returns undefined)", async () => {
    expect(await new PermissionPolicy().toPreHook()("reader", "", { path: "a" })).toBeUndefined();
  });

  it("throws PermissionError for a denied call", async () => {
    const hook = new PermissionPolicy({ mode: "deny_all" }).toPreHook();
    await expect(hook("bash", "run", {})).rejects.toThrow(new PermissionError("Permission denied for bash.run: mode deny_all"));
  });

  it("escalation with no handler is refused", async () => {
    const hook = PermissionPolicy.safe().toPreHook();
    await expect(hook("bash", "", { command: "npm test" })).rejects.toThrow(
      "Permission escalation required for bash: matched escalate rule '*'. No escalation handler configured.",
    );
  });

  it("escalation handler: true allows, an object replaces the arguments, anything else refuses", async () => {
    const verdicts: unknown[] = [true, { command: "npm test --silent" }, "yes"];
    const seen: unknown[] = [];
    const hook = PermissionPolicy.safe({
      onEscalate: async (decision, args) => (seen.push([decision.behavior, args]), verdicts.shift()),
    }).toPreHook();
    expect(await hook("bash", "", { command: "npm test" })).toBeUndefined();
    expect(await hook("bash", "", { command: "npm test" })).toEqual({ command: "npm test --silent" });
    await expect(hook("bash", "", { command: "npm test" })).rejects.toThrow(PermissionError);
    expect(seen).toEqual([
      ["escalate", { command: "npm test" }],
      ["escalate", { command: "npm test" }],
      ["escalate", { command: "npm test" }],
    ]);
  });
});

describe("fnmatch", () => {
  it("matches shell-style wildcards case-sensitively, with * crossing slashes", () => {
    expect(fnmatch("src/a/b.ts", "src/*.ts")).toBe(true);
    expect(fnmatch("a.TS", "*.ts")).toBe(false);
    expect(fnmatch("a1", "a?")).toBe(true);
    expect(fnmatch("ab", "a[!b]")).toBe(false);
    expect(fnmatch("ac", "a[bc]")).toBe(true);
    expect(fnmatch("a.b", "a.b")).toBe(true);
    expect(fnmatch("axb", "a.b")).toBe(false);
    expect(fnmatch("[x", "[x")).toBe(true);
  });
});
