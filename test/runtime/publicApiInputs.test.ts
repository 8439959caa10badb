import { describe, expect, it } from "vitest";
import {
  act,
  actAll,
  ActionManager,
  AgentSpec,
  AllOfFilter,
  APICalling,
  asFilter,
  Branch,
  BranchTools,
  BudgetHook,
  classNameOf,
  CodingToolkit,
  configureRedaction,
  configureSignals,
  Event,
  Executor,
  field,
  FieldRef,
  fnmatch,
  formatLiveEnv,
  FunctionCalling,
  GateDenied,
  guardPaths,
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
  Ledger,
  LLMInvocation,
  loadHooksForAgent,
  logApiMetrics,
  LoggingHook,
  logToolCall,
  logToolUse,
  Message,
  MessageAdded,
  NodeInvocation,
  normalizePoint,
  ofType,
  OpenAIChatEndpoint,
  parseLiveEnv,
  PermissionPolicy,
  persistBranchProvenance,
  persistMessage,
  persistSessionEnd,
  persistSessionStart,
  PostgresSignalStore,
  Rate,
  RateBuckets,
  RateLimitHook,
  readEnvelope,
  RedactionRules,
  registerHandler,
  resolveHandler,
  RoleFilter,
  RoleKeyFilter,
  RunEnd,
  RunFailed,
  RunStart,
  ScriptedEndpoint,
  Session,
  SessionObserver,
  setDefaultSignalStore,
  setLogger,
  setSessionStateStore,
  Signal,
  signalKind,
  SpecFilter,
  splitCommand,
  SqliteSignalStore,
  standaloneTool,
  Tool,
  ToolCallAction,
  ToolCallBlocked,
  ToolInvocation,
  ToolResult,
  TypeFilter,
  where,
  Workspace,
} from "@hooklens/runtime";
import * as runtimeRoot from "@hooklens/runtime";
import * as runtimeLive from "@hooklens/runtime/live";
import * as runtimeStore from "@hooklens/runtime/store";
import * as runtimeOtel from "@hooklens/runtime/otel";
import { readFileSync } from "node:fs";

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
  // Process-wide settings and helpers
  ["setLogger", "setLogger(42)", () => setLogger(loose(42)), /^setLogger\(logger\): logger \(a pino-like logger\) must be an object, got a number \(42\)$/],
  ["setSessionStateStore", "setSessionStateStore(null)", () => setSessionStateStore(loose(null)), /^setSessionStateStore\(store\): store \(a SessionStateStore\) must be an object, got null$/],
  ["setDefaultSignalStore", "setDefaultSignalStore('db.sqlite')", () => setDefaultSignalStore(loose("db.sqlite")), /^setDefaultSignalStore\(store\): store \(a SignalStore, or null to clear\) must be an object, got a string \("db\.sqlite"\)$/],
  ["configureSignals", "configureSignals(null)", () => configureSignals(loose(null)), /^configureSignals\(changes\): changes must be an object, got null$/],
  ["signalKind", "signalKind(null)", () => signalKind(loose(null)), /^signalKind\(signal\): signal must be a Signal, got null$/],
  ["splitCommand", "splitCommand(null)", () => splitCommand(loose(null)), /^splitCommand\(command\): command must be a string, got null$/],
  ["fnmatch", "fnmatch('a.ts')", () => fnmatch("a.ts", loose(undefined)), /^fnmatch\(name, pattern\): pattern must be a string, got undefined$/],
  ["formatLiveEnv", "formatLiveEnv(null)", () => formatLiveEnv(loose(null)), /^formatLiveEnv\(live\): live \(\{ endpoint, token \}\) must be an object, got null$/],
  ["parseLiveEnv", "parseLiveEnv(42)", () => parseLiveEnv(loose(42)), /^parseLiveEnv\(value\): value \(the HOOKLENS_LIVE text\) must be a string, got a number \(42\)$/],
  ["Rate", "new Rate(null, 1)", () => new (untyped(Rate))(null, 1), /^Rate calls must be a positive integer, got null$/],
  ["Ledger", "new Ledger(42)", () => new (untyped(Ledger))(42), /^new Ledger\(options\): options must be an object, got a number \(42\)$/],
  ["configureRedaction", "configureRedaction(42)", () => configureRedaction(loose(42)), /options must be an object, got a number \(42\)$/],
  ["RedactionRules", "new RedactionRules(null)", () => new (untyped(RedactionRules))(null), /options must be an object, got null$/],
  ["normalizePoint", "normalizePoint(42)", () => normalizePoint(loose(42)), /^Unknown hook point a number \(42\); valid values: /],
  ["asFilter", "asFilter(42)", () => asFilter(42), /^Cannot use number as an observe\(\) condition/],
  ["TypeFilter", "new TypeFilter(42)", () => new (untyped(TypeFilter))(42), /^new TypeFilter\(type\) \/ ofType\(type\): type \(a class\) must be a function, got a number \(42\)$/],
  ["ofType", "ofType(null)", () => ofType(loose(null)), /type \(a class\) must be a function, got null$/],
  ["SpecFilter", "new SpecFilter(42)", () => new (untyped(SpecFilter))(42), /^new SpecFilter\(predicate, options\) \/ where\(predicate\): predicate must be a function, got a number \(42\)$/],
  ["where", "where('x')", () => where(loose("x")), /predicate must be a function, got a string \("x"\)$/],
  ["AllOfFilter", "new AllOfFilter(null)", () => new (untyped(AllOfFilter))(null), /^new AllOfFilter\(filters\): filters must be an array, got null$/],
  ["AllOfFilter", "new AllOfFilter([42])", () => new (untyped(AllOfFilter))([42]), /each filter must be a Filter, got a number \(42\)$/],
  ["RoleFilter", "new RoleFilter(42)", () => new (untyped(RoleFilter))(42), /^new RoleFilter\(role\): role must be a non-empty string, got a number \(42\)$/],
  ["RoleKeyFilter", "new RoleKeyFilter(null, 'x')", () => new (untyped(RoleKeyFilter))(null, "x"), /^new RoleKeyFilter\(key, role\): key must be a Filter, got null$/],
  ["guardPaths", "guardPaths(null)", () => guardPaths(loose(null)), /^guardPaths\(options\): options must be an object, got null$/],
  ["standaloneTool", "standaloneTool(null)", () => (standaloneTool as (...args: unknown[]) => unknown)(null), /unknown coding tool/],
  ["readEnvelope", "readEnvelope(null)", () => (readEnvelope as (...args: unknown[]) => unknown)(null), /action_request must be an ActionRequest/],
  ["loadHooksForAgent", "loadHooksForAgent({ 'tool.pre': 1 })", () => loadHooksForAgent(loose({ "tool.pre": 1 })), /^hooks\.tool\.pre must be a list of handler names; got number$/],
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
  ["SqliteSignalStore", "SqliteSignalStore.open(null)", () => SqliteSignalStore.open(loose(null)), /^SqliteSignalStore\.open\(path, options\): path \(a database file\) must be a non-empty string, got null$/],
  ["SqliteSignalStore", "SqliteSignalStore.open(path, 42)", () => SqliteSignalStore.open("never-created.db", loose(42)), /^SqliteSignalStore\.open\(path, options\): options must be an object, got a number \(42\)$/],
  ["PostgresSignalStore", "PostgresSignalStore.open(null)", () => PostgresSignalStore.open(loose(null)), /^PostgresSignalStore\.open\(connection, options\): connection \(a postgres:\/\/ URL or a pg connection config\) must be an object, got null$/],
  ["PostgresSignalStore", "PostgresSignalStore.open(url, [])", () => PostgresSignalStore.open("postgres://localhost/x", loose([])), /^PostgresSignalStore\.open\(connection, options\): options must be an object, got an array$/],
  ["act", "act(null, request)", () => act(loose(null), { function: "x", arguments: {} }), /^act\(branch, request, options\): branch \(a Branch\) must be an object, got null$/],
  ["act", "act(branch, null)", () => act(new Session().newBranch(), null), /action_request must be an ActionRequest/],
  ["actAll", "actAll(branch, [], 42)", () => actAll(new Session().newBranch(), [], loose(42)), /^actAll\(branch, requests, options\): options must be an object, got a number \(42\)$/],
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

