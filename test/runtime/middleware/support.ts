import { afterEach, beforeEach } from "vitest";
import { ToolInvocation, createRunContext, type RunContext, type ToolSpec } from "@hooklens/runtime";
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
