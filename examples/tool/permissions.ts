// PermissionPolicy and the built-in guards as security pre-hooks.
import assert from "node:assert/strict";
import { guardDestructive, guardPaths, PermissionError, PermissionPolicy } from "@hooklens/runtime";

const policy = new PermissionPolicy({
  mode: "rules",
  deny: { bash: ["rm *"] },
  allow: { bash: ["git status", "npm test*"], reader: ["*"] },
  escalate: { bash: ["*"] },
});
console.log(policy.check("bash", "", { command: "rm -r build" }).behavior); // deny (deny is tried first)
assert.equal(policy.check("bash", "", { command: "npm test -- --watch" }).behavior, "allow");
assert.equal(policy.check("bash", "", { command: "git push" }).behavior, "escalate");
assert.equal(
  policy.check("bash", "", { command: "git status && rm x" }).reason,
  "Shell control operator requires explicit approval: git status && rm x",
);

// As a pre-hook: allow passes, escalate asks the handler, deny throws.
const approved = new Set(["git push"]);
const hook = new PermissionPolicy({
  mode: "rules",
  escalate: { bash: ["*"] },
  onEscalate: (_decision, args) => approved.has(String(args["command"])),
}).toPreHook();
await hook("bash", "", { command: "git push" });
await assert.rejects(hook("bash", "", { command: "git push --tags" }), PermissionError);

// Presets.
assert.equal(PermissionPolicy.readOnly().check("editor", "write", { filePath: "a" }).behavior, "deny");
assert.equal(PermissionPolicy.safe().check("bash", "", { command: "sudo ls" }).behavior, "deny");

// Guards.
await assert.rejects(guardDestructive("bash", "", { command: "git reset --hard" }), /Blocked destructive command/);
const confine = guardPaths({ allowedPaths: ["/srv/project"], deniedPaths: [".env"] });
await confine("reader", "", { path: "src/index.ts" }); // relative: resolved against the first root
await assert.rejects(confine("reader", "", { path: "/srv/project-evil/x" }), /Path not in allowed list/);
await assert.rejects(confine("reader", "", { path: "/srv/project/.env.local" }), /Path matches deny rule/);
console.log("ok");
