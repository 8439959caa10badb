import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HookLensError,
  NewerSchemaError,
  NotASignalDatabaseError,
  POSTGRES_SIGNAL_SCHEMA_VERSION,
  PostgresSignalStore,
  SignalStoreAuthError,
  SignalStoreError,
  SignalStoreMissingError,
  SignalStoreUnreachableError,
  type PostgresConnectionConfig,
} from "@hooklens/runtime";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { PASSWORD_USER, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.dispose());

const WRONG_PASSWORD = "Wr0ng-Pa55word-Zebra";

async function openError(connection: string | PostgresConnectionConfig, readOnly = false): Promise<Error> {
  const error = await PostgresSignalStore.open(connection, { readOnly }).then(
    async (store) => {
      await store.close();
      return null;
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error("opening did not fail");
  return error;
}

/** The error as a user could ever see it: message, stack, cause and every property. */
function everythingShown(error: Error): string {
  return `${String(error)}\n${error.stack ?? ""}\n${inspect(error, { depth: 5, showHidden: true })}`;
}

function expectNoSecret(error: Error, ...secrets: string[]): void {
  const shown = everythingShown(error);
  for (const secret of secrets) {
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain(encodeURIComponent(secret));
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("PostgresSignalStore.open refuses what it cannot use, naming the database but never the password", () => {
  it("accepts the right password (so the refusals below are about the password)", async () => {
    const store = await PostgresSignalStore.open(server.url("postgres", PASSWORD_USER));
    expect(store.target).toBe(`postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/postgres`);
    await store.close();
  });

  it("a wrong password, given in the URL or as a config object", async () => {
    const target = `postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/postgres`;
    const fromUrl = await openError(server.url("postgres", { user: PASSWORD_USER.user, password: WRONG_PASSWORD }));
    const fromConfig = await openError({ host: "127.0.0.1", port: server.port, user: PASSWORD_USER.user, password: WRONG_PASSWORD, database: "postgres" });
    for (const error of [fromUrl, fromConfig]) {
      expect(error).toBeInstanceOf(SignalStoreAuthError);
      expect(error).toBeInstanceOf(HookLensError);
      expect((error as SignalStoreError).path).toBe(target);
      expect(error.message).toContain(target);
      expect(error.message).toContain("password authentication failed");
      expectNoSecret(error, WRONG_PASSWORD, PASSWORD_USER.password);
    }
  });

  it("a port where no server listens", async () => {
    const port = await unusedPort();
    const error = await openError(`postgresql://someone:${WRONG_PASSWORD}@127.0.0.1:${port}/runs`);
    expect(error).toBeInstanceOf(SignalStoreUnreachableError);
    expect(error.message).toContain(`postgres://someone@127.0.0.1:${port}/runs`);
    expect(error.message).toContain("ECONNREFUSED");
    expectNoSecret(error, WRONG_PASSWORD);
  });

  it("a database that does not exist", async () => {
    const url = server.url("no_such_db", { user: PASSWORD_USER.user, password: PASSWORD_USER.password });
    for (const readOnly of [false, true]) {
      const error = await openError(url, readOnly);
      expect(error).toBeInstanceOf(SignalStoreMissingError);
      expect(error.message).toContain(`postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/no_such_db`);
      expect(error.message).toContain('database "no_such_db" does not exist');
      expectNoSecret(error, PASSWORD_USER.password);
    }
  });

  it("a table written by a newer schema version", async () => {
    await server.createDatabase("newer");
    const secretUrl = server.url("newer", PASSWORD_USER);
    await (await PostgresSignalStore.open(secretUrl)).close();
    await server.sql(`UPDATE hooklens_session_signals_meta SET schema_version = ${POSTGRES_SIGNAL_SCHEMA_VERSION + 1}`, "newer");
    for (const readOnly of [false, true]) {
      const error = await openError(secretUrl, readOnly);
      expect(error).toBeInstanceOf(NewerSchemaError);
      const target = `postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/newer`;
      expect(error).toMatchObject({ path: target, foundVersion: POSTGRES_SIGNAL_SCHEMA_VERSION + 1, supportedVersion: POSTGRES_SIGNAL_SCHEMA_VERSION });
      expect(error.message).toContain(`${target} uses signal schema version ${POSTGRES_SIGNAL_SCHEMA_VERSION + 1}`);
      expectNoSecret(error, PASSWORD_USER.password);
    }
  });

  it("a same-named table that HookLens did not create", async () => {
    const url = await server.createDatabase("foreign_table");
    await server.sql("CREATE TABLE hooklens_session_signals (id integer)", "foreign_table");
    const error = await openError(url);
    expect(error).toBeInstanceOf(NotASignalDatabaseError);
    expect(error.message).toContain("public.hooklens_session_signals");
    expect(error.message).toContain("that HookLens did not create");
  });

  it("an install without the optional pg package: a clear instruction, from the real dynamic import", async () => {
    const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
    const url = server.url("postgres", PASSWORD_USER);
    const run = (extra: string[]): Promise<{ opened: boolean; name?: string; message?: string }> =>
      new Promise((resolve, reject) =>
        execFile(process.execPath, [...extra, bundledFixture(`${fixtures}openPostgres.mts`), url], { cwd: REPO_ROOT }, (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as { opened: boolean }),
        ),
      );
    const [withPg, withoutPg] = await Promise.all([run([]), run(["--import", `${fixtures}withoutPg.mjs`])]);
    expect(withPg).toEqual({ opened: true });
    expect(withoutPg.opened).toBe(false);
    expect(withoutPg.name).toBe("SignalStoreDriverMissingError");
    expect(withoutPg.message).toContain("install pg to use PostgreSQL persistence");
    expect(withoutPg.message).toContain(`postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/postgres`);
    expect(withoutPg.message).not.toContain(PASSWORD_USER.password);
  });
});
