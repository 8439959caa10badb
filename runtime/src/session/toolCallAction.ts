import { requireName, requireObject } from "../shared/arguments.js";
/**
 * The governance action a tool call passes to `authorize` before anything runs: the function
 * name, its arguments (`{}` when they were not an object), the calling Branch's id and the call's
 * id (the one its TOOL_PRE payload and call signals carry; null when built by hand). A gate
 * denial stores it as the `data` of a `GateDenied`, so the denial names exactly which call it
 * stopped, even among concurrent calls of one tool on one branch.
 */
export class ToolCallAction {
  readonly function: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly branchId: string | null;
  readonly callId: string | null;

  constructor(init: { function: string; arguments?: Record<string, unknown>; branchId?: string | null; callId?: string | null }) {
    const where = "new ToolCallAction(init)";
    this.function = requireName(requireObject(init, where, "init ({ function, arguments?, branchId? })").function, where, "init.function");
    this.arguments = init.arguments ?? {};
    this.branchId = init.branchId ?? null;
    this.callId = init.callId === undefined || init.callId === null ? null : requireName(init.callId, where, "init.callId");
    Object.freeze(this);
  }
}
