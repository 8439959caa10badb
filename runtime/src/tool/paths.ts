import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** `~` and `~/…` become the home directory (Python's `expanduser`); other paths are unchanged. */
export function expandUser(raw: string): string {
  if (raw === "~") return homedir();
  if (raw.startsWith("~/") || raw.startsWith(`~${path.sep}`)) return path.join(homedir(), raw.slice(2));
  return raw;
}

/**
 * An absolute path with every symlink in its existing part resolved; the missing tail is kept as
 * written (Python's `Path.resolve(strict=False)`). A symlink that points outside a root is
 * therefore seen where it really leads.
 */
export function resolveLoose(target: string, hops = 0): string {
  const absolute = path.resolve(target);
  let existing = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      // A dangling symlink: resolve where it points, so the caller sees where a write would land.
      const link = danglingLinkTarget(existing);
      if (link !== null && hops < MAX_LINK_HOPS) return resolveLoose(path.join(link, ...tail.reverse()), hops + 1);
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      tail.push(path.basename(existing));
      existing = parent;
    }
  }
}

const MAX_LINK_HOPS = 40;

function danglingLinkTarget(candidate: string): string | null {
  try {
    if (!lstatSync(candidate).isSymbolicLink()) return null;
    return path.resolve(path.dirname(candidate), readlinkSync(candidate));
  } catch {
    return null;
  }
}

/** The first component of `absolute` that does not exist but is a symlink (a dangling link), or null. */
export function danglingLinkIn(absolute: string): string | null {
  let current = path.resolve(absolute);
  const chain: string[] = [];
  for (;;) {
    chain.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const candidate of chain.reverse()) {
    try {
      realpathSync(candidate);
    } catch {
      return danglingLinkTarget(candidate) === null ? null : candidate;
    }
  }
  return null;
}

/** True when `child` is `root` or inside it, compared by whole path components (`/a/b-evil` is not inside `/a/b`). */
export function isWithin(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  if (relative === "") return true;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
