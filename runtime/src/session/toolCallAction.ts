import { requireName, requireObject } from "../shared/arguments.js";
/**
 * The governance action a tool call passes to `authorize` before anything runs: the function
 * name, its arguments (`{}` when they were not an object) and the calling Branch's id. A gate
 * denial stores it as the `data` of a `GateDenied`.
 */
export class ToolCallAction {
  readonly function: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly branchId: string | null;

  constructor(init: { function: string; arguments?: Record<string, unknown>; branchId?: string | null }) {
    const where = "new ToolCallAction(init)";
    this.function = requireName(requireObject(init, where, "init ({ function, arguments?, branchId? })").function, where, "init.function");
    this.arguments = init.arguments ?? {};
    this.branchId = init.branchId ?? null;
    Object.freeze(this);
  }
}
