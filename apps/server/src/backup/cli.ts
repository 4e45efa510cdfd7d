// The operator's commands `npm run backup` and `npm run restore` (this file with "backup" or
// "restore" first): the same environment as the server (DATA_DIR, DATABASE_URL,
// LEDGER_SIGNER_KEY...), a few options, a short human summary or --json, and exit codes a script
// can act on: 0 done (and verified, with --verify), 1 restored but the verification found a
// problem, 2 refused or failed (the message says why and what to do; a refused restore changed
// nothing).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BackupError, checkBackup, createBackup, restoreBackup, type BackupResult, type RestoreResult } from './backup.ts';
import type { Manifest } from './archive.ts';

const BACKUP_USAGE = `Usage: npm run backup -- [options]

Backs up the console's database and its ledger keys (DATA_DIR/ledger) into a new folder
<out>/iotc-backup-<mode>-<time>/. PGlite (no DATABASE_URL): stop the server first.
PostgreSQL (DATABASE_URL): runs while the server runs (pg_dump).

Options:
  --out DIR            where the backup folder is made (default: ./backups)
  --data-dir DIR       the server's DATA_DIR (default: $DATA_DIR, else ./data)
  --database-url URL   PostgreSQL (default: $DATABASE_URL); else PGlite under DATA_DIR
  --pg-bin DIR         folder of pg_dump / pg_restore (default: found on PATH)
  --json               print the result as JSON
  -h, --help           this text

The backup holds the ledger's signer key: keep it private and copy it off this machine.
Exit code: 0 done, 2 refused or failed.
`;

const RESTORE_USAGE = `Usage: npm run restore -- BACKUP_FOLDER [options]

Restores a backup made by \`npm run backup\` into DATA_DIR (PGlite) or the database of
DATABASE_URL (PostgreSQL), with its ledger keys into DATA_DIR/ledger. Stop the server first.
The target must be empty: a new DATA_DIR, or a new PostgreSQL database.

Options:
  --force              restore over an existing database / other ledger keys; what is there is
                       first kept in DATA_DIR/before-restore-<time>/ (moved, or pg_dump'ed)
  --verify             afterwards open the database (applying newer migrations), compare the
                       row counts with the backup's and verify the ledger
  --check              only check the backup folder (manifest, sizes, checksums); change nothing
  --data-dir DIR       the server's DATA_DIR (default: $DATA_DIR, else ./data)
  --database-url URL   PostgreSQL (default: $DATABASE_URL); else PGlite under DATA_DIR
  --pg-bin DIR         folder of pg_dump / pg_restore (default: found on PATH)
  --json               print the result as JSON
  -h, --help           this text

Exit code: 0 done (and verified), 1 restored but the verification failed, 2 refused or failed
(nothing was changed when the restore refused).
`;

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

function describe(m: Manifest): string[] {
  const rows = Object.values(m.database.rows).reduce((a, b) => a + b, 0);
  const dump = m.files.filter((f) => f.path === m.database.file || f.path.startsWith(`${m.database.file}/`)).reduce((n, f) => n + f.bytes, 0);
  return [
    `  mode:     ${m.mode === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}, ${m.database.engine}; app ${m.app.version}; made ${m.createdAt}`,
    `  database: ${mb(dump)} dump, ${m.database.migrations.count} migrations (last ${m.database.migrations.last ?? 'none'}), ${rows} rows in ${Object.keys(m.database.rows).length} tables`,
    `  ledger:   ${m.ledger.leaves} leaves, ${m.ledger.checkpoints} checkpoints (latest ${m.ledger.latestCheckpointSize ?? 'none'}); signer key ${
      m.ledger.signerKey === 'file' ? 'included' : m.ledger.signerKey === 'environment' ? 'in LEDGER_SIGNER_KEY, not included' : 'not found'
    }`,
    `            ${m.ledger.verifierKey ?? '(no verifier key)'}`,
  ];
}

function formatBackup(r: BackupResult): string {
  return [
    `Backup written to ${r.path} (${r.seconds.toFixed(1)} s)`,
    ...describe(r.manifest),
    ...r.warnings.map((w) => `WARNING  ${w}`),
    'It holds the ledger signer key: keep it private, and copy it off this machine.',
    '',
  ].join('\n');
}

function formatRestore(r: RestoreResult): string {
  const out = [`Restored into ${r.target} (${r.seconds.toFixed(1)} s)`, ...describe(r.manifest)];
  if (r.keptAside) out.push(`  what was there before is kept in ${r.keptAside}`);
  for (const w of r.warnings) out.push(`WARNING  ${w}`);
  if (r.verification) {
    out.push('');
    for (const c of r.verification.checks) out.push(`${c.ok ? 'OK    ' : 'FAILED'} ${c.name}: ${c.detail}`);
    const failures = r.verification.ledger?.checks.flatMap((c) => c.failures) ?? [];
    for (const f of failures.slice(0, 20)) out.push(`         ${f.message}`);
    out.push(r.verification.ok ? 'RESULT: OK' : 'RESULT: FAILED (the data was restored, but does not match the backup: see above)');
  } else {
    out.push('Start the server (it applies any newer migrations), or run with --verify to check the restore first.');
  }
  return `${out.join('\n')}\n`;
}

function fail(e: unknown, json: boolean | undefined): number {
  if (!(e instanceof BackupError)) throw e;
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: e.message }, null, 2)}\n`);
  else process.stderr.write(`ERROR  ${e.message}\n`);
  return 2;
}

const common = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'pg-bin': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The bin: `backup ...` or `restore ...`; prints and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'backup' && command !== 'restore') {
    process.stderr.write(`The first argument is backup or restore.\n\n${BACKUP_USAGE}\n${RESTORE_USAGE}`);
    return 2;
  }
  const usage = command === 'backup' ? BACKUP_USAGE : RESTORE_USAGE;
  let parsed;
  try {
    parsed =
      command === 'backup'
        ? parseArgs({ args, options: { ...common, out: { type: 'string' } }, strict: true, allowPositionals: false })
        : parseArgs({ args, options: { ...common, force: { type: 'boolean' }, verify: { type: 'boolean' }, check: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v['help']) {
    process.stdout.write(usage);
    return 0;
  }
  const target = { dataDir: v['data-dir'] as string | undefined, databaseUrl: v['database-url'] as string | undefined, pgBin: v['pg-bin'] as string | undefined };
  const json = v['json'] as boolean | undefined;

  if (command === 'backup') {
    try {
      const r = await createBackup({ ...target, outDir: v['out'] as string | undefined });
      process.stdout.write(json ? `${JSON.stringify({ ok: true, ...r }, null, 2)}\n` : formatBackup(r));
      return 0;
    } catch (e) {
      return fail(e, json);
    }
  }

  if (parsed.positionals.length !== 1) {
    process.stderr.write(`Give one backup folder.\n\n${usage}`);
    return 2;
  }
  const backupDir = resolve(parsed.positionals[0]!);
  try {
    if (v['check']) {
      const manifest = await checkBackup(backupDir);
      process.stdout.write(json ? `${JSON.stringify({ ok: true, manifest }, null, 2)}\n` : [`Backup ${backupDir} is complete (every file matches its checksum)`, ...describe(manifest), ''].join('\n'));
      return 0;
    }
    const r = await restoreBackup({ ...target, backupDir, force: v['force'] === true, verify: v['verify'] === true });
    const ok = !r.verification || r.verification.ok;
    process.stdout.write(json ? `${JSON.stringify({ ok, ...r }, null, 2)}\n` : formatRestore(r));
    return ok ? 0 : 1;
  } catch (e) {
    return fail(e, json);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
