import { constants } from "node:fs";
import { stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { makeDirectoriesConfined, openConfined, openForWrite } from "./confinedFile.js";
import { defineCodingTool, FILE_TOOL_DEADLINE_MS, type CodingToolDefinition } from "./definition.js";
import { failure, type Workspace } from "./workspace.js";

const MAX_FILE_BYTES = 5 * 1024 * 1024;

export const EditorRequest = z.object({
  action: z.enum(["write", "edit"]).describe('"write" a whole file, or "edit" by replacing text'),
  filePath: z.string().min(1).describe("Path relative to the workspace root"),
  content: z.string().optional().describe("The full file content (write)"),
  oldString: z.string().optional().describe("The exact text to replace (edit); must occur once unless replaceAll"),
  newString: z.string().optional().describe("The replacement text (edit)"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence (edit)"),
});

/** Writes files and makes exact-text edits inside the workspace. */
export function editorTool(workspace: Workspace): CodingToolDefinition {
  return defineCodingTool("Write a file, or replace an exact piece of text in it, inside the workspace.", EditorRequest, async (args) => {
    const target = workspace.resolve(args.filePath);
    const relative = workspace.relative(target);
    if (args.action === "write") {
      if (args.content === undefined) return failure("write needs content");
      const existed = await exists(target);
      await makeDirectoriesConfined(workspace, path.dirname(target));
      await writeWhole(await openForWrite(workspace, target, true), args.content);
      return { success: true, filePath: relative, bytes: Buffer.byteLength(args.content), created: !existed };
    }
    if (!args.oldString) return failure("edit needs a non-empty oldString");
    if (args.newString === undefined) return failure("edit needs newString");
    const handle = await openConfined(workspace, target, constants.O_RDWR);
    let text: string;
    try {
      const info = await handle.stat();
      if (info.size > MAX_FILE_BYTES) return failure(`File too large to edit (${info.size} bytes): ${args.filePath}`);
      text = await handle.readFile("utf8");
    } catch (error) {
      await handle.close();
      throw error;
    }
    const count = text.split(args.oldString).length - 1;
    if (count === 0 || (count > 1 && !args.replaceAll)) {
      await handle.close();
      return count === 0
        ? failure(`oldString not found in ${relative}`)
        : failure(`oldString occurs ${count} times in ${relative}; pass replaceAll or a longer oldString`);
    }
    const updated = args.replaceAll ? text.split(args.oldString).join(args.newString) : text.replace(args.oldString, () => args.newString!);
    await writeWhole(handle, updated);
    return { success: true, filePath: relative, replacements: args.replaceAll ? count : 1 };
  }, FILE_TOOL_DEADLINE_MS);
}

/** Replaces the whole content through the checked descriptor, then closes it. */
async function writeWhole(handle: FileHandle, content: string): Promise<void> {
  try {
    await handle.truncate(0);
    await handle.write(content, 0, "utf8");
  } finally {
    await handle.close();
  }
}

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}
