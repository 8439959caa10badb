/**
 * How the server bundle (server-main.cjs) begins: scripts/build.mjs builds it as one function
 * expression, the wrapper Node puts around a CommonJS module, which serverLoader.ts compiles and
 * calls as Node would call a module's. The bundle is not a module to `require`.
 */
export const SERVER_BUNDLE_WRAPPER = "(function (exports, require, module, __filename, __dirname) {";
export const SERVER_BUNDLE_WRAPPER_END = "\n})";
