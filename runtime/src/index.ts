/** @hooklens/runtime: every hook scope of an LLM agent with its exact semantics. */
export * from "./shared/index.js";
export * from "./session/index.js";
export * from "./service/index.js";
export * from "./tool/index.js";
export * from "./middleware/index.js";
export * from "./store/index.js";
export * from "./live/index.js";
export * from "./ai-sdk/index.js";
