// Tree heads as C2SP tlog-checkpoint bodies inside C2SP signed notes with Ed25519 signatures,
// the format of Go's checksum database (golang.org/x/mod/sumdb/note) and Sigstore, so existing
// verifiers read our checkpoints and our verifier reads theirs.
//
// Checkpoint body (c2sp.org/tlog-checkpoint):
//   <origin>\n<tree size, decimal, no leading zeros>\n<base64 root hash>\n[<extension line>\n...]
// Signed note (c2sp.org/signed-note):
//   <body>\n— <key name> <base64(4-byte key ID || 64-byte Ed25519 signature)>\n
//   The em dash is U+2014, followed by one space. The signature covers the body including its
//   final newline, not the blank line.
// Key ID = SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key)[:4], big-endian.
// Verifier key: <key name>+<8 hex digits key ID>+<base64(0x01 || public key)>.
// Signer key (Go's format): PRIVATE+KEY+<key name>+<key ID hex>+<base64(0x01 || 32-byte seed)>.
//
// Ed25519 runs through Web Crypto (globalThis.crypto.subtle), present in Node 20 and current
// browsers, so the same code signs on the server and verifies in the browser.
import { sha256 } from '@noble/hashes/sha2';
import { bytesEqual, concatBytes, fromBase64, fromHex, toArrayBufferView, toBase64, toHex, utf8 } from './bytes.ts';
import { HASH_SIZE } from './merkle.ts';

export class NoteError extends Error {
  override name = 'NoteError';
}

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Uint8Array;
  /** Opaque extension lines after the root hash; our log writes none. */
  extensions?: string[];
}

const ALG_ED25519 = 0x01;
const SIGNATURE_DASH = '\u2014 ';
/** Go's note.Open refuses more; the spec asks for at least 16. */
const MAX_SIGNATURES = 100;

// Control characters other than newline, and lone surrogates (not valid UTF-8 once encoded).
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u0009\u000b-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isValidKeyName(name: string): boolean {
  // Non-empty, no Unicode spaces, no '+' (signed-note "Format").
  return name.length > 0 && !/[\s+]/u.test(name) && !FORBIDDEN_CHARS.test(name);
}

export function formatCheckpoint(c: Checkpoint): string {
  if (c.origin.length === 0 || c.origin.includes('\n') || FORBIDDEN_CHARS.test(c.origin)) {
    throw new NoteError('the origin must be one non-empty line');
  }
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new NoteError('the tree size must be a non-negative safe integer');
  if (c.rootHash.length !== HASH_SIZE) throw new NoteError(`the root hash has ${HASH_SIZE} bytes`);
  const extensions = c.extensions ?? [];
  for (const line of extensions) {
    if (line.length === 0 || line.includes('\n') || FORBIDDEN_CHARS.test(line)) {
      throw new NoteError('extension lines must be non-empty single lines');
    }
  }
  return [c.origin, String(c.size), toBase64(c.rootHash), ...extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint body (the note text, without signatures). Throws NoteError. */
export function parseCheckpoint(body: string): Checkpoint {
  if (FORBIDDEN_CHARS.test(body)) throw new NoteError('checkpoint contains control characters');
  if (!body.endsWith('\n')) throw new NoteError('checkpoint must end with a newline');
  const lines = body.slice(0, -1).split('\n');
  if (lines.length < 3) throw new NoteError('checkpoint needs origin, size and root hash lines');
  if (lines.some((l) => l.length === 0)) throw new NoteError('checkpoint lines must be non-empty');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) throw new NoteError('tree size must be decimal without leading zeros');
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw new NoteError('tree size is too large');
  let rootHash: Uint8Array;
  try {
    rootHash = fromBase64(rootText);
  } catch {
    throw new NoteError('root hash is not canonical base64');
  }
  if (rootHash.length !== HASH_SIZE) throw new NoteError(`root hash must have ${HASH_SIZE} bytes`);
  return extensions.length > 0 ? { origin, size, rootHash, extensions } : { origin, size, rootHash };
}

/** SHA-256(name || 0x0A || 0x01 || publicKey)[:4]. */
export function noteKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  return sha256(concatBytes(utf8(name), new Uint8Array([0x0a, ALG_ED25519]), publicKey)).slice(0, 4);
}

