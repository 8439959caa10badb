import { requireName, requireObject, requireSchema } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import type { ToolArguments, ToolCall, ToolSpec } from "./calls.js";
import type { RunContext } from "./context.js";
import type { LLMRequest } from "./llm.js";

/**
 * A tool call about to run. The constructor validates the arguments against the spec's schema,
 * so every hook sees the parsed arguments under the names the model uses.
 */
export class ToolInvocation {
  readonly spec: ToolSpec;
  readonly call: ToolCall;
  readonly ctx: RunContext;

  constructor(spec: ToolSpec, call: ToolCall, ctx: RunContext) {
    const where = "new ToolInvocation(spec, call, ctx)";
    requireObject(spec, where, "spec ({ name, kind, confirm, cacheable, schema })");
    requireName(spec.name, where, "spec.name");
    // null means "any object"; anything else must be able to validate the arguments.
    if (spec.schema !== null) requireSchema(spec.schema, where, "spec.schema (a zod schema, or null to accept any object)");
    requireObject(call, where, "call ({ name, arguments })");
    requireObject(ctx, where, "ctx (a RunContext from executor.context())");
    if (call.name !== spec.name) throw new InvalidValueError(`call for ${call.name} cannot run as ${spec.name}`);
    this.spec = spec;
    this.call = Object.freeze({ ...call, arguments: validateArguments(spec, call.arguments) });
    this.ctx = ctx;
  }
}

function validateArguments(spec: ToolSpec, args: unknown): ToolArguments {
  if (spec.schema === null) {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      throw new InvalidValueError(`arguments of ${spec.name} must be an object`);
    }
    return args as ToolArguments;
  }
  const parsed = spec.schema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new InvalidValueError(`arguments of ${spec.name} do not match its schema: ${issues}`);
  }
  return parsed.data as ToolArguments;
}

/** A model call about to run. */
export class LLMInvocation {
  readonly request: LLMRequest;
  readonly provider: string;
  readonly model: string;
  readonly ctx: RunContext;

  constructor(request: LLMRequest, provider: string, model: string, ctx: RunContext) {
    const where = "new LLMInvocation(request, provider, model, ctx)";
    requireObject(request, where, "request ({ messages })");
    requireName(provider, where, "provider");
    requireName(model, where, "model");
    requireObject(ctx, where, "ctx (a RunContext from executor.context())");
    this.request = request;
    this.provider = provider;
    this.model = model;
    this.ctx = ctx;
  }
}

/** A flow node about to run on the current state. */
export class NodeInvocation<S extends object = Record<string, unknown>> {
  readonly flow: string;
  readonly node: string;
  readonly state: Readonly<S>;
  readonly ctx: RunContext;

  constructor(flow: string, node: string, state: Readonly<S>, ctx: RunContext) {
    const where = "new NodeInvocation(flow, node, state, ctx)";
    requireName(flow, where, "flow");
    requireName(node, where, "node");
    requireObject(state, where, "state");
    requireObject(ctx, where, "ctx (a RunContext from executor.context())");
    this.flow = flow;
    this.node = node;
    this.state = state;
    this.ctx = ctx;
  }
}

export type Invocation = ToolInvocation | LLMInvocation | NodeInvocation<object>;
