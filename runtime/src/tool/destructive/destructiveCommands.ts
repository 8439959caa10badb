import { simpleCommands, type SimpleCommand } from "./commandLine.js";

/**
 * What `guardDestructive` refuses, judged on the parsed command rather than its spelling:
 *
 * - `rm` with both a recursive (`-r`, `-R`, `--recursive`) and a force option (`-f`, `--force`), in
 *   any cluster or order, before or after the operands (`rm -fr x`, `rm -r -f x`, `rm x -rf`);
 * - `git push` that overwrites remote history: `--force`, `-f` (alone or in a cluster),
 *   `--force-with-lease[=…]` (safer against a concurrent push, still a rewrite), `--mirror`, or a
 *   `+refspec`;
 * - `git reset --hard`;
 * - `git clean` with `-f`/`--force` and without `-n`/`--dry-run`;
 * - `git` global options before the subcommand are skipped (`-C dir`, `-c k=v`, `--git-dir=…`);
 * - `dd` with an `if=` or `of=` operand, in any position; `mkfs`, `mkfs.*`, `mke2fs`;
 * - a redirection into a disk device (`> /dev/sda`, `/dev/nvme0n1`, `/dev/mmcblk0` …);
 * - the SQL statements `DROP TABLE`, `DROP DATABASE`, `TRUNCATE TABLE` anywhere in the text (a
 *   guard cannot tell which program reads SQL, so quoted SQL counts too).
 *
 * Wrappers are looked through (`sudo`, `doas`, `env`, `nice`, `nohup`, `time`, `timeout`,
 * `command`, `exec`, `xargs`, `busybox`, variable assignments), as are `sh -c '…'` (any shell, `su -c`),
 * `eval …`, `find … -exec … ;` and command substitutions. Not seen: what a script, an alias, a
 * function, a variable (`$CMD`), a decoded string (`base64 -d | sh`) or another program's own
 * command language runs.
 */
export function destructiveReason(command: string): string | null {
  if (SQL.test(command)) return "a destructive SQL statement";
  return firstReason(simpleCommands(command), 0);
}

const SQL = /\b(?:drop\s+table|drop\s+database|truncate\s+table)\b/i;
const DISK_DEVICE = /^\/dev\/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d)/;
const MAX_DEPTH = 8;

function firstReason(commands: readonly SimpleCommand[], depth: number): string | null {
  for (const command of commands) {
    for (const { operator, target } of command.redirects) {
      if (operator.includes(">") && DISK_DEVICE.test(target)) return `a write to the disk device ${target}`;
    }
    const reason = reasonOfWords(command.words, depth);
    if (reason !== null) return reason;
  }
  return null;
}

/** Options of a wrapper that take the next word as their value. */
const WRAPPERS: Record<string, { valued: readonly string[]; positional?: number }> = {
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt"] },
  doas: { valued: ["-u", "-C"] },
  env: { valued: ["-u", "-C", "--unset", "--chdir"] },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], positional: 1 },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  xargs: { valued: ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"] },
  busybox: { valued: [] },
};
const KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "time"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "su"]);

function reasonOfWords(words: readonly string[], depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  let start = 0;
  while (start < words.length && (KEYWORDS.has(words[start]!) || ASSIGNMENT.test(words[start]!))) start++;
  if (start >= words.length) return null;
  const program = programName(words[start]!);
  const args = words.slice(start + 1);
  const wrapper = WRAPPERS[program];
  if (wrapper !== undefined) return reasonOfWords(afterWrapperOptions(args, wrapper), depth + 1);
  if (SHELLS.has(program)) return shellScript(args, depth);
  if (program === "eval") return firstReason(simpleCommands(args.join(" ")), depth + 1);
  if (program === "find") return findExec(args, depth);
  if (program === "rm") return removesRecursively(args);
  if (program === "git") return gitReason(args);
  if (program === "dd" && args.some((arg) => /^(?:if|of)=/.test(arg))) return "dd reading or writing raw data";
  if (/^mkfs(?:\..+)?$|^mke2fs$/.test(program)) return "making a file system";
  return null;
}

/** `/usr/bin/RM` → `rm`: the base name, lower-cased (file systems that ignore case run it too). */
function programName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1).toLowerCase();
}

function afterWrapperOptions(args: readonly string[], wrapper: { valued: readonly string[]; positional?: number }): string[] {
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === "--") return args.slice(i + 1 + (wrapper.positional ?? 0));
    if (ASSIGNMENT.test(arg)) i++;
    else if (!arg.startsWith("-") || arg === "-") break;
    else i += wrapper.valued.includes(arg) ? 2 : 1;
  }
  return args.slice(i + (wrapper.positional ?? 0));
}

/** `sh -c 'script'`, `bash -lc "…"`: the script is read as a command line of its own. */
function shellScript(args: readonly string[], depth: number): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("-") || arg.startsWith("--")) continue;
    if (arg.slice(1).includes("c")) return args[i + 1] === undefined ? null : firstReason(simpleCommands(args[i + 1]!), depth + 1);
  }
  return null;
}

/** `find … -exec cmd … ;` (also `-execdir`, `-ok`, `-okdir`, ended by `;` or `+`). */
function findExec(args: readonly string[], depth: number): string | null {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
    let end = i + 1;
    while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
    const reason = reasonOfWords(args.slice(i + 1, end), depth + 1);
    if (reason !== null) return reason;
    i = end;
  }
  return null;
}

/** The options of a command, up to `--`: long ones as written, short clusters split into letters. */
function optionsOf(args: readonly string[]): { long: string[]; short: Set<string>; operands: string[] } {
  const long: string[] = [];
  const short = new Set<string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) long.push(arg.split("=", 1)[0]!);
    else if (arg.startsWith("-") && arg.length > 1) for (const letter of arg.slice(1)) short.add(letter);
    else operands.push(arg);
  }
  return { long, short, operands };
}

function removesRecursively(args: readonly string[]): string | null {
  const { long, short } = optionsOf(args);
  // Either case: `RM -RF` is refused as the shout it is, not passed on a technicality.
  const recursive = short.has("r") || short.has("R") || long.includes("--recursive");
  const force = short.has("f") || short.has("F") || long.includes("--force");
  return recursive && force ? "rm -rf" : null;
}

/** git's global options that take the next word as their value. */
const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);

function gitReason(args: readonly string[]): string | null {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += GIT_VALUED.has(args[i]!) ? 2 : 1;
  const subcommand = args[i];
  const rest = args.slice(i + 1);
  const { long, short, operands } = optionsOf(rest);
  switch (subcommand) {
    case "push": {
      const forced =
        short.has("f") ||
        long.some((option) => option === "--force" || option === "--force-with-lease" || option === "--mirror") ||
        operands.some((operand) => operand.startsWith("+"));
      return forced ? "a forced git push" : null;
    }
    case "reset":
      return long.includes("--hard") ? "git reset --hard" : null;
    case "clean": {
      const forced = short.has("f") || long.includes("--force");
      const dryRun = short.has("n") || long.includes("--dry-run");
      return forced && !dryRun ? "git clean --force" : null;
    }
    default:
      return null;
  }
}
