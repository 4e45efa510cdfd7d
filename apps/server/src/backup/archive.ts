// The backup's on-disk form: one folder holding the database dump, the ledger's key files and
// a manifest.json that says what the folder is (mode, versions, row counts) and lists every
// other file with its size and SHA-256, so that a damaged, truncated or partial copy is refused
// before anything is restored. A folder rather than one tar file: no archive library is a
// declared dependency here, and what is inside is compressed already (PGlite's files one by one
// with gzip, pg_dump's custom format); `tar cf` of the folder is fine for shipping it elsewhere.
//
// The folder is built under a ".partial" name and renamed when complete, so a backup cut short
// (disk full, killed) never looks like a finished one.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Bumped when a later version writes something this one cannot read. */
export const FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
/** The database dump in each mode: PGlite's data directory (each file gzipped), pg_dump's file. */
export const DUMP_FILE = { pglite: 'pglite', postgres: 'database.pgdump' } as const;
/** The ledger files kept (from DATA_DIR/ledger), all optional. */
export const LEDGER_FILES = ['signer.key', 'verifier.key', 'trusted-heads.txt'] as const;

const fileEntry = z.object({ path: z.string().min(1), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const manifestSchema = z.object({
  format: z.literal('iot-cloud-console-backup'),
  formatVersion: z.number().int().min(1),
  mode: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  app: z.object({ version: z.string() }),
  database: z.object({
    /** e.g. "PostgreSQL 17.5 (PGlite 0.5.16)" or "PostgreSQL 15.20". */
    engine: z.string(),
    /** The dump: a file, or a folder whose files are listed under it. */
    file: z.string(),
    /** PGlite: every folder of the data directory (empty ones too: PostgreSQL needs them). */
    directories: z.array(z.string()).optional(),
    migrations: z.object({ count: z.number().int().min(0), last: z.string().nullable(), lastAt: z.number().nullable() }),
    /** Exact row counts of every table of the public schema, in the dump's snapshot. */
    rows: z.record(z.string(), z.number().int().min(0)),
  }),
  ledger: z.object({
    /** The public key of the signer in use at backup time (null: no key found). */
    verifierKey: z.string().nullable(),
    /** Where the signer key was: kept in this backup (file), or only in LEDGER_SIGNER_KEY (environment). */
    signerKey: z.enum(['file', 'environment', 'none']),
    leaves: z.number().int().min(0),
    checkpoints: z.number().int().min(0),
    latestCheckpointSize: z.number().int().min(0).nullable(),
  }),
  files: z.array(fileEntry),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type FileEntry = z.infer<typeof fileEntry>;

/** A refusal or failure the operator must act on (exit code 2); the message says what to do. */
export class BackupError extends Error {}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function describeFile(dir: string, path: string): Promise<FileEntry> {
  const full = join(dir, path);
  return { path, bytes: statSync(full).size, sha256: await sha256File(full) };
}

/** The manifest of a backup folder, checked for shape and format version only. */
export function readManifest(dir: string): Manifest {
  if (!existsSync(dir)) throw new BackupError(`no backup at ${dir}: the folder does not exist`);
  if (!statSync(dir).isDirectory()) {
    throw new BackupError(`${dir} is a file, not a backup folder (a backup is the folder \`npm run backup\` made; unpack it first if it was shipped as a tar file)`);
  }
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) {
    throw new BackupError(
      dir.endsWith('.partial')
        ? `${dir} is an unfinished backup (it was cut short): use a complete one`
        : `${dir} is not a backup: it has no ${MANIFEST} (incomplete copy, or not a folder made by \`npm run backup\`)`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BackupError(`${file} is damaged: not JSON (${(e as Error).message})`);
  }
  const version = (raw as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new BackupError(`the backup at ${dir} has format ${version}, made by a newer version of the console; this one reads format ${FORMAT_VERSION}: restore it with that newer version`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BackupError(`${file} is not a valid backup manifest (${issue.path.join('.') || 'manifest'}: ${issue.message})`);
  }
  return parsed.data;
}

/** Every listed file is there with its size and SHA-256; the dump is among them. */
export async function checkFiles(dir: string, manifest: Manifest): Promise<void> {
  const dump = manifest.database.file;
  if (!manifest.files.some((f) => f.path === dump || f.path.startsWith(`${dump}/`))) {
    throw new BackupError(`the manifest of ${dir} does not list its database dump ${manifest.database.file}`);
  }
  for (const f of [...manifest.files, ...(manifest.database.directories ?? []).map((path) => ({ path }))]) {
    if (f.path.split('/').includes('..') || f.path.startsWith('/')) throw new BackupError(`the manifest of ${dir} names a file outside the backup (${f.path})`);
  }
  for (const f of manifest.files) {
    const full = join(dir, f.path);
    if (!existsSync(full)) throw new BackupError(`the backup at ${dir} is incomplete: ${f.path} is missing`);
    const bytes = statSync(full).size;
    if (bytes !== f.bytes) {
      throw new BackupError(`the backup at ${dir} is damaged or incomplete: ${f.path} has ${bytes} bytes, the manifest says ${f.bytes} (truncated copy?)`);
    }
    if ((await sha256File(full)) !== f.sha256) {
      throw new BackupError(`the backup at ${dir} is damaged: ${f.path} does not match its SHA-256 in the manifest (corrupted copy?)`);
    }
  }
}
