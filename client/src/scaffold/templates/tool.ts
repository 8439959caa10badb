// Tool-scope hooks on an AgentSpec. The error handler goes where failures are really delivered:
// AgentSpec.onError stores a handler the runtime never calls (HL002), so it listens on tool.error.
import { code, esm, stop, typed } from "./code.js";
import { type, value, type Scaffold } from "./scaffold.js";

export interface ToolHooksOptions {
  name: string;
  /** The canonical tool name, or "*" for every tool. */
  toolName: string;
}

export function toolHooks({ name, toolName }: ToolHooksOptions): Scaffold {
  const tool = JSON.stringify(toolName);
  const every = toolName === "*";
  const filter = every ? "" : `    if (toolName !== ${tool}) return;\n`;
  const body = code`/**
 * Declares the pre and post hooks of ${every ? "every tool" : `the ${tool} tool`} on an AgentSpec and returns it:
 * \`${name}(new AgentSpec())\` when building the agent.
 */
${esm("export ")}function ${name}(spec${typed(": AgentSpec")})${typed(": AgentSpec")} {
  return spec
    .pre(${tool}, (_toolName, _action, args) => {
      // Sees the call's real arguments. Return a plain object to replace them; throw to refuse the call.
      ${stop(1, "return { ...args };")}
    })
    .post(${tool}, (_toolName, _action, _args, result) => {
      // Runs only when the tool returned a plain object; _args is always {} here.
      // Return a plain object to replace the result (anything else is ignored).
      ${stop(2, "return { ...result };")}
    });
}

/**
 * Reacts to failures of ${every ? "any tool" : `the ${tool} tool`}. AgentSpec.onError handlers are stored but never
 * called, so this listens on the session bus, where act() emits tool.error: pass \`session.hooks\`.
 */
${esm("export ")}function ${name}OnError(bus${typed(": HookBus")})${typed(": () => void")} {
  return bus.on(HookPoint.TOOL_ERROR, ({ toolName, error }) => {
${filter}    ${stop(3, "console.error(`${toolName} failed:`, error);")}${stop(0)}
  });
}
`;
  return { imports: [type("AgentSpec"), value("HookPoint"), type("HookBus")], body };
}
