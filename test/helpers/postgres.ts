// A throw-away PostgreSQL server for tests: a fresh cluster in a temp folder, on a free local
// port, trust login for the `hooklens` superuser, and one password-protected role to test
// refused logins. Start one per test file (beforeAll); `dispose()` stops it and removes it.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The superuser initdb creates; it logs in without a password. */
export const SUPERUSER = "hooklens";
/** A role that must give its password (scram-sha-256), for the refused-login tests. */
export const PASSWORD_USER = { user: "hooklens_pw", password: "Corr3ct-Horse-Battery" };

export interface PostgresServer {
  port: number;
  /** A connection URL for `database` (default `postgres`), as `user` with an optional password. */
  url(database?: string, login?: { user: string; password?: string }): string;
  /** Runs SQL as the superuser in `database` and returns the rows. */
  sql(text: string, database?: string): Promise<Array<Record<string, unknown>>>;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server at once, as a crash or a network outage would; the data stays. */
  stop(): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops the server and removes its folder. */
  dispose(): void;
}

const INSTALL_HINT =
  "PostgreSQL server binaries (initdb, pg_ctl) were not found in /usr/lib/postgresql/*/bin or `pg_config --bindir`. " +
  "These tests run a real server: install it with `bash scripts/install-system-deps.sh` (Debian/Ubuntu: `apt-get install postgresql`).";

/** The folder holding initdb and pg_ctl, or an error saying how to install them. */
export function postgresBinDir(): string {
  const candidates: string[] = [];
  if (existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    // No pg_config on PATH: the Debian location above is all there is.
  }
  const found = candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
  if (!found) throw new Error(INSTALL_HINT);
  return found;
}

/** initdb and the server refuse to run as root: then they run as the `postgres` user Debian's package creates. */
function runner(): { run(bin: string, args: string[]): string; own(path: string): void } {
  const root = process.getuid?.() === 0;
  const ids = root ? execFileSync("id", ["postgres"], { encoding: "utf8" }) : "";
  const uid = Number(/uid=(\d+)/.exec(ids)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(ids)?.[1]);
  if (root && !(uid > 0)) throw new Error(`running as root needs a "postgres" user to run the server as. ${INSTALL_HINT}`);
  return {
    run: (bin, args) =>
      root
        ? execFileSync("runuser", ["-u", "postgres", "--", bin, ...args], { encoding: "utf8", stdio: "pipe" })
        : execFileSync(bin, args, { encoding: "utf8", stdio: "pipe" }),
    own: (path) => {
      if (root) chownSync(path, uid, gid);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function failure(what: string, error: unknown, log: string): Error {
  const stderr = (error as { stderr?: string }).stderr ?? "";
  const tail = existsSync(log) ? readFileSync(log, "utf8").split("\n").slice(-20).join("\n") : "";
  return new Error(`${what} failed: ${error instanceof Error ? error.message : String(error)}\n${stderr}\n${tail}`);
}

/** Creates and starts a cluster; about a second. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const { run, own } = runner();
  const dir = mkdtempSync(join(tmpdir(), "hooklens-pg-"));
  own(dir);
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const port = await freePort();
  const pgCtl = (args: string[]): void => void run(join(bin, "pg_ctl"), ["-D", data, ...args]);
  // fsync off: a crash of the server process keeps what it committed (the OS still has it), and tests run faster.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = (): void => {
    try {
      pgCtl(["-o", options, "-l", log, "-w", "-t", "30", "start"]);
    } catch (error) {
      throw failure("pg_ctl start", error, log);
    }
  };
  try {
    run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", SUPERUSER, "-N"]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw failure("initdb", error, log);
  }
  // First match wins in pg_hba.conf: the password role is checked before the trust lines.
  const hba = join(data, "pg_hba.conf");
  writeFileSync(hba, `host all ${PASSWORD_USER.user} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, "utf8")}`);
  start();
  const dispose = (): void => {
    try {
      pgCtl(["-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  const url: PostgresServer["url"] = (database = "postgres", login = { user: SUPERUSER }) => {
    const password = login.password === undefined ? "" : `:${encodeURIComponent(login.password)}`;
    return `postgres://${encodeURIComponent(login.user)}${password}@127.0.0.1:${port}/${database}`;
  };
  const sql: PostgresServer["sql"] = async (text, database) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query(text)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  try {
    await sql(`CREATE ROLE ${PASSWORD_USER.user} LOGIN PASSWORD '${PASSWORD_USER.password}'`);
    await sql(`GRANT ALL ON SCHEMA public TO ${PASSWORD_USER.user}`);
  } catch (error) {
    dispose();
    throw error;
  }

  let running = true;
  return {
    port,
    url,
    sql,
    async createDatabase(name) {
      await sql(`CREATE DATABASE ${name}`);
      await sql(`GRANT ALL ON SCHEMA public TO ${PASSWORD_USER.user}`, name);
      return url(name);
    },
    stop() {
      if (running) pgCtl(["-m", "immediate", "-w", "stop"]);
      running = false;
    },
    start() {
      if (!running) start();
      running = true;
    },
    dispose() {
      if (running) dispose();
      else rmSync(dir, { recursive: true, force: true });
      running = false;
    },
  };
}
