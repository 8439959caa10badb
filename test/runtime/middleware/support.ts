import { afterEach, beforeEach } from "vitest";
import type { z } from "zod";
import {
  Branch,
  BranchTools,
  IModel,
  IModelClient,
  ScriptedEndpoint,
  Tool,
  ToolInvocation,
  createRunContext,
  type RunContext,
  type ScriptedTurn,
  type ToolMeta,
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
export function invocationOf(
  spec: ToolSpec,
  args: Record<string, unknown> = {},
  ctx: RunContext = createRunContext({ runId: "r1" }),
): ToolInvocation {
  return new ToolInvocation(spec, { id: "c1", name: spec.name, arguments: args }, ctx);
}

type ToolFn = (args: Record<string, unknown>) => unknown;

export interface TestTool {
  name: string;
  fn: ToolFn;
  schema?: z.ZodObject;
  meta?: ToolMeta;
}

/**
 * Real Tools on a real Branch behind the executor's registry (`BranchTools`, which runs them
 * through `act()`); `ran` records the arguments each callable received.
 */
export function branchTools(...defs: TestTool[]): {
  tools: BranchTools;
  branch: Branch;
  ran: { name: string; args: Record<string, unknown> }[];
} {
  const branch = new Branch();
  const tools = new BranchTools(branch);
  const ran: { name: string; args: Record<string, unknown> }[] = [];
  for (const def of defs) {
    const funcCallable = (args: Record<string, unknown>) => (ran.push({ name: def.name, args: { ...args } }), def.fn(args));
    tools.register(new Tool({ name: def.name, funcCallable, ...(def.schema && { requestOptions: def.schema }) }), def.meta ?? {});
  }
  return { tools, branch, ran };
}

/** An OpenAI-style completion turn with exact usage (null: the provider reports none). */
export function completion(content: string, usage: { input: number; output: number } | null = { input: 10, output: 5 }): ScriptedTurn {
  const body: Record<string, unknown> = {
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  };
  if (usage) body["usage"] = { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
  return { response: body };
}

/** A real IModel over the offline scripted endpoint (provider "scripted", model "scripted-model"). */
export function scriptedModel(turns: ScriptedTurn[]): { model: IModelClient; endpoint: ScriptedEndpoint } {
  const endpoint = new ScriptedEndpoint({ script: turns });
  return { model: new IModelClient(new IModel({ endpoint })), endpoint };
}
