const JS_FILE = /\.[cm]?jsx?$/;

/** Whether a path is a JavaScript file (its declarations and types come from JSDoc and CommonJS forms, which syntax here does not follow). */
export function isJavaScriptPath(path: string): boolean {
  return JS_FILE.test(path);
}
