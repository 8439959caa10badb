import { describe, expect, it } from "vitest";
import {
  ActionManager,
  AgentSpec,
  APICalling,
  Branch,
  BranchTools,
  BudgetHook,
  classNameOf,
  CodingToolkit,
  Event,
  Executor,
  field,
  FieldRef,
  FunctionCalling,
  GateDenied,
  GuardrailBlock,
  GuardrailHook,
  hook,
  HookBus,
  HookedEvent,
  HookEvent,
  HookLog,
  HookPoint,
  HookRegistry,
  HookShortCircuit,
  HookSignal,
  IModel,
  IModelClient,
  InvalidValueError,
  LLMInvocation,
  logApiMetrics,
  LoggingHook,
  logToolCall,
  logToolUse,
  Message,
  MessageAdded,
  NodeInvocation,
  OpenAIChatEndpoint,
  PermissionPolicy,
  persistBranchProvenance,
  persistMessage,
  persistSessionEnd,
  persistSessionStart,
  RateBuckets,
  RateLimitHook,
  registerHandler,
  resolveHandler,
  RunEnd,
  RunFailed,
  RunStart,
  ScriptedEndpoint,
  Session,
  SessionObserver,
  Signal,
  Tool,
  ToolCallAction,
  ToolCallBlocked,
  ToolInvocation,
  ToolResult,
  Workspace,
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

const synchronous: [api: string, name: string, call: () => unknown, message: RegExp][] = [
  ["ToolInvocation", "new ToolInvocation(spec) with no schema", () => new (untyped(ToolInvocation))({ name: "search" }, { name: "search", arguments: {} }, ctx()), /^new ToolInvocation\(spec, call, ctx\): spec\.schema \(a zod schema, or null to accept any object\) must be a zod schema, got undefined$/],
  ["ToolInvocation", "new ToolInvocation(null)", () => new (untyped(ToolInvocation))(null, { name: "search", arguments: {} }, ctx()), /spec \(\{ name, kind, confirm, cacheable, schema \}\) must be an object, got null/],
  ["ToolInvocation", "new ToolInvocation(spec, null)", () => new (untyped(ToolInvocation))(spec, null, ctx()), /call \(\{ name, arguments \}\) must be an object, got null/],
  ["ToolInvocation", "new ToolInvocation(spec, call) without ctx", () => new (untyped(ToolInvocation))(spec, { name: "search", arguments: {} }), /ctx \(a RunContext from executor\.context\(\)\) must be an object, got undefined/],
  ["LLMInvocation", "new LLMInvocation(null, …)", () => new (untyped(LLMInvocation))(null, "openai", "gpt", ctx()), /^new LLMInvocation\(request, provider, model, ctx\): request \(\{ messages \}\) must be an object, got null$/],
  ["LLMInvocation", "new LLMInvocation(request, 42, …)", () => new (untyped(LLMInvocation))({ messages: [] }, 42, "gpt", ctx()), /provider must be a non-empty string, got a number \(42\)/],
  ["NodeInvocation", "new NodeInvocation(…, null state)", () => new (untyped(NodeInvocation))("flow", "node", null, ctx()), /^new NodeInvocation\(flow, node, state, ctx\): state must be an object, got null$/],
  ["IModel", "new IModel(null)", () => new (untyped(IModel))(null), /^new IModel\(options\): options must be an object, got null$/],
  ["IModel", "new IModel({}) without an endpoint", () => new (untyped(IModel))({}), /options\.endpoint \(an Endpoint such as ScriptedEndpoint or OpenAIChatEndpoint\) must be an object, got undefined/],
  ["HookRegistry", "new HookRegistry(null)", () => new (untyped(HookRegistry))(null), /^new HookRegistry\(init\): options must be an object, got null$/],
  ["HookRegistry", "registry.preInvoke(42)", () => new HookRegistry().preInvoke(loose(42)), /^HookRegistry pre_invocation hook: the handler must be a function, got a number \(42\)$/],
  ["HookRegistry", "registry.postInvoke('log')", () => new HookRegistry().postInvoke(loose("log")), /the handler must be a function, got a string \("log"\)/],
  ["ScriptedEndpoint", "new ScriptedEndpoint(null)", () => new (untyped(ScriptedEndpoint))(null), /^new ScriptedEndpoint\(options\): options must be an object, got null$/],
  ["OpenAIChatEndpoint", "new OpenAIChatEndpoint([])", () => new (untyped(OpenAIChatEndpoint))([]), /^new OpenAIChatEndpoint\(options\): options must be an object, got an array$/],
  ["Tool", "new Tool(null)", () => new (untyped(Tool))(null), /^new Tool\(options\): options must be an object, got null$/],
  ["Tool", "new Tool with a plain object as requestOptions", () => new (untyped(Tool))({ name: "t", funcCallable: () => 1, requestOptions: { query: "string" } }), /options\.requestOptions \(a zod object schema such as z\.object\(\{ … \}\)\) must be a zod schema, got an object/],
  ["Executor", "new Executor(null)", () => new (untyped(Executor))(null), /^new Executor\(registry, options\): registry \(a ToolBackend such as BranchTools\) must be an object, got null$/],
  ["Executor", "executor.context(null)", () => executor().context(loose(null)), /^Executor\.context\(options\): options must be an object, got null$/],
  ["BranchTools", "new BranchTools(undefined)", () => new (untyped(BranchTools))(), /^new BranchTools\(branch\): branch \(a Branch from session\.newBranch\(\)\) must be an object, got undefined$/],
  ["GuardrailHook", "new GuardrailHook(null)", () => new (untyped(GuardrailHook))(null), /^new GuardrailHook\(check, options\): check must be a function, got null$/],
  ["RateLimitHook", "new RateLimitHook(null)", () => new (untyped(RateLimitHook))(null), /perKind \(\{ kind: new Rate\(calls, per\) \}\) must be an object, got null/],
  ["AgentSpec", "new AgentSpec(null)", () => new (untyped(AgentSpec))(null), /^new AgentSpec\(options\): options must be an object, got null$/],
  ["AgentSpec", "spec.pre('bash', 42)", () => new AgentSpec().pre("bash", loose(42)), /^AgentSpec\.pre\(toolName, handler\): handler must be a function, got a number \(42\)$/],
  ["AgentSpec", "spec.onError(42, fn)", () => new AgentSpec().onError(loose(42), () => undefined), /^AgentSpec\.onError\(toolName, handler\): toolName must be a non-empty string, got a number \(42\)$/],
  ["PermissionPolicy", "new PermissionPolicy(null)", () => new (untyped(PermissionPolicy))(null), /^new PermissionPolicy\(options\): options must be an object, got null$/],
  ["CodingToolkit", "new CodingToolkit(null)", () => new (untyped(CodingToolkit))(null), /^new CodingToolkit\(options\): options must be an object, got null$/],
  ["Session", "new Session(null)", () => new (untyped(Session))(null), /^new Session\(options\): options must be an object, got null$/],
  // Tool scope
  ["FunctionCalling", "new FunctionCalling(null)", () => new (untyped(FunctionCalling))(null, {}), /^new FunctionCalling\(funcTool, args\): funcTool must be a Tool, got null$/],
  ["FunctionCalling", "new FunctionCalling(a plain function)", () => new (untyped(FunctionCalling))(() => 1, {}), /funcTool must be a Tool, got a function/],
  ["ActionManager", "new ActionManager(42)", () => new (untyped(ActionManager))(42), /^new ActionManager\(tools\): tools \(Tools or functions\) must be an array, got a number \(42\)$/],
  ["ActionManager", "manager.register({ name })", () => new ActionManager().register(loose({ name: "x" })), /^ActionManager\.register\(tools, options\): each tool must be a Tool or a function, got an object$/],
  ["ActionManager", "manager.register([fn, null])", () => new ActionManager().register(loose([function add() { return 1; }, null])), /each tool must be a Tool or a function, got null/],
  ["ActionManager", "manager.register(fn, 42)", () => new ActionManager().register(() => 1, loose(42)), /^ActionManager\.register\(tools, options\): options must be an object, got a number \(42\)$/],
  ["ActionManager", "manager.has(null)", () => new ActionManager().has(loose(null)), /^ActionManager\.has\(tool\): tool must be a name, a Tool or a function, got null$/],
  ["ActionManager", "manager.match('add(1, 2)')", () => new ActionManager().match("add(1, 2)"), /^ActionManager\.match\(request\): unsupported action request/],
  ["ToolCallAction", "new ToolCallAction(null)", () => new (untyped(ToolCallAction))(null), /^new ToolCallAction\(init\): init \(\{ function, arguments\?, branchId\? \}\) must be an object, got null$/],
  ["ToolCallAction", "new ToolCallAction({}) without a function name", () => new (untyped(ToolCallAction))({}), /init\.function must be a non-empty string, got undefined/],
  ["Workspace", "new Workspace(null)", () => new (untyped(Workspace))(null), /^new Workspace\(root\): root \(a directory path\) must be a non-empty string, got null$/],
  // Service scope
  ["IModelClient", "new IModelClient(null)", () => new (untyped(IModelClient))(null), /^new IModelClient\(imodel, options\): imodel \(an IModel\) must be an object, got null$/],
  ["IModelClient", "new IModelClient({}) without an endpoint", () => new (untyped(IModelClient))({}), /imodel\.endpoint \(an IModel's endpoint\) must be an object, got undefined/],
  ["IModelClient", "new IModelClient(model, 42)", () => new (untyped(IModelClient))(model(), 42), /^new IModelClient\(imodel, options\): options must be an object, got a number \(42\)$/],
  ["Event", "new Event(null)", () => new (untyped(Event))(null), /^new Event\(init\): options must be an object, got null$/],
  ["APICalling", "new APICalling(null)", () => new (untyped(APICalling))(null), /^new APICalling\(init\): init \(\{ endpoint, payload \}\) must be an object, got null$/],
  ["APICalling", "new APICalling({ endpoint }) without a payload", () => new (untyped(APICalling))({ endpoint: new ScriptedEndpoint() }), /^new APICalling\(init\): init\.payload must be an object, got undefined$/],
  ["HookEvent", "new HookEvent(null)", () => new (untyped(HookEvent))(null), /^new HookEvent\(init\): init \(\{ registry, hookType, eventLike \}\) must be an object, got null$/],
  ["HookEvent", "new HookEvent({ registry, hookType: 'later' })", () => new (untyped(HookEvent))({ registry: new HookRegistry(), hookType: "later" }), /init\.hookType must be one of pre_event_create, pre_invocation, post_invocation, got a string \("later"\)/],
  ["HookedEvent", "new HookedEvent(42)", () => new (untyped(HookedEvent))(42), /^new HookedEvent\(init\): options must be an object, got a number \(42\)$/],
  ["HookLog", "new HookLog(null)", () => new (untyped(HookLog))(null), /^new HookLog\(options\): options must be an object, got null$/],
  ["classNameOf", "classNameOf(null)", () => classNameOf(loose(null)), /^classNameOf\(eventLike\): eventLike must be an Event or an Event class, got null$/],
  // Middleware scope
  ["LoggingHook", "new LoggingHook(null)", () => new (untyped(LoggingHook))(null), /^new LoggingHook\(options\): options must be an object, got null$/],
  ["BudgetHook", "new BudgetHook(null)", () => new (untyped(BudgetHook))(null), /invalid BudgetHook config: maxUsd: .*received null/],
  ["BudgetHook", "new BudgetHook(1, null)", () => new (untyped(BudgetHook))(1, null), /^new BudgetHook\(maxUsd, options\): options must be an object, got null$/],
  ["RateBuckets", "new RateBuckets(null)", () => new (untyped(RateBuckets))(null), /^new RateBuckets\(buffer\): buffer must be a SharedArrayBuffer of \d+ bytes \(another RateBuckets' buffer\), got null$/],
  ["ToolResult", "new ToolResult(null)", () => new (untyped(ToolResult))(null), /^new ToolResult\(init\): init \(\{ callId, tool, status, value \}\) must be an object, got null$/],
  ["ToolResult", "new ToolResult({ status: 'done' })", () => new (untyped(ToolResult))({ callId: "c", tool: "t", status: "done" }), /init\.status must be "ok" or "error", got a string \("done"\)/],
  // Session scope
  ["HookBus", "new HookBus(42)", () => new (untyped(HookBus))(42), /^new HookBus\(observer\): observer must be a SessionObserver \(anything with emit\(signal\)\) or null, got a number \(42\)$/],
  ["HookBus", "bus.on(point, 42)", () => new HookBus().on(HookPoint.SESSION_START, loose(42)), /^HookBus\.on\("session\.start", handler\): handler must be a function, got a number \(42\)$/],
  ["HookBus", "bus.on('nope', fn)", () => new HookBus().on(loose("nope"), () => undefined), /^Unknown hook point "nope"; valid values: /],
  ["HookBus", "bus.bind({})", () => new HookBus().bind(loose({})), /^HookBus\.bind\(observer\): observer must be a SessionObserver/],
  ["hook", "hook(point)(42)", () => hook(HookPoint.TOOL_PRE)(loose(42)), /^hook\("tool\.pre"\)\(fn\): fn \(the handler to mark\) must be a function, got a number \(42\)$/],
  ["hook", "hook(1n)", () => hook(loose(1n)), /^Unknown hook point a bigint \(1\); valid values: /],
  ["registerHandler", "registerHandler(name, 42)", () => registerHandler("audit", loose(42)), /^registerHandler\(name, handler\): handler must be a function, got a number \(42\)$/],
  ["registerHandler", "registerHandler('', fn)", () => registerHandler("", () => undefined), /^registerHandler\(name, handler\): name must be a non-empty string, got a string \(""\)$/],
  ["resolveHandler", "resolveHandler(null)", () => resolveHandler(loose(null)), /^resolveHandler\(name\): name must be a non-empty string, got null$/],
  ["FieldRef", "new FieldRef(null)", () => new (untyped(FieldRef))(null), /^new FieldRef\(path\): path \(a dotted field name such as "tool\.name"\) must be a non-empty string, got null$/],
  ["field", "field(42)", () => field(loose(42)), /^new FieldRef\(path\): path .* must be a non-empty string, got a number \(42\)$/],
  ["Message", "new Message(null)", () => new (untyped(Message))(null), /^new Message\(init\): init \(\{ role, content \}\) must be an object, got null$/],
  ["Message", "new Message({ role: 'robot' })", () => new (untyped(Message))({ role: "robot", content: "hi" }), /init\.role must be one of system, user, assistant, action_request, action_response, got a string \("robot"\)/],
  ["Branch", "new Branch(null)", () => new (untyped(Branch))(null), /^new Branch\(options\): options must be an object, got null$/],
  ["SessionObserver", "new SessionObserver(null)", () => new (untyped(SessionObserver))(null), /^new SessionObserver\(options\): options must be an object, got null$/],
  ["SessionObserver", "new SessionObserver({ keepRecentSignals: 0 })", () => new SessionObserver({ keepRecentSignals: 0 }), /keepRecentSignals must be a positive integer, got a number \(0\)/],
  ["SessionObserver", "observer.bindDbPersistence('')", () => new SessionObserver().bindDbPersistence(""), /^SessionObserver\.bindDbPersistence\(sessionId, store\?\): sessionId must be a non-empty string/],
  ["SessionObserver", "observer.observe(42, …)", () => new SessionObserver().observe(loose(42), { handler: () => undefined }), /Cannot use number as an observe\(\) condition/],
  ["Signal", "new Signal(null)", () => new (untyped(Signal))(null), /^new Signal\(init\): init must be an object, got null$/],
  ["RunStart", "new RunStart(42)", () => new (untyped(RunStart))(42), /^new RunStart\(init\): init must be an object, got a number \(42\)$/],
  ["RunEnd", "new RunEnd(null)", () => new (untyped(RunEnd))(null), /^new RunEnd\(init\): init must be an object, got null$/],
  ["RunFailed", "new RunFailed(null)", () => new (untyped(RunFailed))(null), /^new RunFailed\(init\): init must be an object, got null$/],
  ["GateDenied", "new GateDenied(null)", () => new (untyped(GateDenied))(null), /^new GateDenied\(init\): init must be an object, got null$/],
  ["MessageAdded", "new MessageAdded(null)", () => new (untyped(MessageAdded))(null), /^new MessageAdded\(init\): init must be an object, got null$/],
  ["HookSignal", "new HookSignal(42)", () => new (untyped(HookSignal))(42), /^new HookSignal\(point, payload, init\): point must be a hook point value or null, got a number \(42\)$/],
  ["HookSignal", "new HookSignal(point, null)", () => new (untyped(HookSignal))("tool_pre", null), /^new HookSignal\(point, payload, init\): payload must be an object, got null$/],
  ["ToolCallBlocked", "new ToolCallBlocked(null)", () => new (untyped(ToolCallBlocked))(null), /^new ToolCallBlocked\(call, init\): call \(\{ toolName, callId, reason, hook \}\) must be an object, got null$/],
  ["HookShortCircuit", "new HookShortCircuit(null)", () => new (untyped(HookShortCircuit))(null), /^new HookShortCircuit\(call, init\): call .* must be an object, got null$/],
  ["GuardrailBlock", "new GuardrailBlock(null)", () => new (untyped(GuardrailBlock))(null), /^new GuardrailBlock\(call, init\): call .* must be an object, got null$/],
];

const asynchronous: [api: string, name: string, call: () => Promise<unknown>, message: RegExp][] = [
  ["IModel", "model.invoke(null)", () => model().invoke(loose(null)), /^IModel\.invoke\(options\): options must be an object, got null$/],
  ["IModel", "model.createEvent(null)", () => model().createEvent(loose(null)), /^IModel\.createEvent\(options\): options must be an object, got null$/],
  ["IModel", "model.stream(null)", async () => { for await (const _ of model().stream(loose(null))) void _; }, /^IModel\.stream\(options\): options must be an object, got null$/],
  ["Executor", "executor.callTool(null, ctx)", () => executor().callTool(loose(null), ctx()), /^Executor\.callTool\(call, ctx\): call \(\{ name, arguments \}\) must be an object, got null$/],
  ["Executor", "executor.callTool({ arguments }, ctx) without a name", () => executor().callTool(loose({ arguments: {} }), ctx()), /call\.name must be a non-empty string, got undefined/],
  ["Executor", "executor.callTool(call) without ctx", () => executor().callTool({ name: "x", arguments: {} }, loose(undefined)), /ctx \(from executor\.context\(\)\) must be an object, got undefined/],
  ["Executor", "executor.callLlm(null, ctx)", () => executor().callLlm(loose(null), ctx()), /^Executor\.callLlm\(request, ctx\): request \(\{ messages \}\) must be an object, got null$/],
  ["persistMessage", "persistMessage(null)", () => persistMessage(loose(null)), /^persistMessage\(payload\): payload must be an object, got null$/],
  ["persistSessionStart", "persistSessionStart({})", () => persistSessionStart(loose({})), /^persistSessionStart\(\) missing required payload field 'sessionId'$/],
  ["persistSessionEnd", "persistSessionEnd(42)", () => persistSessionEnd(loose(42)), /^persistSessionEnd\(payload\): payload must be an object, got a number \(42\)$/],
  ["persistBranchProvenance", "persistBranchProvenance(null)", () => persistBranchProvenance(loose(null)), /^persistBranchProvenance\(payload\): payload must be an object, got null$/],
  ["logToolCall", "logToolCall(null)", () => logToolCall(loose(null)), /^logToolCall\(payload\): payload must be an object, got null$/],
  ["logToolUse", "logToolUse(null)", () => logToolUse(loose(null)), /^logToolCall\(payload\): payload must be an object, got null$/],
  ["logApiMetrics", "logApiMetrics(null)", () => logApiMetrics(loose(null)), /^logApiMetrics\(payload\): payload must be an object, got null$/],
];

describe("bad input from JavaScript callers", () => {
  it.each(synchronous)("%s: %s throws a clear InvalidValueError", (_api, _name, call, message) => {
    expect(call).toThrow(InvalidValueError);
    expect(call).toThrow(message);
  });

  it.each(asynchronous)("%s: %s rejects with a clear InvalidValueError", async (_api, _name, call, message) => {
    const error = await call().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as Error).message).toMatch(message);
  });

  it("a ToolInvocation with a null schema still accepts any object, and a zod schema still validates", () => {
    expect(new ToolInvocation(spec, { id: "call-1", name: "search", arguments: { q: 1 } }, ctx()).call.arguments).toEqual({ q: 1 });
  });
});
