// A service phase hook (pre_event_create / pre_invocation / post_invocation) for a model's HookRegistry.
import { capitalize } from "../identifier.js";
import { SERVICE_PHASE_INFO, type ServicePhase } from "../kinds.js";
import { code, esm, stop, typed, type Code } from "./code.js";
import { type, value, type RuntimeImport, type Scaffold } from "./scaffold.js";

export interface ServicePhaseOptions {
  name: string;
  phase: ServicePhase;
}

export function servicePhaseHook({ name, phase }: ServicePhaseOptions): Scaffold {
  const { method, summary } = SERVICE_PHASE_INFO[phase];
  // A phase handler is typed for all three phases (PhaseHookHandler): it takes Event | EventClass.
  const imports: RuntimeImport[] = [type("HookRegistry"), type("Event"), type("EventClass"), type("HookParams")];
  let body: Code;
  if (phase === "pre_event_create") {
    imports.push(value("classNameOf"));
    body = code`  // eventLike is the class about to be built (APICalling unless createEventType says otherwise).
  ${stop(1, "console.log(`creating ${classNameOf(eventLike)}`);")}${stop(0)}`;
  } else {
    imports.push(type("APICalling"));
    const read =
      phase === "pre_invocation"
        ? "  // Throw to block the call (returning an Error does not block). The request is call.payload."
        : "  // The response is not recorded yet: read call.payload here, call.response after invoke().";
    body = code`  const call = eventLike${typed(" as APICalling")};
${read}
  ${stop(1, "console.log(call.id, Object.keys(call.payload));")}${stop(0)}`;
  }
  const result = code`/**
 * Service "${phase}" hook: ${summary}.
 * Return nothing: a returned two-item array is read as a [value, error] pair and fails the phase.
 * _params.exit is the call's exit policy; _params.signal (when present) aborts at the hook's deadline.
 */
${esm("export ")}function ${name}(eventLike${typed(": Event | EventClass")}, _params${typed(": HookParams")})${typed(": void")} {
${body}
}

/**
 * Registers ${name} on a model's registry:
 * \`new IModel({ endpoint, hookRegistry: register${capitalize(name)}(new HookRegistry()) })\`.
 * A registry holds one handler per phase: this replaces any earlier ${phase} handler.
 */
${esm("export ")}function register${capitalize(name)}(registry${typed(": HookRegistry")})${typed(": HookRegistry")} {
  registry.${method}(${name});
  return registry;
}
`;
  return { imports, body: result };
}
