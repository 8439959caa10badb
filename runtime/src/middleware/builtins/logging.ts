import { getLogger, type Logger, type LogLevel } from "../../shared/log.js";
import type { ToolResult } from "../calls.js";
import { errorKind } from "../errorKinds.js";
import { Hook, type NodeUpdate } from "../hook.js";
import type { LLMInvocation, NodeInvocation, ToolInvocation } from "../invocations.js";
import type { LLMResponse } from "../llm.js";
import { DEFAULT_REDACT, redactForLog } from "../redact.js";
import { toJsonLine } from "./jsonLine.js";
import { optionsObject } from "../../shared/arguments.js";

export interface LoggingHookOptions {
  /** Any pino-compatible logger; defaults to the runtime's logger at the time of each line. */
  logger?: Logger;
  /** Level of start and finish lines; error lines use at least "warn". */
  level?: LogLevel;
  /**
   * Key fragments whose values are hidden in logged arguments (case-insensitive substrings), on
   * top of the shared redaction rules, which always apply unless `configureRedaction({ enabled: false })`.
   */
  redact?: readonly string[];
}

export type LoggingEvent =
  "tool.start" | "tool.finish" | "tool.error" | "llm.start" | "llm.finish" | "llm.error" | "node.start" | "node.finish" | "node.error";

const SEVERITY: readonly LogLevel[] = ["debug", "info", "warn", "error"];

/**
 * One structured line per start, finish and error of every tool call, model call and node. Each
 * line's message is `"<event> <json>"`; structured handlers get `event` and `fields` as properties.
 * It logs ids, names, counts and redacted arguments (the shared rules plus `redact`), never result
 * values, error messages, message content or state values; the arguments of confirm tools are
 * withheld. Redaction never throws, whatever the arguments' depth or shape.
 */
export class LoggingHook extends Hook {
  override name = "logging";
  readonly #logger: Logger | undefined;
  readonly #level: LogLevel;
  readonly #errorLevel: LogLevel;
  readonly #patterns: readonly string[];
  readonly #started = new WeakMap<object, number>();

  constructor(options: LoggingHookOptions = {}) {
    super();
    optionsObject(options, "new LoggingHook(options)");
    this.#logger = options.logger;
    this.#level = options.level ?? "info";
    this.#errorLevel = SEVERITY.indexOf(this.#level) >= SEVERITY.indexOf("warn") ? this.#level : "warn";
    this.#patterns = options.redact ?? DEFAULT_REDACT;
  }

  beforeTool(inv: ToolInvocation): void {
    const fields = toolFields(inv);
    if (inv.spec.confirm) fields.argsWithheld = true;
    else fields.args = redactForLog(inv.call.arguments, this.#patterns);
    this.#start(inv, "tool.start", fields);
  }

  afterTool(inv: ToolInvocation, result: ToolResult): void {
    const fields = { ...toolFields(inv), status: result.status, attempts: result.attempts, cached: result.cached };
    if (!result.ok) Object.assign(fields, { errorKind: result.errorKind });
    this.#end(inv, "tool.finish", fields, result.ok ? this.#level : this.#errorLevel);
  }

  onToolError(inv: ToolInvocation, error: unknown): void {
    this.#end(inv, "tool.error", { ...toolFields(inv), errorKind: errorKind(error) }, this.#errorLevel);
  }

  beforeLlm(inv: LLMInvocation): void {
    this.#start(inv, "llm.start", llmFields(inv));
  }

  afterLlm(inv: LLMInvocation, response: LLMResponse): void {
    const fields = {
      ...llmFields(inv),
      inputTokens: response.usage?.inputTokens ?? null,
      outputTokens: response.usage?.outputTokens ?? null,
      finishReason: response.finishReason,
    };
    this.#end(inv, "llm.finish", fields, this.#level);
  }

  onLlmError(inv: LLMInvocation, error: unknown): void {
    this.#end(inv, "llm.error", { ...llmFields(inv), errorKind: errorKind(error) }, this.#errorLevel);
  }

  beforeNode(inv: NodeInvocation<object>): void {
    this.#start(inv, "node.start", nodeFields(inv));
  }

  afterNode(inv: NodeInvocation<object>, update: NodeUpdate): void {
    this.#end(inv, "node.finish", { ...nodeFields(inv), updated: Object.keys(update ?? {}) }, this.#level);
  }

  onNodeError(inv: NodeInvocation<object>, error: unknown): void {
    this.#end(inv, "node.error", { ...nodeFields(inv), errorKind: errorKind(error) }, this.#errorLevel);
  }

  #start(inv: object, event: LoggingEvent, fields: Record<string, unknown>): void {
    this.#started.set(inv, performance.now());
    this.#write(this.#level, event, fields);
  }

  /** Adds the latency since this hook's start line for the same invocation (null if it saw none). */
  #end(inv: object, event: LoggingEvent, fields: Record<string, unknown>, level: LogLevel): void {
    const started = this.#started.get(inv);
    this.#started.delete(inv);
    fields.latencyMs = started === undefined ? null : Math.round((performance.now() - started) * 1000) / 1000;
    this.#write(level, event, fields);
  }

  #write(level: LogLevel, event: LoggingEvent, fields: Record<string, unknown>): void {
    const logger = this.#logger ?? getLogger();
    logger[level]({ event, fields }, `${event} ${toJsonLine(fields)}`);
  }
}

function toolFields(inv: ToolInvocation): Record<string, unknown> {
  return { runId: inv.ctx.runId, callId: inv.call.id, tool: inv.spec.name, kind: inv.spec.kind };
}

function llmFields(inv: LLMInvocation): Record<string, unknown> {
  const fields: Record<string, unknown> = { runId: inv.ctx.runId, provider: inv.provider, model: inv.model };
  if (inv.request.stage !== undefined) fields.stage = inv.request.stage;
  return fields;
}

function nodeFields(inv: NodeInvocation<object>): Record<string, unknown> {
  return { runId: inv.ctx.runId, flow: inv.flow, node: inv.node };
}
