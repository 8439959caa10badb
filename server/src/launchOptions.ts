/**
 * How Node runs the language server, in one place for every launcher (the VS Code client, the
 * server's own bin, the bench): a heap limit keeps a large workspace from growing the server
 * without bound; the analyzer drops what it no longer needs well below it.
 */
export const SERVER_HEAP_LIMIT_MB = 320;
/**
 * How far the old generation may grow past what the last full GC kept before the next one. Under a
 * small heap limit V8 lets it grow only ~1.3×, and every analysis leaves its program and checker
 * behind as garbage of the old generation, so a full GC (~100 ms CPU with its helper threads) came
 * every ~20 analyses; 2× spaces them ~3× further apart. The heap limit still bounds the total.
 */
export const SERVER_HEAP_GROWING_PERCENT = 100;
export const SERVER_NODE_FLAGS: readonly string[] = [
  `--max-old-space-size=${SERVER_HEAP_LIMIT_MB}`,
  `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`,
];
