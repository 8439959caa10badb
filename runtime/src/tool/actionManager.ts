import { InvalidValueError } from "../shared/errors.js";
import { readEnvelope } from "./actionRequest.js";
import { FunctionCalling } from "./functionCalling.js";
import { Tool, type ToolCallable } from "./tool.js";
import type { ToolSchema } from "./toolSchema.js";
import { describeValue, optionsObject, requireArray } from "../shared/arguments.js";

/** What can be registered: a Tool, or a named function that becomes one. */
export type ToolLike = Tool | ToolCallable;

export interface RegisterOptions {
  /** Replace a tool already registered under the same name instead of rejecting it. */
  update?: boolean;
}

/**
 * The tools a Branch can call, by name. `match` builds a validated {@link FunctionCalling};
 * `invoke` builds and runs it. Validation errors and unknown names throw; failures inside the
 * call are recorded on the returned FunctionCalling.
 */
export class ActionManager {
  readonly registry = new Map<string, Tool>();

  constructor(tools: readonly ToolLike[] = []) {
    this.register([...requireArray(tools, "new ActionManager(tools)", "tools (Tools or functions)")], { update: true });
  }

  /** True when a tool of that name (or of that Tool's / function's name) is registered. */
  has(tool: ToolLike | string): boolean {
    return this.registry.has(nameOf(tool));
  }

  /** Registers one tool or several. A duplicate name is rejected unless `update` is set. */
  register(tools: ToolLike | readonly ToolLike[], options: RegisterOptions = {}): this {
    optionsObject(options, "ActionManager.register(tools, options)");
    for (const tool of Array.isArray(tools) ? tools : [tools]) this.registerTool(tool, options);
    return this;
  }

  /** Registers one tool (Python's `register_tool`). */
  registerTool(tool: ToolLike, options: RegisterOptions = {}): this {
    if (!(tool instanceof Tool) && typeof tool !== "function") {
      throw new InvalidValueError(`ActionManager.register(tools, options): each tool must be a Tool or a function, got ${describeValue(tool)}`);
    }
    optionsObject(options, "ActionManager.registerTool(tool, options)");
    if (!options.update && this.has(tool)) throw new InvalidValueError(`Tool ${nameOf(tool)} is already registered.`);
    const entry = tool instanceof Tool ? tool : new Tool({ funcCallable: tool });
    this.registry.set(entry.function, entry);
    return this;
  }

  /** Registers several tools (Python's `register_tools`). */
  registerTools(tools: ToolLike | readonly ToolLike[], options: RegisterOptions = {}): this {
    return this.register(tools, options);
  }

  /** Finds the tool a request names and builds its call; argument validation runs here. */
  match(request: unknown): FunctionCalling {
    let envelope;
    try {
      envelope = readEnvelope(request);
    } catch (error) {
      throw new InvalidValueError(`ActionManager.match(request): unsupported action request: ${(error as Error).message}`);
    }
    const tool = this.registry.get(envelope.function);
    if (!tool) throw new InvalidValueError(`Function ${envelope.function} is not registered.`);
    return new FunctionCalling(tool, envelope.arguments);
  }

  /** Alias of {@link match} under the Python name. */
  matchTool(request: unknown): FunctionCalling {
    return this.match(request);
  }

  /** Builds the call and runs it; the returned FunctionCalling carries the status, response or error. */
  async invoke(request: unknown): Promise<FunctionCalling> {
    const call = this.match(request);
    await call.invoke();
    return call;
  }

  /** Every registered tool's function description, for the model. */
  get schemaList(): ToolSchema[] {
    return [...this.registry.values()].map((tool) => tool.toolSchema);
  }
}

function nameOf(tool: ToolLike | string): string {
  if (typeof tool === "string") return tool;
  if (tool instanceof Tool) return tool.function;
  if (typeof tool === "function") return tool.name;
  throw new InvalidValueError(`ActionManager.has(tool): tool must be a name, a Tool or a function, got ${describeValue(tool)}`);
}

