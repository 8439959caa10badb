import { requireObject } from "../../shared/arguments.js";
import { act, GOVERNANCE_DENIAL, type ActingBranch } from "../../tool/act.js";
import type { ToolLike } from "../../tool/actionManager.js";
import { ToolResult, type ToolCall, type ToolSpec } from "../calls.js";
import type { ToolBackend } from "./backends.js";

/** What the middleware needs to know about a tool beyond the Tool itself. */
export interface ToolMeta {
  /** Rate-limit bucket and log category; defaults to the tool's name. */
  kind?: string;
  /** Needs approval before it runs; its arguments are never logged. */
  confirm?: boolean;
  /** Its ok outputs may be served from the executor's cache. */
  cacheable?: boolean;
}

/**
 * The executor's tool registry: the tools of one Branch, run through the Tool scope's `act()`.
 * Inside the middleware's call step, `act()` authorizes the call, fires the branch's HookBus
 * TOOL_PRE/TOOL_POST/TOOL_ERROR, runs the Tool's preprocessor, callable and postprocessor, and
 * records the request and response messages. Tools registered on the branch directly are
 * found too, with default metadata.
 */
export class BranchTools implements ToolBackend {
  readonly branch: ActingBranch;
  readonly #meta = new Map<string, ToolMeta>();

  constructor(branch: ActingBranch) {
    requireObject(branch, "new BranchTools(branch)", "branch (a Branch from session.newBranch())");
    this.branch = branch;
  }

  /** Registers a Tool (or a named function) on the branch, with its middleware metadata. */
  register(tool: ToolLike, meta: ToolMeta = {}): this {
    const before = new Set(this.branch.actionManager.registry.keys());
    this.branch.actionManager.register(tool);
    for (const name of this.branch.actionManager.registry.keys()) if (!before.has(name)) this.#meta.set(name, { ...meta });
    return this;
  }

  spec(name: string): ToolSpec | undefined {
    const tool = this.branch.actionManager.registry.get(name);
    if (tool === undefined) return undefined;
    const meta = this.#meta.get(name) ?? {};
    return {
      name,
      kind: meta.kind ?? name,
      confirm: meta.confirm ?? false,
      cacheable: meta.cacheable ?? false,
      schema: tool.requestOptions,
    };
  }

  /**
   * Runs the call with `act(branch, { function, arguments }, { suppressErrors: false })`: a
   * failure throws (so on-error hooks see the real error), and a governance denial, which
   * `act()` reports as output rather than throwing, becomes a failed result ("GateDenied").
   */
  async run(call: ToolCall, spec: ToolSpec): Promise<ToolResult> {
    const response = await act(this.branch, { function: spec.name, arguments: { ...call.arguments } }, { suppressErrors: false, parentCallId: call.id });
    const output = response.output;
    if (isDenial(output))
      return new ToolResult({ callId: call.id, tool: spec.name, status: "error", value: output, errorKind: "GateDenied" });
    return new ToolResult({ callId: call.id, tool: spec.name, status: "ok", value: output });
  }
}

function isDenial(output: unknown): boolean {
  return typeof output === "object" && output !== null && (output as { error?: unknown }).error === GOVERNANCE_DENIAL;
}
