import type { ToolArgs } from "./objects.js";

/**
 * A Tool pre-hook: gets the canonical tool name, the call's `action` argument (or "") and the
 * current arguments. Returning an object replaces the arguments; throwing stops the chain and
 * the callable never runs. May be async.
 */
export type ToolPreHook = (toolName: string, action: string, args: ToolArgs) => unknown;

/**
 * A Tool post-hook: gets the tool name, an empty action, an EMPTY argument object and the
 * result. It only runs when the result is a plain object; returning an object replaces it.
 */
export type ToolPostHook = (toolName: string, action: string, args: ToolArgs, result: ToolArgs) => unknown;

/** An error hook. It is stored and never called: Tools have no error-processor slot. */
export type ToolErrorHook = (...args: never[]) => unknown;

/** Any hook a spec or toolkit can hold. */
export type ToolHook = ToolPreHook | ToolPostHook | ToolErrorHook;
