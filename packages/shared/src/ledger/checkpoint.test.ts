// Checkpoints and signed notes: byte-for-byte agreement with Go's sumdb/note example (so Go
// verifiers accept our notes), the C2SP checkpoint example, and refusal of anything altered.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toBase64 } from './bytes.ts';
import {
  formatCheckpoint,
  formatVerifierKey,
  generateNoteKeys,
  NoteError,
  noteKeyId,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  splitNote,
  verifyNote,
  type Checkpoint,
} from './checkpoint.ts';
import { EMPTY_ROOT, leafHash } from './merkle.ts';

// The example of golang.org/x/mod/sumdb/note (package documentation of note.go and note_test.go):
// a signer key, its verifier key, a text and the note Go's note.Sign makes of it.
const GO_SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const GO_VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

// The example of c2sp.org/tlog-checkpoint.
const C2SP_BODY = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

const ORIGIN = 'iotc.example/ledger';

describe('Go sumdb/note compatibility', () => {
  it('derives the key ID and verifier key Go derives', async () => {
    const { name, seed, publicKey } = await parseSignerKey(GO_SIGNER);
    expect(name).toBe('PeterNeumann');
    expect(seed).toHaveLength(32);
    expect(formatVerifierKey(name, publicKey)).toBe(GO_VERIFIER);
    expect(Array.from(noteKeyId(name, publicKey))).toEqual([0xc7, 0x4f, 0x20, 0xa3]);
    expect(parseVerifierKey(GO_VERIFIER)).toEqual({ name, keyId: noteKeyId(name, publicKey), publicKey });
  });

  it('signs exactly as Go does (Ed25519 is deterministic) and verifies Go’s note', async () => {
    const { name, seed } = await parseSignerKey(GO_SIGNER);
    expect(await signNote(GO_TEXT, name, seed)).toBe(GO_NOTE);
    expect(await openNote(GO_NOTE, GO_VERIFIER)).toBe(GO_TEXT);
    await expect(openNote(GO_NOTE.replace('cryptography', 'cryptographY'), GO_VERIFIER)).rejects.toThrow(NoteError);
  });
});

describe('checkpoint body', () => {
  it('parses the C2SP example and formats it back', () => {
    const c = parseCheckpoint(C2SP_BODY);
    expect(c.origin).toBe('example.com/behind-the-sofa');
    expect(c.size).toBe(20852163);
    expect(toBase64(c.rootHash)).toBe('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=');
    expect(formatCheckpoint(c)).toBe(C2SP_BODY);
  });

  it('round-trips any checkpoint', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9./-]{1,40}$/),
        fc.nat({ max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(fc.stringMatching(/^[ -~]{1,30}$/), { maxLength: 2 }),
        (origin, size, rootHash, extensions) => {
          const c: Checkpoint = extensions.length > 0 ? { origin, size, rootHash, extensions } : { origin, size, rootHash };
          const text = formatCheckpoint(c);
          expect(text).toBe(`${origin}\n${size}\n${toBase64(rootHash)}\n${extensions.map((e) => `${e}\n`).join('')}`);
          expect(parseCheckpoint(text)).toEqual(c);
        },
      ),
    );
  });

  const root = toBase64(EMPTY_ROOT);
  it.each([
    ['empty text', ''],
    ['two lines', `o\n1\n`],
    ['no final newline', `o\n1\n${root}`],
    ['empty origin', `\n1\n${root}\n`],
    ['leading zero', `o\n01\n${root}\n`],
    ['negative size', `o\n-1\n${root}\n`],
    ['exponent size', `o\n1e3\n${root}\n`],
    ['spaced size', `o\n 1\n${root}\n`],
    ['size beyond 2^53', `o\n9007199254740993\n${root}\n`],
    ['unpadded root', `o\n1\n${root.replace(/=+$/, '')}\n`],
    ['url-safe root', `o\n1\n${toBase64(new Uint8Array(32).fill(0xfb))}\n`.replace(/\+/g, '-').replace(/\//g, '_')],
    ['short root', `o\n1\n${toBase64(new Uint8Array(31))}\n`],
    ['long root', `o\n1\n${toBase64(new Uint8Array(33))}\n`],
    ['empty extension line', `o\n1\n${root}\n\n`],
    ['carriage return', `o\r\n1\n${root}\n`],
    ['tab', `o\t\n1\n${root}\n`],
    ['a signed note instead of a body', `o\n1\n${root}\n\n— o AAAAAAA=\n`],
  ])('refuses %s', (_what, text) => {
    expect(() => parseCheckpoint(text)).toThrow(NoteError);
  });

  it('refuses to format what it could not parse back', () => {
    expect(() => formatCheckpoint({ origin: '', size: 1, rootHash: EMPTY_ROOT })).toThrow(NoteError);
    expect(() => formatCheckpoint({ origin: 'a\nb', size: 1, rootHash: EMPTY_ROOT })).toThrow(NoteError);
    expect(() => formatCheckpoint({ origin: 'o', size: -1, rootHash: EMPTY_ROOT })).toThrow(NoteError);
    expect(() => formatCheckpoint({ origin: 'o', size: 1.5, rootHash: EMPTY_ROOT })).toThrow(NoteError);
    expect(() => formatCheckpoint({ origin: 'o', size: 1, rootHash: new Uint8Array(31) })).toThrow(NoteError);
    expect(() => formatCheckpoint({ origin: 'o', size: 1, rootHash: EMPTY_ROOT, extensions: [''] })).toThrow(NoteError);
  });
});

