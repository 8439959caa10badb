/**
 * How Node runs the language server, in one place for every launcher (the VS Code client, the
 * server's own bin, the bench): a heap limit keeps a large workspace from growing the server
 * without bound; the analyzer drops what it no longer needs well below it.
 */
export const SERVER_HEAP_LIMIT_MB = 320;
export const SERVER_NODE_FLAGS: readonly string[] = [`--max-old-space-size=${SERVER_HEAP_LIMIT_MB}`];
