import { describe, expect, it } from "vitest";
import {
  AgentSpec,
  BranchTools,
  CodingToolkit,
  Executor,
  GuardrailHook,
  HookRegistry,
  IModel,
  InvalidValueError,
  LLMInvocation,
  NodeInvocation,
  OpenAIChatEndpoint,
  PermissionPolicy,
  RateLimitHook,
  ScriptedEndpoint,
  Session,
  Tool,
  ToolInvocation,
} from "@hooklens/runtime";

/**
 * What a JavaScript caller (no type checker) gets for a wrong argument: an InvalidValueError at
 * the call, naming the API, the argument and what it got, never a TypeError from deep inside.
 */
// Each case deliberately breaks the declared types, as untyped code would.
const loose = (value: unknown) => value as never;
const untyped = (constructor: unknown) => constructor as new (...args: unknown[]) => unknown;

const model = () => new IModel({ endpoint: new ScriptedEndpoint() });
const executor = () => new Executor(new BranchTools(new Session().newBranch()));
const spec = { name: "search", kind: "search", confirm: false, cacheable: false, schema: null };
const ctx = () => executor().context();

const synchronous: [string, () => unknown, RegExp][] = [
  ["new ToolInvocation(spec) with no schema", () => new (untyped(ToolInvocation))({ name: "search" }, { name: "search", arguments: {} }, ctx()), /^new ToolInvocation\(spec, call, ctx\): spec\.schema \(a zod schema, or null to accept any object\) must be a zod schema, got undefined$/],
  ["new ToolInvocation(null)", () => new (untyped(ToolInvocation))(null, { name: "search", arguments: {} }, ctx()), /spec \(\{ name, kind, confirm, cacheable, schema \}\) must be an object, got null/],
  ["new ToolInvocation(spec, null)", () => new (untyped(ToolInvocation))(spec, null, ctx()), /call \(\{ name, arguments \}\) must be an object, got null/],
  ["new ToolInvocation(spec, call) without ctx", () => new (untyped(ToolInvocation))(spec, { name: "search", arguments: {} }), /ctx \(a RunContext from executor\.context\(\)\) must be an object, got undefined/],
  ["new LLMInvocation(null, …)", () => new (untyped(LLMInvocation))(null, "openai", "gpt", ctx()), /^new LLMInvocation\(request, provider, model, ctx\): request \(\{ messages \}\) must be an object, got null$/],
  ["new LLMInvocation(request, 42, …)", () => new (untyped(LLMInvocation))({ messages: [] }, 42, "gpt", ctx()), /provider must be a non-empty string, got a number \(42\)/],
  ["new NodeInvocation(…, null state)", () => new (untyped(NodeInvocation))("flow", "node", null, ctx()), /^new NodeInvocation\(flow, node, state, ctx\): state must be an object, got null$/],
  ["new IModel(null)", () => new (untyped(IModel))(null), /^new IModel\(options\): options must be an object, got null$/],
  ["new IModel({}) without an endpoint", () => new (untyped(IModel))({}), /options\.endpoint \(an Endpoint such as ScriptedEndpoint or OpenAIChatEndpoint\) must be an object, got undefined/],
  ["new HookRegistry(null)", () => new (untyped(HookRegistry))(null), /^new HookRegistry\(init\): options must be an object, got null$/],
  ["registry.preInvoke(42)", () => new HookRegistry().preInvoke(loose(42)), /^HookRegistry pre_invocation hook: the handler must be a function, got a number \(42\)$/],
  ["registry.postInvoke('log')", () => new HookRegistry().postInvoke(loose("log")), /the handler must be a function, got a string \("log"\)/],
  ["new ScriptedEndpoint(null)", () => new (untyped(ScriptedEndpoint))(null), /^new ScriptedEndpoint\(options\): options must be an object, got null$/],
  ["new OpenAIChatEndpoint([])", () => new (untyped(OpenAIChatEndpoint))([]), /^new OpenAIChatEndpoint\(options\): options must be an object, got an array$/],
  ["new Tool(null)", () => new (untyped(Tool))(null), /^new Tool\(options\): options must be an object, got null$/],
  ["new Tool with a plain object as requestOptions", () => new (untyped(Tool))({ name: "t", funcCallable: () => 1, requestOptions: { query: "string" } }), /options\.requestOptions \(a zod object schema such as z\.object\(\{ … \}\)\) must be a zod schema, got an object/],
  ["new Executor(null)", () => new (untyped(Executor))(null), /^new Executor\(registry, options\): registry \(a ToolBackend such as BranchTools\) must be an object, got null$/],
  ["executor.context(null)", () => executor().context(loose(null)), /^Executor\.context\(options\): options must be an object, got null$/],
  ["new BranchTools(undefined)", () => new (untyped(BranchTools))(), /^new BranchTools\(branch\): branch \(a Branch from session\.newBranch\(\)\) must be an object, got undefined$/],
  ["new GuardrailHook(null)", () => new (untyped(GuardrailHook))(null), /^new GuardrailHook\(check, options\): check must be a function, got null$/],
  ["new RateLimitHook(null)", () => new (untyped(RateLimitHook))(null), /perKind \(\{ kind: new Rate\(calls, per\) \}\) must be an object, got null/],
  ["new AgentSpec(null)", () => new (untyped(AgentSpec))(null), /^new AgentSpec\(options\): options must be an object, got null$/],
  ["spec.pre('bash', 42)", () => new AgentSpec().pre("bash", loose(42)), /^AgentSpec\.pre\(toolName, handler\): handler must be a function, got a number \(42\)$/],
  ["spec.onError(42, fn)", () => new AgentSpec().onError(loose(42), () => undefined), /^AgentSpec\.onError\(toolName, handler\): toolName must be a non-empty string, got a number \(42\)$/],
  ["new PermissionPolicy(null)", () => new (untyped(PermissionPolicy))(null), /^new PermissionPolicy\(options\): options must be an object, got null$/],
  ["new CodingToolkit(null)", () => new (untyped(CodingToolkit))(null), /^new CodingToolkit\(options\): options must be an object, got null$/],
  ["new Session(null)", () => new (untyped(Session))(null), /^new Session\(options\): options must be an object, got null$/],
];