/** What each package entry point exports, as a caller imports it. */
const ENTRY_POINTS: Record<string, Record<string, unknown>> = { ".": runtimeRoot, "./live": runtimeLive, "./store": runtimeStore, "./otel": runtimeOtel };

/** Exports that take no argument a caller could get wrong, or answer for any value by design. */
const NO_INPUT_TO_CHECK: Record<string, string> = {
  isPlainObject: "a predicate: any value gets true or false",
  isAsyncFunction: "a predicate: any value gets true or false",
  isCancellation: "a predicate: any value gets true or false",
  isEventStatus: "a predicate: any value gets true or false",
  isPostgresUrl: "a predicate: any value gets true or false",
  markedPoint: "reads a mark from any value; undefined when there is none",
  readTokenUsage: "reads usage from any provider body; null when there is none",
  summarize: "describes any value for a log line",
  toJsonSafe: "turns any value into JSON data",
  capPayload: "bounds any value for a signal",
  sanitizeSignalPayload: "turns any value into a signal payload",
  encodeSignalPayload: "encodes any value as a signal payload",
  cacheKey: "keys any arguments",
  redactValue: "redaction never throws: any value comes back redacted",
  redactText: "redaction never throws: a non-string comes back unchanged",
  redactError: "redaction never throws: a non-Error comes back unchanged",
  ShortCircuit: "wraps any value a hook answers with",
  getLogger: "no arguments",
  consoleLogger: "no arguments",
  flushLive: "no arguments",
  flushSignals: "no arguments",
  queuedSignals: "no arguments",
  signalSettings: "no arguments",
  redactionRules: "no arguments",
  registeredHandlerNames: "no arguments",
  closeEmbeddedSignalStores: "no arguments",
  embeddedDefaultSignalStore: "no arguments",
  getDefaultSignalStore: "no arguments",
  getSessionStateStore: "no arguments",
  liveSink: "no arguments",
  InMemorySignalStore: "no arguments",
  InMemorySessionStateStore: "no arguments",
};

