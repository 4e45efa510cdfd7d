// The ledger's Ed25519 tree-head signer: the key given in the environment (LEDGER_SIGNER_KEY,
// the way several nodes on one PostgreSQL database share it), else the file
// DATA_DIR/ledger/signer.key, made at first start (mode 0600) beside the published
// verifier.key. Without a data directory (API tests on an in-memory database) a key is made
// for the life of the process, like the database itself.
import { mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { formatVerifierKey, generateNoteKeys, parseSignerKey } from '@iotc/shared/ledger/checkpoint';

export interface Signer {
  /** The key name on the signature lines. */
  name: string;
  seed: Uint8Array;
  publicKey: Uint8Array;
  verifierKey: string;
  /** The log's name on the first line of its checkpoints. */
  origin: string;
}

/** `iot-cloud-console/<host name>`, the host name reduced to what a key name may hold. */
export function defaultOrigin(): string {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 100);
  return `iot-cloud-console/${host || 'local'}`;
}

function readKeyFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export async function loadSigner(opts: { dataDir?: string; signerKey?: string; origin?: string }): Promise<Signer> {
  let text = opts.signerKey;
  const dir = opts.dataDir ? join(opts.dataDir, 'ledger') : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  if (!text && dir) {
    const path = join(dir, 'signer.key');
    text = readKeyFile(path);
    if (!text) {
      const made = await generateNoteKeys(opts.origin ?? defaultOrigin());
      try {
        // 'wx': of two processes starting on one directory, the second reads the first's key.
        writeFileSync(path, `${made.signerKey}\n`, { mode: 0o600, flag: 'wx' });
        text = made.signerKey;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        text = readKeyFile(path);
      }
    }
    chmodSync(path, 0o600);
  }
  if (!text) text = (await generateNoteKeys(opts.origin ?? 'iot-cloud-console/local')).signerKey;
  const key = await parseSignerKey(text);
  const verifierKey = formatVerifierKey(key.name, key.publicKey);
  if (dir) {
    const path = join(dir, 'verifier.key');
    if (readKeyFile(path) !== verifierKey) writeFileSync(path, `${verifierKey}\n`, { mode: 0o644 });
  }
  // The origin stays the key's name unless set: a host name that changes (a new container) must
  // not rename the log.
  return { name: key.name, seed: key.seed, publicKey: key.publicKey, verifierKey, origin: opts.origin ?? key.name };
}
