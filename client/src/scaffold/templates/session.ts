// A Session HookBus handler on one live HookPoint, plus the one line that registers it.
import { capitalize } from "../identifier.js";
import { HOOK_POINTS, type HookPointValue } from "../kinds.js";
import { code, esm, stop, typed } from "./code.js";
import { type, value, type Scaffold } from "./scaffold.js";

export interface SessionHookOptions {
  name: string;
  hookPoint: HookPointValue;
}

export function sessionHook({ name, hookPoint }: SessionHookOptions): Scaffold {
  const info = HOOK_POINTS[hookPoint];
  if (info.dormant) throw new Error(`HookPoint.${info.member} never fires: ${info.summary}`);
  const member = `HookPoint.${info.member}`;
  const blocking =
    hookPoint === "tool.pre"
      ? " * Throwing blocks the tool call; throw StopHook to end the chain quietly and let the call run.\n"
      : " * A handler's error is logged and the next handler still runs; throw StopHook to end the chain quietly.\n";
  const body = code`/**
 * Runs on "${hookPoint}" (${member}): ${info.summary}.
 * Handlers run one after another in registration order.
${blocking} */
${esm("export ")}function ${name}(payload${typed(`: Readonly<PayloadOf<${member}>>`)})${typed(": void")} {
  // payload: { ${info.fields.join(", ")} }
  ${stop(1, `console.log("${hookPoint}", payload);`)}${stop(0)}
}

/**
 * Adds ${name} to a HookBus, usually \`session.hooks\`; returns a function that removes it.
 * Branches included before \`session.hooks\` was first read (the default branch among them) do not
 * get the bus: include them again with \`session.includeBranches(branch)\`.
 */
${esm("export ")}function register${capitalize(name)}(bus${typed(": HookBus")})${typed(": () => void")} {
  return bus.on(${member}, ${name});
}
`;
  return { imports: [value("HookPoint"), type("HookBus"), type("PayloadOf")], body };
}
