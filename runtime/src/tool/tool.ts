import { requireObject, requireSchema } from "../shared/arguments.js";
import { noteDefinitionSite } from "../shared/definitionSite.js";
import { InvalidValueError } from "../shared/errors.js";
import { NotSupportedError } from "./errors.js";
import type { ToolArgs } from "./objects.js";
import { buildToolSchema, parametersOf, requiredOf, type JsonSchemaObject, type RequestOptions, type ToolSchema } from "./toolSchema.js";
import { newId } from "../shared/ids.js";

// Method signatures are checked bivariantly, so a callable typed `(args: { path: string }) => …` fits.

/** The function a Tool wraps. It receives the argument object (Python's `**kwargs`) and may be async. */
export type ToolCallable = { call(args: ToolArgs): unknown }["call"];
/** Runs before the callable; its return value always becomes the new argument object. */
export type Preprocessor = { call(args: ToolArgs, kwargs: Record<string, unknown>): unknown }["call"];
/** Runs after the callable; its return value always becomes the response. */
export type Postprocessor = { call(response: unknown, kwargs: Record<string, unknown>): unknown }["call"];

/** How an MCP-style tool reaches its server: anything that can call a tool by name. */
export interface McpClient {
  callTool(name: string, args: ToolArgs): unknown;
}

/** The description of one remote tool: its client, and what the server says about it. */
export interface McpToolConfig {
  client: McpClient;
  description?: string;
  inputSchema?: JsonSchemaObject;
}

export interface ToolOptions {
  /** The function to run. Exactly one of `funcCallable` and `mcpConfig` is required. */
  funcCallable?: ToolCallable | null;
  /** `{ toolName: config }` with exactly one entry: a tool served elsewhere (MCP). */
  mcpConfig?: Record<string, McpToolConfig> | null;
  /** The tool's name; defaults to the callable's `name`. */
  name?: string;
  description?: string;
  /** A zod object schema that validates (and shapes) the arguments when a call is built. */
  requestOptions?: RequestOptions | null;
  /** An explicit function description; generated from name, description and `requestOptions` when absent. */
  toolSchema?: ToolSchema | null;
  preprocessor?: Preprocessor | null;
  preprocessorKwargs?: Record<string, unknown>;
  postprocessor?: Postprocessor | null;
  postprocessorKwargs?: Record<string, unknown>;
  /** When true the argument names must equal the schema's required names exactly. */
  strictFuncCall?: boolean;
  id?: string;
}

/**
 * A callable plus what a model needs to call it: a name, a JSON schema, optional request
 * validation, and the per-tool `preprocessor`/`postprocessor` that may replace the arguments and
 * the result. There is no error-processor slot: nothing runs when the call fails.
 */
export class Tool {
  readonly id: string;
  readonly createdAt: number;
  funcCallable: ToolCallable;
  readonly mcpConfig: Readonly<Record<string, McpToolConfig>> | null;
  toolSchema: ToolSchema;
  readonly requestOptions: RequestOptions | null;
  preprocessor: Preprocessor | null;
  preprocessorKwargs: Record<string, unknown>;
  postprocessor: Postprocessor | null;
  postprocessorKwargs: Record<string, unknown>;
  strictFuncCall: boolean;

  constructor(options: ToolOptions) {
    requireObject(options, "new Tool(options)", "options");
    if (options.requestOptions !== undefined && options.requestOptions !== null) {
      requireSchema(options.requestOptions, "new Tool(options)", "options.requestOptions (a zod object schema such as z.object({ … }))");
    }
    this.id = options.id ?? newId();
    // Where the program defined it: the call signals of this tool point there (read once, here).
    noteDefinitionSite(this);
    this.createdAt = Date.now() / 1000;
    this.requestOptions = options.requestOptions ?? null;
    this.preprocessor = options.preprocessor ?? null;
    this.preprocessorKwargs = options.preprocessorKwargs ?? {};
    this.postprocessor = options.postprocessor ?? null;
    this.postprocessorKwargs = options.postprocessorKwargs ?? {};
    this.strictFuncCall = options.strictFuncCall ?? false;
    const { callable, name, mcp, remoteSchema } = resolveCallable(options);
    this.funcCallable = callable;
    this.mcpConfig = mcp;
    this.toolSchema =
      options.toolSchema ??
      buildToolSchema(
        name,
        options.description ?? remoteSchema?.description,
        remoteSchema?.inputSchema ?? parametersOf(this.requestOptions),
      );
  }

  /** The name a model calls this tool by. */
  get function(): string {
    return this.toolSchema.function.name;
  }

  /** The parameter names the schema marks required (what `strictFuncCall` compares against). */
  get requiredFields(): Set<string> {
    return requiredOf(this.toolSchema);
  }

  /**
   * The names a non-strict call must supply: the request model's required fields. A tool without
   * a request model (an MCP tool, or a callable taking a free-form object) requires none.
   */
  get minimumAcceptableFields(): Set<string> {
    return this.requestOptions ? requiredOf(this.toolSchema) : new Set();
  }

  /** The serialisable part of the tool; callables are left out. */
  toDict(): Record<string, unknown> {
    return {
      id: this.id,
      createdAt: this.createdAt,
      function: this.function,
      toolSchema: this.toolSchema,
      strictFuncCall: this.strictFuncCall,
      preprocessorKwargs: this.preprocessorKwargs,
      postprocessorKwargs: this.postprocessorKwargs,
    };
  }

  /** Tools hold code, so they cannot be rebuilt from data (as built). */
  static fromDict(_data: Record<string, unknown>): never {
    throw new NotSupportedError("`Tool.fromDict` is not supported.");
  }
}

function resolveCallable(options: ToolOptions): {
  callable: ToolCallable;
  name: string;
  mcp: Readonly<Record<string, McpToolConfig>> | null;
  remoteSchema: McpToolConfig | null;
} {
  const { funcCallable, mcpConfig } = options;
  if (funcCallable && mcpConfig) throw new InvalidValueError("Cannot specify both funcCallable and mcpConfig.");
  if (mcpConfig) {
    const names = Object.keys(mcpConfig);
    if (names.length !== 1) throw new InvalidValueError(`mcpConfig must have exactly one entry (tool name → config), got ${names.length}.`);
    const toolName = names[0]!;
    const config = mcpConfig[toolName]!;
    if (!config || typeof config.client?.callTool !== "function") {
      throw new InvalidValueError(`mcpConfig.${toolName} needs a client with callTool(name, args).`);
    }
    const callRemote = (args: ToolArgs): unknown => config.client.callTool(toolName, args);
    return { callable: callRemote, name: options.name ?? toolName, mcp: Object.freeze({ ...mcpConfig }), remoteSchema: config };
  }
  if (typeof funcCallable !== "function") throw new InvalidValueError("A Tool needs a funcCallable function or an mcpConfig.");
  const name = options.name ?? funcCallable.name;
  if (typeof name !== "string" || name === "") {
    throw new InvalidValueError("A Tool needs a name: pass `name`, or use a named function.");
  }
  return { callable: funcCallable, name, mcp: null, remoteSchema: null };
}
