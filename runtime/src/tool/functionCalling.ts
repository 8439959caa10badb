import { performance } from "node:perf_hooks";
import type { z } from "zod";
import { InvalidValueError } from "../shared/errors.js";
import { ToolArgumentsError } from "./errors.js";
import { copyArgs, defineOwn, isPlainObject, type ToolArgs } from "./objects.js";
import { summarize } from "./summary.js";
import { Tool } from "./tool.js";
import { describeValue } from "../shared/arguments.js";
import { newId } from "../shared/ids.js";

/** The lifecycle of one call (the string values of the service scope's EventStatus). */
export type FunctionCallingStatus = "pending" | "processing" | "completed" | "failed";

/** What happened when the call ran. `duration` is in seconds, as a float. */
export interface Execution {
  status: FunctionCallingStatus;
  duration: number | null;
  response: unknown;
  error: unknown;
}

/**
 * One call of one Tool with its arguments. Building it validates the arguments (the request
 * model, then strict or minimum field names); `invoke` runs preprocessor → callable →
 * postprocessor and never throws: a failure is recorded as `status: "failed"` with the error.
 */
export class FunctionCalling {
  readonly createdAt: number = Date.now() / 1000;
  #id: string | null = null;
  readonly funcTool: Tool;
  arguments: ToolArgs;
  readonly execution: Execution = { status: "pending", duration: null, response: undefined, error: undefined };

  constructor(funcTool: Tool, args: unknown) {
    if (!(funcTool instanceof Tool)) {
      throw new InvalidValueError(`new FunctionCalling(funcTool, args): funcTool must be a Tool, got ${describeValue(funcTool)}`);
    }
    this.funcTool = funcTool;
    this.arguments = validateArguments(funcTool, args);
  }

  /** A UUID v4, made on first read: most calls are never looked up by id. */
  get id(): string {
    return (this.#id ??= newId());
  }

  /** The tool's name. */
  get function(): string {
    return this.funcTool.function;
  }

  get status(): FunctionCallingStatus {
    return this.execution.status;
  }

  get response(): unknown {
    return this.execution.response;
  }

  get error(): unknown {
    return this.execution.error;
  }

  /**
   * Runs the call. The preprocessor's return replaces the arguments without validating them
   * again (as built), the callable gets a copy of them, and the postprocessor's return replaces
   * the response.
   */
  async invoke(): Promise<void> {
    const tool = this.funcTool;
    const start = performance.now();
    this.execution.status = "processing";
    try {
      if (tool.preprocessor) this.arguments = (await tool.preprocessor(this.arguments, tool.preprocessorKwargs)) as ToolArgs;
      if (this.arguments === null || typeof this.arguments !== "object" || Array.isArray(this.arguments)) {
        throw new TypeError(`Tool '${tool.function}': the preprocessor returned ${summarize(this.arguments, 40)}, not an argument object.`);
      }
      let response = await tool.funcCallable(copyArgs(this.arguments));
      if (tool.postprocessor) response = await tool.postprocessor(response, tool.postprocessorKwargs);
      this.execution.response = response;
      this.execution.status = "completed";
    } catch (error) {
      this.execution.error = error;
      this.execution.status = "failed";
    } finally {
      this.execution.duration = (performance.now() - start) / 1000;
    }
  }

  toDict(): Record<string, unknown> {
    return { id: this.id, createdAt: this.createdAt, function: this.function, arguments: this.arguments, execution: { ...this.execution } };
  }

  toString(): string {
    return `${this.function}(${summarize(this.arguments)})`;
  }
}

function validateArguments(tool: Tool, raw: unknown): ToolArgs {
  const name = tool.function;
  if (!isPlainObject(raw)) {
    throw new ToolArgumentsError(name, [], `Tool '${name}': arguments must be an object, got ${describeType(raw)}.`);
  }
  const args = tool.requestOptions ? applyRequestModel(tool, raw) : raw;
  const given = new Set(Object.keys(args));
  if (tool.strictFuncCall) {
    const required = tool.requiredFields;
    const missing = [...required].filter((field) => !given.has(field));
    const unexpected = [...given].filter((field) => !required.has(field));
    if (missing.length || unexpected.length) throw schemaMismatch(name, missing, unexpected);
  } else {
    const missing = [...tool.minimumAcceptableFields].filter((field) => !given.has(field));
    if (missing.length) throw schemaMismatch(name, missing, []);
  }
  return args;
}

/**
 * Parses with the request model and keeps only the fields the caller set (pydantic's
 * `exclude_unset`): schema defaults are not filled in, and unknown keys are dropped.
 */
function applyRequestModel(tool: Tool, raw: ToolArgs): ToolArgs {
  let parsed: z.ZodSafeParseResult<Record<string, unknown>>;
  try {
    parsed = tool.requestOptions!.safeParse(raw);
  } catch (error) {
    // A throwing getter or proxy trap in the arguments: report it as a bad argument, not a crash.
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolArgumentsError(tool.function, [], `Tool '${tool.function}': arguments could not be read: ${reason}`);
  }
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join(".") || "(arguments)"))];
    const details = parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(arguments)"}: ${issue.message}`);
    throw new ToolArgumentsError(
      tool.function,
      fields,
      `Tool '${tool.function}': arguments do not match its schema: ${details.join("; ")}`,
    );
  }
  const out: ToolArgs = {};
  for (const key of Object.keys(parsed.data)) {
    if (Object.prototype.hasOwnProperty.call(raw, key)) defineOwn(out, key, parsed.data[key]);
  }
  return out;
}

function schemaMismatch(tool: string, missing: string[], unexpected: string[]): ToolArgumentsError {
  const parts = [];
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  if (unexpected.length) parts.push(`unexpected ${unexpected.join(", ")}`);
  return new ToolArgumentsError(
    tool,
    [...missing, ...unexpected],
    `arguments must match the function schema of tool '${tool}': ${parts.join("; ")}`,
  );
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return `a ${typeof value}`;
  if (Array.isArray(value)) return "an array";
  try {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" && name !== "" ? `a ${name}` : "an object";
  } catch {
    return "an object";
  }
}