// Fresh keys per run, made with Web Crypto as the server will make them.
const keys = await generateNoteKeys(ORIGIN);
const signer = await parseSignerKey(keys.signerKey);
const other = await generateNoteKeys(ORIGIN);
const checkpoint: Checkpoint = { origin: ORIGIN, size: 12345, rootHash: leafHash(new Uint8Array([1, 2, 3])) };
const body = formatCheckpoint(checkpoint);
const note = await signNote(body, ORIGIN, signer.seed);

describe('signed checkpoints', () => {

  it('has the signed-note layout', () => {
    const { body: text, signatures } = splitNote(note);
    expect(text).toBe(body);
    expect(note.startsWith(`${body}\n\u2014 ${ORIGIN} `)).toBe(true);
    expect(note.endsWith('\n')).toBe(true);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]!.keyId).toEqual(parseVerifierKey(keys.verifierKey).keyId);
    expect(signatures[0]!.signature).toHaveLength(64);
  });

  it('verifies with its key and parses', async () => {
    expect(await verifyNote(note, keys.verifierKey)).toBe(true);
    expect(await openCheckpoint(note, keys.verifierKey, ORIGIN)).toEqual(checkpoint);
  });

  it('fails for a changed size, root, signature or key name, and for another key', async () => {
    const changedSize = note.replace('\n12345\n', '\n12346\n');
    const changedRoot = note.replace(toBase64(checkpoint.rootHash), toBase64(EMPTY_ROOT));
    const sigLine = note.slice(note.lastIndexOf('\u2014'));
    const blob = sigLine.slice(sigLine.lastIndexOf(' ') + 1, -1);
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
    bytes[10]! ^= 1;
    const changedSig = note.replace(blob, toBase64(bytes));
    const renamed = note.replace(`\u2014 ${ORIGIN} `, `\u2014 ${ORIGIN}x `);
    for (const bad of [changedSize, changedRoot, changedSig, renamed]) {
      expect(bad).not.toBe(note);
      expect(await verifyNote(bad, keys.verifierKey)).toBe(false);
    }
    expect(await verifyNote(note, other.verifierKey)).toBe(false);
    expect(await verifyNote(note, GO_VERIFIER)).toBe(false);
    await expect(openCheckpoint(note, keys.verifierKey, 'another.example/log')).rejects.toThrow(NoteError);
  });

  it('ignores signatures of unknown keys but rejects a bad one of its own key', async () => {
    const otherSigner = await parseSignerKey(other.signerKey);
    const cosigned = await signNote(body, 'witness.example/w1', otherSigner.seed);
    const both = note + cosigned.slice(cosigned.lastIndexOf('\u2014'));
    expect(await verifyNote(both, keys.verifierKey)).toBe(true);
    expect(await verifyNote(both, formatVerifierKey('witness.example/w1', otherSigner.publicKey))).toBe(true);
    // Same name and key ID, wrong signature: the whole note is refused.
    const forged = await signNote(body, ORIGIN, otherSigner.seed);
    const forgedLine = forged.slice(forged.lastIndexOf('\u2014'));
    const forgedBlob = Uint8Array.from(atob(forgedLine.slice(forgedLine.lastIndexOf(' ') + 1, -1)), (c) => c.charCodeAt(0));
    forgedBlob.set(parseVerifierKey(keys.verifierKey).keyId, 0);
    const withForgery = `${note}\u2014 ${ORIGIN} ${toBase64(forgedBlob)}\n`;
    expect(await verifyNote(withForgery, keys.verifierKey)).toBe(false);
  });

  it.each([
    ['no blank line', (n: string) => n.replace('\n\n', '\n')],
    ['no final newline', (n: string) => n.slice(0, -1)],
    ['hyphen instead of em dash', (n: string) => n.replace('\u2014', '-')],
    ['no signature', (n: string) => n.slice(0, n.lastIndexOf('\u2014'))],
    ['control character', (n: string) => n.replace(ORIGIN, `${ORIGIN}\u0007`)],
    ['non-canonical base64', (n: string) => n.replace(/=\n$/, '\n')],
  ])('refuses a malformed note: %s', async (_what, mangle) => {
    expect(await verifyNote(mangle(note), keys.verifierKey)).toBe(false);
  });

  it('refuses malformed keys and texts', async () => {
    const { name, publicKey } = parseVerifierKey(keys.verifierKey);
    const id = keys.verifierKey.split('+')[1]!;
    expect(() => parseVerifierKey(keys.verifierKey.replace(`+${id}+`, '+00000000+'))).toThrow(NoteError);
    expect(() => parseVerifierKey(`${name}+${id}+${toBase64(Uint8Array.of(2, ...publicKey))}`)).toThrow(NoteError);
    expect(() => parseVerifierKey(`${name}+${id}`)).toThrow(NoteError);
    expect(() => parseVerifierKey(`has space+${id}+${toBase64(Uint8Array.of(1, ...publicKey))}`)).toThrow(NoteError);
    await expect(parseSignerKey(keys.signerKey.replace(`+${id}+`, '+00000000+'))).rejects.toThrow(NoteError);
    await expect(signNote('no newline', ORIGIN, signer.seed)).rejects.toThrow(NoteError);
    await expect(signNote(body, 'bad+name', signer.seed)).rejects.toThrow(NoteError);
    await expect(signNote(body, ORIGIN, new Uint8Array(31))).rejects.toThrow(NoteError);
    expect(await verifyNote(note, 'not a key')).toBe(false);
  });
});
