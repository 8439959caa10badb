import { afterEach, beforeEach } from "vitest";
import {
  ToolInvocation,
  ToolResult,
  createRunContext,
  type LLMRequest,
  type LLMResponse,
  type ModelClient,
  type RunContext,
  type ToolBackend,
  type ToolCall,
  type ToolSpec,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

/** Routes the runtime logger into an array around every test of the file; read `.logs` inside a test. */
export function useCapturedLogs(): { readonly logs: CapturedLog[] } {
  let captured: { logs: CapturedLog[]; restore: () => void } | undefined;
  beforeEach(() => void (captured = captureLogs()));
  afterEach(() => captured?.restore());
  return {
    get logs() {
      return captured!.logs;
    },
  };
}

/** A tool spec with no schema; `kind` defaults to the name. */
export function specOf(name: string, extra: Partial<ToolSpec> = {}): ToolSpec {
  return { name, kind: name, confirm: false, cacheable: false, schema: null, ...extra };
}

/** An invocation of `spec` with call id "c1". */
export function invocationOf(spec: ToolSpec, args: Record<string, unknown> = {}, ctx: RunContext = createRunContext({ runId: "r1" })): ToolInvocation {
  return new ToolInvocation(spec, { id: "c1", name: spec.name, arguments: args }, ctx);
}

type ToolFn = (args: Readonly<Record<string, unknown>>) => unknown;

/** A tool backend of plain functions, recording each call it runs. */
export class FunctionTools implements ToolBackend {
  readonly ran: ToolCall[] = [];
  readonly #tools = new Map<string, { spec: ToolSpec; fn: ToolFn }>();

  add(name: string, fn: ToolFn, extra: Partial<ToolSpec> = {}): this {
    this.#tools.set(name, { spec: specOf(name, extra), fn });
    return this;
  }

  spec(name: string): ToolSpec | undefined {
    return this.#tools.get(name)?.spec;
  }

  async run(call: ToolCall, spec: ToolSpec): Promise<ToolResult> {
    this.ran.push(call);
    const value = await this.#tools.get(spec.name)!.fn(call.arguments);
    return new ToolResult({ callId: call.id, tool: spec.name, status: "ok", value });
  }
}

/** A model that answers from a list of replies (an Error reply is thrown). */
export class ListModel implements ModelClient {
  readonly provider = "list";
  readonly model = "list-model";
  readonly requests: LLMRequest[] = [];
  readonly #replies: (LLMResponse | Error)[];

  constructor(replies: (LLMResponse | Error)[]) {
    this.#replies = [...replies];
  }

  async complete(request: LLMRequest): Promise<LLMResponse> {
    this.requests.push(request);
    const reply = this.#replies.shift();
    if (reply === undefined) throw new Error("no reply scripted");
    if (reply instanceof Error) throw reply;
    return reply;
  }
}
