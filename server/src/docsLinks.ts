import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Where diagnostics link when no local docs folder is found (the published docs). */
const PUBLISHED_DOCS = "https://github.com/hooklens/hooklens/blob/main/docs/rules/";

/**
 * Resolves the docs page of a diagnostic code. The extension and the CLI ship `docs/rules/`
 * next to `dist/`, so the link opens the page that matches the installed version, offline.
 */
export function docsUrlResolver(startDir: string): (code: string) => string {
  let base = PUBLISHED_DOCS;
  for (let dir = startDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "docs", "rules");
    if (existsSync(candidate)) {
      base = pathToFileURL(candidate).href + "/";
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return (code) => `${base}${code}.md`;
}
