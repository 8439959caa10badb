import { getLogger } from "../../shared/log.js";
import { ApprovalDenied } from "../errors.js";
import { ToolInvocation } from "../invocations.js";

/** `true` runs the call, `false` or `{ deny }` refuses it, `{ arguments }` runs it with edited arguments. */
export type ApprovalDecision = boolean | { readonly deny: string } | { readonly arguments: Readonly<Record<string, unknown>> };

/** Decides whether a confirm tool may run; may be async (a human in the loop). */
export type Approval = (inv: ToolInvocation) => ApprovalDecision | PromiseLike<ApprovalDecision>;

/**
 * Asks for approval of a confirm tool. Returns the invocation to run: the same one, or a new
 * one built (and validated) from edited arguments. Without an approval callback a confirm tool
 * is refused: it was marked as needing someone's yes.
 */
export async function approve(inv: ToolInvocation, approval: Approval | null): Promise<ToolInvocation> {
  if (!inv.spec.confirm) return inv;
  const decision = approval === null ? { deny: "no approval callback is configured" } : await approval(inv);
  if (decision === true) return inv;
  if (decision !== false && typeof decision === "object" && decision !== null && "arguments" in decision) {
    return new ToolInvocation(inv.spec, { ...inv.call, arguments: decision.arguments }, inv.ctx);
  }
  const reason = typeof decision === "object" && decision !== null && "deny" in decision ? decision.deny : "refused";
  getLogger().warn({ tool: inv.spec.name, callId: inv.call.id, runId: inv.ctx.runId }, `approval denied for ${inv.spec.name}`);
  throw new ApprovalDenied(inv.spec.name, reason);
}
