// The migrated schema, made once per test run and copied by every test file's database instead of
// migrating each afresh (vitest's globalSetup for the server and browser projects): on PGlite, a
// dump of a migrated data directory that each file's PGlite starts from (PGlite's own initdb and
// the migrations cost several seconds a file on a loaded two-core machine); on PostgreSQL
// (DATABASE_URL), a migrated database that each file's database is created from as a template.
// Migrations still run on every database opened, and find nothing left to do.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dump of a migrated PGlite data directory. */
    pgliteTemplate?: string;
    /** The name of a migrated PostgreSQL database on DATABASE_URL's server. */
    pgTemplate?: string;
  }
}

export interface Templates {
  pgliteTemplate?: string;
  pgTemplate?: string;
  drop(): Promise<void>;
}

async function adminQuery(baseUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** Makes the template of this run: the PostgreSQL database when `databaseUrl` is given, else the PGlite dump. */
export async function makeTemplates(databaseUrl?: string): Promise<Templates> {
  const dir = mkdtempSync(join(tmpdir(), 'iotc-template-'));
  const file = join(dir, 'pglite.tar');
  let pgTemplate: string | undefined;
  if (!databaseUrl) {
    const pglite = await openDatabase({ kind: 'pglite' });
    const client = (pglite.db as unknown as { $client: PGlite }).$client;
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    await pglite.close();
  } else {
    pgTemplate = `iotc_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(databaseUrl, `CREATE DATABASE ${pgTemplate}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${pgTemplate}`;
    const db = await openDatabase({ kind: 'postgres', url: url.toString() });
    await db.close();
  }
  return {
    pgliteTemplate: databaseUrl ? undefined : file,
    pgTemplate,
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
      if (pgTemplate && databaseUrl) await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
    },
  };
}

let loaded: Blob | undefined;
/** This run's PGlite dump, read once per test process; none outside a run made with the global setup. */
export function pgliteTemplate(path: string | undefined): Blob | undefined {
  if (!path) return undefined;
  loaded ??= new Blob([readFileSync(path)]);
  return loaded;
}