const asynchronous: [string, () => Promise<unknown>, RegExp][] = [
  ["model.invoke(null)", () => model().invoke(loose(null)), /^IModel\.invoke\(options\): options must be an object, got null$/],
  ["model.createEvent(null)", () => model().createEvent(loose(null)), /^IModel\.createEvent\(options\): options must be an object, got null$/],
  ["model.stream(null)", async () => { for await (const _ of model().stream(loose(null))) void _; }, /^IModel\.stream\(options\): options must be an object, got null$/],
  ["executor.callTool(null, ctx)", () => executor().callTool(loose(null), ctx()), /^Executor\.callTool\(call, ctx\): call \(\{ name, arguments \}\) must be an object, got null$/],
  ["executor.callTool({ arguments }, ctx) without a name", () => executor().callTool(loose({ arguments: {} }), ctx()), /call\.name must be a non-empty string, got undefined/],
  ["executor.callTool(call) without ctx", () => executor().callTool({ name: "x", arguments: {} }, loose(undefined)), /ctx \(from executor\.context\(\)\) must be an object, got undefined/],
  ["executor.callLlm(null, ctx)", () => executor().callLlm(loose(null), ctx()), /^Executor\.callLlm\(request, ctx\): request \(\{ messages \}\) must be an object, got null$/],
];

describe("bad input from JavaScript callers", () => {
  it.each(synchronous)("%s throws a clear InvalidValueError", (_name, call, message) => {
    expect(call).toThrow(InvalidValueError);
    expect(call).toThrow(message);
  });

  it.each(asynchronous)("%s rejects with a clear InvalidValueError", async (_name, call, message) => {
    const error = await call().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as Error).message).toMatch(message);
  });

  it("a ToolInvocation with a null schema still accepts any object, and a zod schema still validates", () => {
    expect(new ToolInvocation(spec, { id: "call-1", name: "search", arguments: { q: 1 } }, ctx()).call.arguments).toEqual({ q: 1 });
  });
});
