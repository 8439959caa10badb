/**
 * One tool call through `act()` with a typical hook set against calling the tool's function
 * directly. The hook set: a Session whose bus has a TOOL_PRE guard and a TOOL_POST logger (and
 * records HookSignals on the observer), a permission policy and `guardDestructive` as security
 * pre-hooks, one user pre-hook and one post-hook. Also shown: the same Tool through
 * `ActionManager.invoke` alone, and `act()` on a standalone branch with no hooks.
 */
import { Branch } from "../../runtime/src/session/branch.js";
import { HookPoint } from "../../runtime/src/session/hookPoint.js";
import { Session } from "../../runtime/src/session/session.js";
import { act } from "../../runtime/src/tool/act.js";
import { ActionManager } from "../../runtime/src/tool/actionManager.js";
import { attachHooks } from "../../runtime/src/tool/factory.js";
import { guardDestructive } from "../../runtime/src/tool/guards.js";
import { PermissionPolicy } from "../../runtime/src/tool/permissions.js";
import { AgentSpec } from "../../runtime/src/tool/spec.js";
import { Tool } from "../../runtime/src/tool/tool.js";
import { measure, report } from "./measure.js";

type Args = Record<string, unknown>;
let sink = 0;

function lookup(args: Args): Args {
  sink++;
  return { key: args["key"], value: 42, success: true };
}

function hookedTool(): Tool {
  const spec = new AgentSpec({ permissions: new PermissionPolicy({ mode: "rules", allow: { lookup: ["*"] } }) });
  spec.hookHandlers.set("security_pre:*", [spec.permissions!.toPreHook(), guardDestructive]);
  spec.pre("lookup", (_tool, _action, args) => ({ ...args, traced: true }));
  spec.post("lookup", (_tool, _action, _args, result) => ({ ...result, checked: true }));
  return attachHooks(new Tool({ funcCallable: lookup, name: "lookup" }), spec, "lookup");
}

/** A fresh hooked branch every 500 calls, so stored messages and signals do not pile up across the run. */
function hookedBranches(): () => Branch {
  let branch: Branch | null = null;
  let uses = 0;
  return () => {
    if (!branch || ++uses % 500 === 0) {
      const session = new Session();
      session.hooks.on(HookPoint.TOOL_PRE, (payload) => {
        if (payload.toolName === "forbidden") throw new Error("no");
      });
      session.hooks.on(HookPoint.TOOL_POST, (payload) => {
        sink += payload.resultSummary.length;
      });
      branch = session.newBranch();
      branch.registerTools(hookedTool());
    }
    return branch;
  };
}

function plainBranches(): () => Branch {
  let branch: Branch | null = null;
  let uses = 0;
  return () => {
    if (!branch || ++uses % 500 === 0) branch = new Branch().registerTools(new Tool({ funcCallable: lookup, name: "lookup" }));
    return branch;
  };
}

export async function run(): Promise<string> {
  const request = () => ({ function: "lookup", arguments: { key: "k" } });
  const direct = await measure("direct call", () => lookup({ key: "k" }));
  const manager = new ActionManager([hookedTool()]);
  const invoke = await measure("ActionManager.invoke", () => manager.invoke(request()));
  const nextHooked = hookedBranches();
  const hooked = await measure("act(), typical hooks", () => act(nextHooked(), request()));
  const nextPlain = plainBranches();
  const plain = await measure("act(), no hooks", () => act(nextPlain(), request()));
  if (sink < 0) console.log(sink);
  return report("Tool call: act() against calling the function directly", [
    { label: "act(), session bus + permission + guards + pre/post", subject: hooked, baseline: direct },
    { label: "ActionManager.invoke, same Tool hook chain", subject: invoke, baseline: direct },
    { label: "act(), standalone branch, no hooks", subject: plain, baseline: direct },
  ]);
}
