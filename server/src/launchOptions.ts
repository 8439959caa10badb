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
/**
 * How many bytes of bytecode V8's optimizing compiler (TurboFan) may inline into one optimized
 * function, in all (V8's default is 920). Much of the server's CPU is TurboFan compiling on V8's
 * helper threads, which counts like any other: the first analysis parses and binds a few hundred
 * declaration files, so TypeScript's scanner, parser, binder and checker all turn hot at once,
 * and each optimized function took in up to 920 bytes of the functions it calls. With a smaller
 * budget each compile is a smaller graph: the bench measured a cold start ~0.15–0.3 s cheaper,
 * and edits no dearer (lower: their CPU includes the compiles too).
 */
export const SERVER_INLINING_BUDGET = 150;
export const SERVER_NODE_FLAGS: readonly string[] = [
  `--max-old-space-size=${SERVER_HEAP_LIMIT_MB}`,
  `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`,
  `--max-inlined-bytecode-size-cumulative=${SERVER_INLINING_BUDGET}`,
];
