/** Files larger than this are not analysed unless `--max-file-size` says otherwise (generated bundles, data). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kb: 1024, m: 1024 * 1024, mb: 1024 * 1024 };

/** `--max-file-size`: bytes, or a number with KB or MB (`512KB`, `5MB`); undefined when it is not one. */
export function parseFileSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}