function requireKey(name: string, key: Uint8Array, what: string): void {
  if (!isValidKeyName(name)) throw new NoteError('invalid key name');
  if (key.length !== 32) throw new NoteError(`an Ed25519 ${what} has 32 bytes`);
}

export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  requireKey(name, publicKey, 'public key');
  return `${name}+${toHex(noteKeyId(name, publicKey))}+${toBase64(concatBytes(new Uint8Array([ALG_ED25519]), publicKey))}`;
}

export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
}

/** Parses `<name>+<hex key ID>+<base64(0x01 || key)>`, checking the key ID against the key. */
export function parseVerifierKey(vkey: string): VerifierKey {
  // The name has no '+'; the base64 part may.
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) throw new NoteError('malformed verifier key');
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('malformed verifier key');
  let material: Uint8Array;
  try {
    material = fromBase64(vkey.slice(second + 1));
  } catch {
    throw new NoteError('malformed verifier key');
  }
  if (material.length !== 33 || material[0] !== ALG_ED25519) throw new NoteError('not an Ed25519 verifier key');
  const publicKey = material.slice(1);
  const keyId = fromHex(idHex);
  if (!bytesEqual(keyId, noteKeyId(name, publicKey))) throw new NoteError('verifier key ID does not match the key');
  return { name, keyId, publicKey };
}

export function formatSignerKey(name: string, seed: Uint8Array, publicKey: Uint8Array): string {
  requireKey(name, seed, 'private key seed');
  return `PRIVATE+KEY+${name}+${toHex(noteKeyId(name, publicKey))}+${toBase64(concatBytes(new Uint8Array([ALG_ED25519]), seed))}`;
}

/** Parses Go's signer key text; the key ID is checked against the derived public key. */
export async function parseSignerKey(skey: string): Promise<{ name: string; seed: Uint8Array; publicKey: Uint8Array }> {
  const m = /^PRIVATE\+KEY\+([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(skey);
  if (!m) throw new NoteError('malformed signer key');
  const [, name, idHex, b64] = m as unknown as [string, string, string, string];
  let material: Uint8Array;
  try {
    material = fromBase64(b64);
  } catch {
    throw new NoteError('malformed signer key');
  }
  if (material.length !== 33 || material[0] !== ALG_ED25519) throw new NoteError('not an Ed25519 signer key');
  const seed = material.slice(1);
  requireKey(name, seed, 'private key seed');
  const { publicKey } = await importSeed(seed);
  if (!bytesEqual(fromHex(idHex), noteKeyId(name, publicKey))) throw new NoteError('signer key ID does not match the key');
  return { name, seed, publicKey };
}

// RFC 8410 PKCS #8 wrapping of a 32-byte Ed25519 seed; Web Crypto imports private keys only so.
const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new NoteError('Web Crypto is not available (a secure context is required in browsers)');
  return s;
}

async function importSeed(seed: Uint8Array): Promise<{ privateKey: CryptoKey; publicKey: Uint8Array }> {
  const privateKey = await subtle().importKey(
    'pkcs8',
    toArrayBufferView(concatBytes(PKCS8_ED25519_PREFIX, seed)),
    { name: 'Ed25519' },
    true,
    ['sign'],
  );
  const jwk = await subtle().exportKey('jwk', privateKey);
  if (typeof jwk.x !== 'string') throw new NoteError('could not derive the public key');
  const publicKey = fromBase64Url(jwk.x);
  return { privateKey, publicKey };
}

function fromBase64Url(text: string): Uint8Array {
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(std + '='.repeat((4 - (std.length % 4)) % 4));
}

/** A fresh Ed25519 key pair as Go-compatible signer and verifier key texts. */
export async function generateNoteKeys(name: string): Promise<{ signerKey: string; verifierKey: string }> {
  if (!isValidKeyName(name)) throw new NoteError('invalid key name');
  const pair = (await subtle().generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await subtle().exportKey('jwk', pair.privateKey);
  if (typeof jwk.d !== 'string' || typeof jwk.x !== 'string') throw new NoteError('could not export the new key');
  const seed = fromBase64Url(jwk.d);
  const publicKey = fromBase64Url(jwk.x);
  return { signerKey: formatSignerKey(name, seed, publicKey), verifierKey: formatVerifierKey(name, publicKey) };
}

function requireNoteText(body: string): void {
  if (body.length === 0 || !body.endsWith('\n')) throw new NoteError('note text must end with a newline');
  if (FORBIDDEN_CHARS.test(body)) throw new NoteError('note text contains control characters');
}

/**
 * Signs `body` (e.g. a formatted checkpoint) with the Ed25519 key whose 32-byte seed is given,
 * returning the signed note.
 */
export async function signNote(body: string, name: string, seed: Uint8Array): Promise<string> {
  requireNoteText(body);
  requireKey(name, seed, 'private key seed');
  const { privateKey, publicKey } = await importSeed(seed);
  const signature = new Uint8Array(await subtle().sign({ name: 'Ed25519' }, privateKey, toArrayBufferView(utf8(body))));
  const blob = toBase64(concatBytes(noteKeyId(name, publicKey), signature));
  return `${body}\n${SIGNATURE_DASH}${name} ${blob}\n`;
}

export interface SignatureLine {
  name: string;
  keyId: Uint8Array;
  signature: Uint8Array;
}

/** Splits a signed note into its text and signature lines (signed-note "Format"). */
export function splitNote(note: string): { body: string; signatures: SignatureLine[] } {
  if (FORBIDDEN_CHARS.test(note)) throw new NoteError('note contains control characters');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('note has no signature block');
  const body = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (!block.endsWith('\n')) throw new NoteError('note must end with a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw new NoteError('too many signatures');
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIGNATURE_DASH)) throw new NoteError('malformed signature line');
    const rest = line.slice(SIGNATURE_DASH.length);
    const space = rest.indexOf(' ');
    if (space < 0) throw new NoteError('malformed signature line');
    const name = rest.slice(0, space);
    if (!isValidKeyName(name)) throw new NoteError('malformed signature line');
    let blob: Uint8Array;
    try {
      blob = fromBase64(rest.slice(space + 1));
    } catch {
      throw new NoteError('malformed signature line');
    }
    if (blob.length < 5) throw new NoteError('malformed signature line');
    return { name, keyId: blob.slice(0, 4), signature: blob.slice(4) };
  });
  return { body, signatures };
}

