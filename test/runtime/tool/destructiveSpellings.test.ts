// Issue 33, item 2: guardDestructive refuses every spelling of what it lists, and lets the
// look-alikes through. The first block holds the 11 spellings the probe saw allowed.
import { describe, expect, it } from "vitest";
import { guardDestructive, PermissionError } from "@hooklens/runtime";

const refused = (command: string) => guardDestructive("bash", "", { command });

describe("guardDestructive judges meaning, not spelling", () => {
  it.each([
    // Allowed on the old main.
    "git push origin main --force",
    "git push -f",
    "git push -fu origin main",
    "rm -fr build",
    "rm -r -f x",
    "rm x -Rf",
    "rm --recursive --force x",
    "git -C . push --force",
    "git -c user.name=x --git-dir=.git push origin +main",
    "git push --force-with-lease origin main",
    "git push --force-with-lease=main:abc123",
    "git push --mirror backup",
    "git clean -df",
    "git clean -f",
    "git clean --force -x",
    "git --no-pager reset --hard",
    "dd bs=1M if=/dev/zero of=x",
    "dd of=/dev/sda bs=4M",
    // Split commands, wrappers, nesting.
    "ls && rm -rf /",
    "true; rm -rf ~",
    "false || git push -f",
    "cat x | sudo rm -rf /var",
    "sudo -u root rm -rf /",
    "env FOO=1 rm -rf x",
    "FOO=1 nice -n 5 rm -fr x",
    "timeout 5 git reset --hard",
    "/bin/rm -rf x",
    "(cd x && rm -rf y)",
    "echo $(rm -rf /)",
    'echo "`rm -rf /`"',
    "sh -c 'rm -rf /'",
    "bash -lc \"git push --force\"",
    "eval rm -rf x",
    "find . -name '*.o' -exec rm -rf {} \\;",
    "printf x | xargs rm -rf",
    "mkfs.ext4 /dev/sda1",
    "echo x > /dev/nvme0n1",
    "cat img 2>/dev/null >/dev/sdb",
    "psql -c 'DROP   TABLE users'",
  ])("refuses %j", async (command) => {
    await expect(refused(command)).rejects.toThrow(PermissionError);
  });

  it.each([
    "git push",
    "git push origin main",
    "git push -u origin main",
    "git push --no-verify origin feature",
    "rm file",
    "rm -r build",
    "rm -f file",
    "git clean -n",
    "git clean -fdn",
    "git clean --dry-run -fd",
    "git reset --soft HEAD~1",
    "git -C force push",
    'echo "rm -rf /"',
    "echo 'git push --force'",
    "grep -r -f patterns.txt .",
    "ls -rf",
    "dd --help",
    "cat /dev/sda1.txt",
    "echo x > sda.txt",
    "npm run format-table",
    "git log --format='%H' -- rm",
  ])("lets %j through", async (command) => {
    await expect(refused(command)).resolves.toBeUndefined();
  });
});
