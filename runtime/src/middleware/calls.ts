import type { z } from "zod";
import { describeValue, requireName, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { newId } from "../shared/ids.js";

/** Arguments as the model names them (the schema's keys, aliases included). */
export type ToolArguments = Readonly<Record<string, unknown>>;

/** What the executor and the hooks know about a tool. */
export interface ToolSpec {
  readonly name: string;
  /** The rate-limit bucket and log category; defaults to the tool's name. */
  readonly kind: string;
  /** Needs approval before it runs; its arguments are never logged. */
  readonly confirm: boolean;
  /** Its ok results may be served from the executor's cache. */
  readonly cacheable: boolean;
  /** Validates the model's arguments; null accepts any object. */
  readonly schema: z.ZodType | null;
}

/** One call the model asked for. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: ToolArguments;
}

/** A tool call with a fresh id when none is given. */
export function toolCall(name: string, args: Record<string, unknown> = {}, id: string = newId()): ToolCall {
  const where = "toolCall(name, args, id)";
  requireName(name, where, "name");
  requireObject(args, where, "args");
  requireName(id, where, "id");
  return { id, name, arguments: args };
}

export type ToolStatus = "ok" | "error";

export interface ToolResultInit {
  callId: string;
  tool: string;
  status: ToolStatus;
  value?: unknown;
  errorKind?: string | null;
  attempts?: number;
  cached?: boolean;
}

/** The outcome of one tool call as hooks and callers see it. */
export class ToolResult {
  readonly callId: string;
  readonly tool: string;
  readonly status: ToolStatus;
  /** What the tool returned (ok) or reported (error); never logged. */
  readonly value: unknown;
  /** The error's type name for a failed result, else null. */
  readonly errorKind: string | null;
  /** How many times the tool body ran: 0 when served by the cache or a ShortCircuit. */
  readonly attempts: number;
  readonly cached: boolean;

  constructor(init: ToolResultInit) {
    requireObject(init, "new ToolResult(init)", "init ({ callId, tool, status, value })");
    if (init.status !== "ok" && init.status !== "error") {
      throw new InvalidValueError(`new ToolResult(init): init.status must be "ok" or "error", got ${describeValue(init.status)}`);
    }
    this.callId = init.callId;
    this.tool = init.tool;
    this.status = init.status;
    this.value = init.value;
    this.errorKind = init.errorKind ?? null;
    this.attempts = init.attempts ?? 1;
    this.cached = init.cached ?? false;
  }

  get ok(): boolean {
    return this.status === "ok";
  }

  /** A copy with some fields changed. */
  with(changes: Partial<ToolResultInit>): ToolResult {
    return new ToolResult({ ...this, ...changes });
  }
}
