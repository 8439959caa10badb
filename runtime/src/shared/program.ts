import { basename } from "node:path";

/**
 * The running program as people name it: its script's file name, else the process title. The
 * live stream's hello and the `session.start` signal carry it, so a recording says which program
 * made it.
 */
export function programName(): string {
  const script = process.argv[1];
  return (script ? basename(script) : process.title).slice(0, 512);
}