/**
 * Verifies a signed note against one verifier key and returns its text. Signatures from other
 * keys are ignored; a signature from this key that does not verify rejects the note (as Go's
 * note.Open does); no signature from this key rejects it too. Throws NoteError.
 */
export async function openNote(note: string, verifierKey: string | VerifierKey): Promise<string> {
  const vkey = typeof verifierKey === 'string' ? parseVerifierKey(verifierKey) : verifierKey;
  const { body, signatures } = splitNote(note);
  let key: CryptoKey;
  try {
    key = await subtle().importKey('raw', toArrayBufferView(vkey.publicKey), { name: 'Ed25519' }, false, ['verify']);
  } catch {
    throw new NoteError('the verifier key is not a usable Ed25519 public key');
  }
  const message = toArrayBufferView(utf8(body));
  let verified = false;
  for (const sig of signatures) {
    if (sig.name !== vkey.name || !bytesEqual(sig.keyId, vkey.keyId)) continue;
    const ok =
      sig.signature.length === 64 &&
      (await subtle().verify({ name: 'Ed25519' }, key, toArrayBufferView(sig.signature), message));
    if (!ok) throw new NoteError('invalid signature');
    verified = true;
  }
  if (!verified) throw new NoteError('no signature from the verifier key');
  return body;
}

/** True when the note carries a valid signature from the key (see openNote). */
export async function verifyNote(note: string, verifierKey: string | VerifierKey): Promise<boolean> {
  try {
    await openNote(note, verifierKey);
    return true;
  } catch (e) {
    if (e instanceof NoteError) return false;
    throw e;
  }
}

/**
 * Verifies a signed checkpoint and parses it; when `origin` is given the checkpoint must be for
 * that log. Throws NoteError.
 */
export async function openCheckpoint(note: string, verifierKey: string | VerifierKey, origin?: string): Promise<Checkpoint> {
  const checkpoint = parseCheckpoint(await openNote(note, verifierKey));
  if (origin !== undefined && checkpoint.origin !== origin) throw new NoteError('checkpoint is for another log');
  return checkpoint;
}