/**
 * Not yet audited for bad input (issue 12 item 4): each still needs its checks and a case above.
 * Listed, not hidden, so the suite still fails for every export added from now on.
 */
const NOT_YET_CHECKED = [
  "buildRunEnd", "Flow", "encodeSignal", "MessageManager", "buildSessionBus", "routeMessagePersistence", "unrouteMessagePersistence",
  "EventExecution", "normalizeHookKey", "parseServerSentEvents", "HooksMixin", "chainPreHooks", "chainPostHooks", "toolHooks",
  "attachHooks", "applyPermissions", "registerCodingTools", "registerAgentTools", "loadMcpTools", "equipAgent", "createAgent",
  "guardDestructive", "autoFormat", "autoFormatTypeScript", "runArgv", "codingToolDefinition", "NudgeEngine", "Hook", "runBefore",
  "runAfter", "runOnError", "runOnLlmEnd", "createRunContext", "toolCall", "MemoryToolCache", "StoreSink", "defaultSignalDbPath",
  "LiveConnection", "LiveSink", "recordedSignalFrame", "Filter", "redact", "isSecretKey",
  // signals added while this audit ran
  "ToolCallStarted", "ToolCallFinished", "ModelCallStarted", "ModelCallFinished", "ModelStreamChunks", "RunEvent", "callError",
  // @hooklens/runtime/otel
  "exportToOpenTelemetry", "OpenTelemetrySink", "forceFlushGlobalProvider", "startEnvironmentExport",
];

describe("every public entry point", () => {
  const cases = new Set([...synchronous, ...asynchronous].map(([api]) => api));
  const exported = Object.entries(ENTRY_POINTS).flatMap(([entry, module]) =>
    Object.entries(module)
      // Error classes take a message; the runtime builds them, callers catch them.
      .filter(([, value]) => typeof value === "function" && !((value as { prototype?: unknown }).prototype instanceof Error))
      .map(([name]) => ({ entry, name })),
  );

  it("are all imported here: a new subpath export needs its entry in ENTRY_POINTS", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../runtime/package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
    const codeEntries = Object.keys(manifest.exports).filter((entry) => entry !== "./package.json");
    expect(codeEntries.sort()).toEqual(Object.keys(ENTRY_POINTS).sort());
  });

  it.each(exported)("$entry $name has a bad-input case above, or a reason it needs none", ({ name }) => {
    expect(cases.has(name) || name in NO_INPUT_TO_CHECK || NOT_YET_CHECKED.includes(name), `add a bad-input case for ${name}, or say in NO_INPUT_TO_CHECK why it needs none`).toBe(true);
  });

  it("lists no stale exemption", () => {
    const names = new Set(exported.map(({ name }) => name));
    expect(Object.keys(NO_INPUT_TO_CHECK).filter((name) => !names.has(name))).toEqual([]);
    expect(NOT_YET_CHECKED.filter((name) => !names.has(name) || cases.has(name))).toEqual([]);
  });
});
