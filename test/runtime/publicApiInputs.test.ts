import { describe, expect, it } from "vitest";
import {
  act,
  actAll,
  applyPermissions,
  attachHooks,
  autoFormat,
  buildRunEnd,
  buildSessionBus,
  chainPostHooks,
  chainPreHooks,
  codingToolDefinition,
  createAgent,
  createRunContext,
  encodeSignal,
  equipAgent,
  Filter,
  Flow,
  guardDestructive,
  HooksMixin,
  isSecretKey,
  loadMcpTools,
  MessageManager,
  ModelCallFinished,
  ModelCallStarted,
  ModelStreamChunks,
  normalizeHookKey,
  NudgeEngine,
  parseServerSentEvents,
  redact,
  registerAgentTools,
  registerCodingTools,
  routeMessagePersistence,
  runAfter,
  runArgv,
  runBefore,
  RunEvent,
  runOnError,
  runOnLlmEnd,
  toolCall,
  ToolCallFinished,
  ToolCallStarted,
  toolHooks,
  unrouteMessagePersistence,
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
import * as runtimeAiSdk from "@hooklens/runtime/ai-sdk";
import { hookLensMiddleware, observeAiSdk } from "@hooklens/runtime/ai-sdk";
import * as runtimeClaudeAgentSdk from "@hooklens/runtime/claude-agent-sdk";
import { ClaudeHookCall, ClaudePermissionCall, ClaudeQueryEvent, observeQuery, withHookLens } from "@hooklens/runtime/claude-agent-sdk";
import * as runtimeOpenAiAgents from "@hooklens/runtime/openai-agents";
import { instrumentRunner } from "@hooklens/runtime/openai-agents";
import { exportToOpenTelemetry, OpenTelemetrySink } from "@hooklens/runtime/otel";
import { LiveConnection, LiveSink, recordedSignalFrame } from "@hooklens/runtime/live";
import { defaultSignalDbPath, InMemorySignalStore, StoreSink } from "@hooklens/runtime/store";
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
  ["ScriptedEndpoint", "new ScriptedEndpoint({ model: 42 })", () => new ScriptedEndpoint({ model: loose(42) }), /^new ScriptedEndpoint\(options\): options\.model must be a non-empty string, got a number \(42\)$/],
  ["ScriptedEndpoint", "new ScriptedEndpoint({ script: 'hi' })", () => new ScriptedEndpoint({ script: loose("hi") }), /options\.script must be an array of turns or a function \(payload, index\) => turn, got a string \("hi"\)$/],
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

  // Methods a JavaScript caller reaches first
  ["Session", "session.includeBranches(null)", () => new Session().includeBranches(loose(null)), /^Session\.includeBranches\(branches\): branches must be a Branch or a list of Branches, got null$/],
  ["Session", "session.includeBranches([{}])", () => new Session().includeBranches(loose([{}])), /each of branches must be a Branch, got an object$/],
  ["SessionObserver", "observer.route(condition) without options", () => new SessionObserver().route(loose(Signal), loose(undefined)), /^SessionObserver\.route\(condition, options\): options \(\{ into \}\) must be an object, got undefined$/],
  ["SessionObserver", "observer.gate(42)", () => new SessionObserver().gate(loose(42)), /^SessionObserver\.gate\(check\): check \(a function, or null to remove the gate\) must be a function, got a number \(42\)$/],
  ["Session", "session.gate('deny')", () => new Session().gate(loose("deny")), /^SessionObserver\.gate\(check\): check \(a function, or null to remove the gate\) must be a function, got a string/],
  ["SessionObserver", "observer.addSink(null)", () => new SessionObserver().addSink(loose(null)), /^SessionObserver\.addSink\(sink\): sink must be a SignalSink \(with write and flush\), got null$/],
  ["Ledger", "ledger.record(null)", () => new Ledger().record(loose(null)), /^Ledger\.record\(call\): call .* must be an object, got null$/],
  ["Ledger", "ledger.record({ runId }) without a model", () => new Ledger().record(loose({ runId: "r", provider: "p", inputTokens: 1, outputTokens: 1 })), /^Ledger\.record\(call\): call\.model must be a non-empty string, got undefined$/],
  ["CodingToolkit", "toolkit.pre(42, fn)", () => new CodingToolkit().pre(loose(42), async () => undefined), /^CodingToolkit\.pre\(toolName, handler\): toolName must be a non-empty string, got a number \(42\)$/],
  ["CodingToolkit", "toolkit.post('editor', 'format')", () => new CodingToolkit().post("editor", loose("format")), /^CodingToolkit\.post\(toolName, handler\): handler must be a function, got a string \("format"\)$/],
  // Session helpers
  ["buildRunEnd", "buildRunEnd(null)", () => buildRunEnd(loose(null)), /^buildRunEnd\(source, options\): source \(a Branch, or \{ messages \}\) must be an object, got null$/],
  ["buildRunEnd", "buildRunEnd({ messages: [null] })", () => buildRunEnd({ messages: loose([null]) }), /each of source\.messages must be a Message \(with metadata\), got null$/],
  ["buildRunEnd", "buildRunEnd(branch, null)", () => buildRunEnd({ messages: [] }, loose(null)), /^buildRunEnd\(source, options\): options must be an object, got null$/],
  ["Flow", "new Flow('f', 0)", () => new Flow("f", 0), /^new Flow\(name, keep\): keep must be a positive integer or Infinity, got a number \(0\)$/],
  ["Flow", "flow.add(null)", () => new Flow("f").add(loose(null)), /^Flow\.add\(signal\): signal must be a Signal \(with a string id\), got null$/],
  ["encodeSignal", "encodeSignal({ id })", () => encodeSignal(loose({ id: "x" }), 1), /^encodeSignal\(signal, ts\): signal must be a Signal, got an object$/],
  ["encodeSignal", "encodeSignal(signal, '1')", () => encodeSignal(new Signal(), loose("1")), /ts \(POSIX seconds\) must be a number, got a string \("1"\)$/],
  ["MessageManager", "manager.add(null)", () => new MessageManager().add(loose(null)), /^MessageManager\.add\(message\): message must be a Message \(with a string id\), got null$/],
  ["MessageManager", "a non-function pushed onto onMessageAdded", () => { const manager = new MessageManager(); manager.onMessageAdded.push(loose(42)); return manager.add(new Message({ role: "user", content: "hi" })); }, /^MessageManager\.add\(message\): each onMessageAdded callback must be a function, got a number \(42\)$/],
  ["buildSessionBus", "buildSessionBus(42)", () => buildSessionBus(loose(42)), /^loadHooksForAgent\(agentHooks\): agentHooks .* must be an object, got a number \(42\)$/],
  ["buildSessionBus", "buildSessionBus(null, null)", () => buildSessionBus(null, loose(null)), /^buildSessionBus\(agentHooks, options\): options must be an object, got null$/],
  ["routeMessagePersistence", "routeMessagePersistence(null, …)", () => routeMessagePersistence(loose(null), new Session().newBranch(), () => undefined), /^routeMessagePersistence\(session, branch, onMessage\): session \(a Session\) must be an object with newBranch\(\), got null$/],
  ["routeMessagePersistence", "routeMessagePersistence(session, branch, 42)", () => { const session = new Session(); return routeMessagePersistence(session, session.newBranch(), loose(42)); }, /onMessage must be a function, got a number \(42\)$/],
  ["routeMessagePersistence", "routeMessagePersistence(session, {}, fn)", () => routeMessagePersistence(new Session(), loose({}), () => undefined), /branch must be a Branch, got an object$/],
  ["unrouteMessagePersistence", "unrouteMessagePersistence(null, fn)", () => unrouteMessagePersistence(loose(null), loose(() => undefined)), /^unrouteMessagePersistence\(holder, handler\): holder must be a Branch, got null$/],
  ["unrouteMessagePersistence", "unrouteMessagePersistence(branch, null)", () => unrouteMessagePersistence(new Session().newBranch(), loose(null)), /handler must be a function, got null$/],
  ["Filter", "a Filter subclass without matches()", () => new (untyped(class NoMatches extends (Filter as unknown as new () => object) {}))(), /^new NoMatches\(\): a Filter subclass must implement matches\(payload\) returning an array, got undefined$/],
  // Service helpers
  ["normalizeHookKey", "normalizeHookKey(null)", () => normalizeHookKey(loose(null)), /^normalizeHookKey\(key\): key must be a string, got null$/],
  // Tool factory and helpers
  ["HooksMixin", "mixin.post('', fn)", () => new HooksMixin().post("", () => undefined), /^HooksMixin\.post\(toolName, handler\): toolName must be a non-empty string, got a string \(""\)$/],
  ["chainPreHooks", "chainPreHooks('bash', [42])", () => chainPreHooks("bash", loose([42])), /^chainPreHooks\(toolName, securityHooks, userHooks\): securityHooks\[0\] must be a function, got a number \(42\)$/],
  ["chainPreHooks", "chainPreHooks('bash', [], null)", () => chainPreHooks("bash", [], loose(null)), /userHooks must be an array, got null$/],
  ["chainPostHooks", "chainPostHooks(null, [])", () => chainPostHooks(loose(null), []), /^chainPostHooks\(toolName, hooks\): toolName must be a non-empty string, got null$/],
  ["chainPostHooks", "chainPostHooks('bash', ['log'])", () => chainPostHooks("bash", loose(["log"])), /hooks\[0\] must be a function, got a string \("log"\)$/],
  ["toolHooks", "toolHooks(null, 'pre', 'bash')", () => toolHooks(loose(null), "pre", "bash"), /^toolHooks\(spec, phase, toolName\): spec must be an AgentSpec \(or another HooksMixin\), got null$/],
  ["toolHooks", "toolHooks(spec, 'later', 'bash')", () => toolHooks(new AgentSpec(), loose("later"), "bash"), /phase must be one of security_pre, pre, post, error, got "later"$/],
  ["attachHooks", "attachHooks({}, spec, 'bash')", () => attachHooks(loose({}), new AgentSpec(), "bash"), /^attachHooks\(tool, spec, toolName\): tool must be a Tool, got an object$/],
  ["attachHooks", "attachHooks(tool, spec, 42)", () => attachHooks(new Tool({ name: "t", funcCallable: () => 1 }), new AgentSpec(), loose(42)), /toolName must be a non-empty string, got a number \(42\)$/],
  ["applyPermissions", "applyPermissions(null)", () => applyPermissions(loose(null)), /^applyPermissions\(spec\): spec must be an AgentSpec, got null$/],
  ["registerCodingTools", "registerCodingTools({}, spec)", () => registerCodingTools(loose({}), new AgentSpec()), /^registerCodingTools\(host, spec\): host \(a Branch or an ActionManager\) must be an object with registerTools\(\), got an object$/],
  ["registerCodingTools", "registerCodingTools(branch, null)", () => registerCodingTools(new Session().newBranch(), loose(null)), /spec must be an AgentSpec, got null$/],
  ["registerAgentTools", "registerAgentTools(null, spec)", () => registerAgentTools(loose(null), new AgentSpec({ tools: ["reader"] })), /^registerAgentTools\(host, spec\): host .* must be an object with registerTools\(\), got null$/],
  ["AgentSpec", "new AgentSpec({ tools: 'coding' })", () => new AgentSpec({ tools: loose("coding") }), /^new AgentSpec\(options\): options\.tools must be an array, got a string \("coding"\)$/],
  ["guardPaths", "guardPaths({ allowedPaths: '/srv' })", () => guardPaths({ allowedPaths: loose("/srv") }), /^guardPaths\(options\): options\.allowedPaths must be an array, got a string \("\/srv"\)$/],
  ["autoFormat", "autoFormat(null)", () => autoFormat(loose(null)), /^autoFormat\(options\): options: .*expected object, received null$/],
  ["autoFormat", "autoFormat({ command: 'prettier' })", () => autoFormat({ command: loose("prettier") }), /^autoFormat\(options\): options\.command: .*expected array, received string$/],
  ["autoFormat", "autoFormat({ timeout: 5 })", () => autoFormat(loose({ timeout: 5 })), /^autoFormat\(options\): options: .*"timeout"/],
  ["runArgv", "runArgv('ls -l', options)", () => runArgv(loose("ls -l"), { timeoutMs: 1_000 }), /^runArgv\(argv, options\): argv must be an array, got a string \("ls -l"\)$/],
  ["runArgv", "runArgv(['ls', 1], options)", () => runArgv(loose(["ls", 1]), { timeoutMs: 1_000 }), /argv\[1\] must be a string, got a number \(1\)$/],
  ["runArgv", "runArgv(['ls']) without a timeout", () => runArgv(["ls"], loose({})), /^runArgv\(argv, options\): options\.timeoutMs must be a positive number, got undefined$/],
  ["codingToolDefinition", "codingToolDefinition('shell', …)", () => codingToolDefinition(loose("shell"), new Workspace(process.cwd())), /^unknown coding tool\(s\): \[shell\]/],
  ["codingToolDefinition", "codingToolDefinition('reader', '/tmp')", () => codingToolDefinition("reader", loose("/tmp")), /^codingToolDefinition\(name, workspace, options\): workspace must be a Workspace, got a string \("\/tmp"\)$/],
  ["NudgeEngine", "new NudgeEngine('3')", () => new NudgeEngine(loose("3")), /^new NudgeEngine\(threshold\): threshold must be a positive integer, got a string \("3"\)$/],
  // Middleware helpers
  ["createRunContext", "createRunContext(null)", () => createRunContext(loose(null)), /^createRunContext\(options\): options must be an object, got null$/],
  ["createRunContext", "createRunContext({ onEvent: 42 })", () => createRunContext(loose({ onEvent: 42 })), /options\.onEvent must be a function, got a number \(42\)$/],
  ["createRunContext", "createRunContext({ signal: {} })", () => createRunContext(loose({ signal: {} })), /options\.signal must be an AbortSignal, got an object$/],
  ["createRunContext", "createRunContext({ ledger: {} })", () => createRunContext(loose({ ledger: {} })), /options\.ledger \(a Ledger\) must be an object with record\(\), got an object$/],
  ["toolCall", "toolCall(null)", () => toolCall(loose(null)), /^toolCall\(name, args, id\): name must be a non-empty string, got null$/],
  ["toolCall", "toolCall('search', 'q')", () => toolCall("search", loose("q")), /args must be an object, got a string \("q"\)$/],
  // Call signals (built on every call: typeof checks)
  ["ToolCallStarted", "new ToolCallStarted(null)", () => new (untyped(ToolCallStarted))(null), /^new ToolCallStarted\(call, init\): call \(\{ toolName, callId, source \}\) must be an object, got null$/],
  ["ToolCallStarted", "new ToolCallStarted({ toolName }) without a callId", () => new (untyped(ToolCallStarted))({ toolName: "t", source: "act" }), /^new ToolCallStarted\(call, init\): call\.callId must be a string, got undefined$/],
  ["ToolCallFinished", "new ToolCallFinished(42)", () => new (untyped(ToolCallFinished))(42), /^new ToolCallFinished\(call, init\): call .* must be an object, got a number \(42\)$/],
  ["ModelCallStarted", "new ModelCallStarted(null)", () => new (untyped(ModelCallStarted))(null), /^new ModelCallStarted\(call, init\): call .* must be an object, got null$/],
  ["ModelCallFinished", "new ModelCallFinished({ status })", () => new (untyped(ModelCallFinished))({ status: "ok" }), /^new ModelCallFinished\(call, init\): call\.callId must be a string, got undefined$/],
  ["ModelStreamChunks", "new ModelStreamChunks(null)", () => new (untyped(ModelStreamChunks))(null), /^new ModelStreamChunks\(batch, init\): batch .* must be an object, got null$/],
  ["RunEvent", "new RunEvent({ event })", () => new (untyped(RunEvent))({ event: "budget.warning" }), /^new RunEvent\(event, init\): event\.runId must be a string, got undefined$/],
  // Redaction
  ["redact", "redact(value, 'key')", () => redact({ apiKey: "x" }, loose("key")), /^redact\(value, patterns\): patterns \(key fragments\) must be an array, got a string \("key"\)$/],
  ["redact", "redact(value, [null])", () => redact({ apiKey: "x" }, loose([null])), /patterns \(key fragments\)\[0\] must be a string, got null$/],
  ["isSecretKey", "isSecretKey(42)", () => isSecretKey(loose(42)), /^isSecretKey\(name\): name .* must be a string, got a number \(42\)$/],
  // @hooklens/runtime/store and /live
  ["StoreSink", "new StoreSink(store, 'where')", () => new (untyped(StoreSink))(new InMemorySignalStore(), "where"), /^new StoreSink\(resolve, where\): resolve .* must be a function, got an object$/],
  ["defaultSignalDbPath", "defaultSignalDbPath(null)", () => defaultSignalDbPath(loose(null)), /^defaultSignalDbPath\(env, cwd\): env \(such as process\.env\) must be an object, got null$/],
  ["LiveConnection", "new LiveConnection('/tmp/socket')", () => new LiveConnection(loose("/tmp/socket")), /^new LiveConnection\(live, title\): live \(\{ endpoint, token \}\) must be an object, got a string/],
  ["LiveConnection", "new LiveConnection({ endpoint }) without a token", () => new LiveConnection(loose({ endpoint: "/tmp/socket" })), /live\.token must be a non-empty string, got undefined$/],
  ["LiveSink", "new LiveSink({ endpoint, token })", () => new LiveSink(loose({ endpoint: "/tmp/socket", token: "t" })), /^new LiveSink\(connection\): connection must be a LiveConnection, got an object$/],
  ["recordedSignalFrame", "recordedSignalFrame(null, 1)", () => recordedSignalFrame(loose(null), 1), /^recordedSignalFrame\(record, position\): record \(a SessionSignalRecord\) must be an object, got null$/],
  ["hookLensMiddleware", "hookLensMiddleware(42)", () => hookLensMiddleware(loose(42)), /^hookLensMiddleware\(options\): options must be an object, got a number \(42\)$/],
  ["observeAiSdk", "observeAiSdk('on')", () => observeAiSdk(loose("on")), /^observeAiSdk\(options\): options must be an object, got a string/],
  ["withHookLens", "withHookLens(null)", () => withHookLens(loose(null)), /^withHookLens\(options, lens\): options must be an object, got null$/],
  ["withHookLens", "withHookLens(options, 'session')", () => withHookLens({}, loose("session")), /^withHookLens\(options, lens\): options must be an object, got a string/],
  ["ClaudeHookCall", "new ClaudeHookCall(null)", () => new (untyped(ClaudeHookCall))(null), /^new ClaudeHookCall\(call, init\): call must be an object, got null$/],
  ["ClaudePermissionCall", "new ClaudePermissionCall(42)", () => new (untyped(ClaudePermissionCall))(42), /^new ClaudePermissionCall\(call, init\): call must be an object, got a number \(42\)$/],
  ["ClaudeQueryEvent", "new ClaudeQueryEvent(null)", () => new (untyped(ClaudeQueryEvent))(null), /^new ClaudeQueryEvent\(fields, init\): fields must be an object, got null$/],
  ["observeQuery", "observeQuery(null, options)", () => observeQuery(loose(null), {}), /^observeQuery\(query, options\): query must be an object with next\(\), got null$/],
  ["observeQuery", "observeQuery(query, null)", () => observeQuery(loose({ next: () => undefined }), loose(null)), /^observeQuery\(query, options\): options must be an object, got null$/],
  ["instrumentRunner", "instrumentRunner({})", () => instrumentRunner(loose({})), /^instrumentRunner\(runner, options\): runner must be an object with on\(\), got an object$/],
  ["instrumentRunner", "instrumentRunner(null, 42)", () => instrumentRunner(null, loose(42)), /^instrumentRunner\(runner, options\): options must be an object, got a number \(42\)$/],
  ["recordedSignalFrame", "recordedSignalFrame(record, 0)", () => recordedSignalFrame({ sessionId: "s", kind: "Signal", opId: "", ts: 1, payload: {} }, 0), /position \(1 for the first record\) must be a positive integer, got a number \(0\)$/],
  // @hooklens/runtime/otel
  ["exportToOpenTelemetry", "exportToOpenTelemetry(null)", () => exportToOpenTelemetry(loose(null)), /^exportToOpenTelemetry\(target\): target must be a Session, SessionObserver, Branch, IModel or Executor, got null$/],
  ["exportToOpenTelemetry", "exportToOpenTelemetry(session, { tracer: 42 })", () => exportToOpenTelemetry(new Session(), loose({ tracer: 42 })), /^exportToOpenTelemetry\(target, options\): options\.tracer must be an OpenTelemetry Tracer \(with startSpan\), got number 42$/],
  ["OpenTelemetrySink", "new OpenTelemetrySink(null)", () => new OpenTelemetrySink(loose(null)), /^new OpenTelemetrySink\(options\): options must be an object, got null$/],
  ["OpenTelemetrySink", "new OpenTelemetrySink({ tracer: {} })", () => new OpenTelemetrySink(loose({ tracer: {} })), /options\.tracer must be an OpenTelemetry Tracer \(with startSpan\), got Object$/],
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
  ["SqliteSignalStore", "SqliteSignalStore.open(':memory:')", () => SqliteSignalStore.open(":memory:"), /^SqliteSignalStore\.open\(path, options\): path must name a database file; ":memory:" is SQLite's in-memory or URI form/],
  ["SqliteSignalStore", "SqliteSignalStore.open(path, 42)", () => SqliteSignalStore.open("never-created.db", loose(42)), /^SqliteSignalStore\.open\(path, options\): options must be an object, got a number \(42\)$/],
  ["PostgresSignalStore", "PostgresSignalStore.open(null)", () => PostgresSignalStore.open(loose(null)), /^PostgresSignalStore\.open\(connection, options\): connection \(a postgres:\/\/ URL or a pg connection config\) must be an object, got null$/],
  ["PostgresSignalStore", "PostgresSignalStore.open(url, [])", () => PostgresSignalStore.open("postgres://localhost/x", loose([])), /^PostgresSignalStore\.open\(connection, options\): options must be an object, got an array$/],
  ["act", "act(null, request)", () => act(loose(null), { function: "x", arguments: {} }), /^act\(branch, request, options\): branch \(a Branch\) must be an object, got null$/],
  ["act", "act(branch, null)", () => act(new Session().newBranch(), null), /action_request must be an ActionRequest/],
  ["actAll", "actAll(branch, [], 42)", () => actAll(new Session().newBranch(), [], loose(42)), /^actAll\(branch, requests, options\): options must be an object, got a number \(42\)$/],

  ["HookRegistry", "registry.call(event) without options", () => new HookRegistry().call(loose(null), loose(undefined)), /^HookRegistry\.call\(eventLike, options\): options .* must be an object, got undefined$/],
  ["parseServerSentEvents", "parseServerSentEvents(null)", async () => { for await (const _ of parseServerSentEvents(loose(null))) void _; }, /^parseServerSentEvents\(chunks\): chunks must be an async iterable of Uint8Array \(a response body\), got null$/],
  ["parseServerSentEvents", "parseServerSentEvents of strings", async () => { for await (const _ of parseServerSentEvents(loose((async function* () { yield "data: x\n\n"; })()))) void _; }, /^parseServerSentEvents\(chunks\): each chunk must be a Uint8Array, got a string/],
  ["loadMcpTools", "loadMcpTools(branch, spec) with a server without listTools", () => loadMcpTools(new Session().newBranch(), new AgentSpec({ mcpServers: loose({ files: {} }) })), /^loadMcpTools\(host, spec\): spec\.mcpServers\["files"\] \(an MCP client\) must be an object with listTools\(\), got an object$/],
  ["loadMcpTools", "loadMcpTools(branch, null)", () => loadMcpTools(new Session().newBranch(), loose(null)), /^loadMcpTools\(host, spec\): spec must be an AgentSpec, got null$/],
  ["equipAgent", "equipAgent(null, spec)", () => equipAgent(loose(null), new AgentSpec()), /^equipAgent\(host, spec\): host .* must be an object with registerTools\(\), got null$/],
  ["createAgent", "createAgent({ name })", () => createAgent(loose({ name: "a" })), /^createAgent\(spec, options\): spec must be an AgentSpec, got an object$/],
  ["createAgent", "createAgent(spec, { branch: {} })", () => createAgent(new AgentSpec(), loose({ branch: {} })), /options\.branch must be a Branch, got an object$/],
  ["guardDestructive", "guardDestructive('bash', '', null)", () => guardDestructive("bash", "", loose(null)), /^guardDestructive\(toolName, action, args\): args must be an object, got null$/],
  ["runBefore", "runBefore(null, …)", () => runBefore(loose(null), "beforeTool", loose({ ctx: ctx() })), /^runBefore\(hooks, phase, inv\): hooks must be an array of Hooks, got null$/],
  ["runBefore", "runBefore(hooks, 'beforeToll', inv)", () => runBefore([], loose("beforeToll"), loose({ ctx: ctx() })), /phase must be one of beforeTool, .*got a string \("beforeToll"\)$/],
  ["runBefore", "runBefore([{ beforeTool: 42 }], …)", () => runBefore(loose([{ name: "audit", beforeTool: 42 }]), "beforeTool", loose({ ctx: ctx() })), /^runBefore\(hooks, phase, inv\): hook audit's beforeTool must be a function, got a number \(42\)$/],
  ["runAfter", "runAfter([null], …)", () => runAfter(loose([null]), "afterTool", loose({ ctx: ctx() }), loose({})), /^runAfter\(hooks, phase, inv, result\): each hook must be an object \(a Hook\), got null$/],
  ["runOnError", "runOnError(hooks, phase, null)", () => runOnError([], "onToolError", loose(null), new Error("x")), /^runOnError\(hooks, phase, inv, error\): inv must be an invocation .*got null$/],
  ["runOnLlmEnd", "runOnLlmEnd('hooks', …)", () => runOnLlmEnd(loose("hooks"), loose({ ctx: ctx() }), null), /^runOnLlmEnd\(hooks, inv, billed\): hooks must be an array of Hooks, got a string/],
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
const ENTRY_POINTS: Record<string, Record<string, unknown>> = {
  ".": runtimeRoot,
  "./live": runtimeLive,
  "./store": runtimeStore,
  "./otel": runtimeOtel,
  "./ai-sdk": runtimeAiSdk,
  "./claude-agent-sdk": runtimeClaudeAgentSdk,
  "./openai-agents": runtimeOpenAiAgents,
};
/** Entries that export nothing: `./ai-sdk/register` only starts observing when it is loaded (`node --import`). */
const SIDE_EFFECT_ENTRIES = ["./ai-sdk/register"];

/** Exports that take no argument a caller could get wrong, or answer for any value by design. */
const NO_INPUT_TO_CHECK: Record<string, string> = {
  optionsObject: "an argument check: takes any value and throws InvalidValueError by design",
  requireMethod: "an argument check: takes any value and throws InvalidValueError by design",
  requireObject: "an argument check: takes any value and throws InvalidValueError by design",
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
  EventExecution: "no constructor arguments; addError records whatever was thrown",
  Hook: "no constructor arguments; dispatch (runBefore …) checks each hook's phases where they are called",
  MemoryToolCache: "no constructor arguments; keys come from cacheKey, any value may be cached",
  callError: "describes any thrown value, Error or not",
  autoFormatTypeScript: "a post-hook that never throws: odd arguments or results mean nothing to format",
  forceFlushGlobalProvider: "no arguments",
  startEnvironmentExport: "no arguments",
};


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
    const codeEntries = Object.keys(manifest.exports).filter((entry) => entry !== "./package.json" && !SIDE_EFFECT_ENTRIES.includes(entry));
    expect(codeEntries.sort()).toEqual(Object.keys(ENTRY_POINTS).sort());
  });

  it.each(exported)("$entry $name has a bad-input case above, or a reason it needs none", ({ name }) => {
    expect(cases.has(name) || name in NO_INPUT_TO_CHECK, `add a bad-input case for ${name}, or say in NO_INPUT_TO_CHECK why it needs none`).toBe(true);
  });

  it("lists no stale exemption", () => {
    const names = new Set(exported.map(({ name }) => name));
    expect(Object.keys(NO_INPUT_TO_CHECK).filter((name) => !names.has(name))).toEqual([]);
    expect(Object.keys(NO_INPUT_TO_CHECK).filter((name) => cases.has(name))).toEqual([]);
  });
});
