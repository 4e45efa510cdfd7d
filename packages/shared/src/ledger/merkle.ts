// The ledger's Merkle tree, exactly as RFC 6962 section 2.1 / RFC 9162 section 2.1 define it, so
// any Certificate Transparency tool can check our proofs. One module for the server (which
// builds proofs from hashes it keeps in the database), the browser and the command-line
// verifier (which only verify).
//
// Large trees: the server never needs all leaves in memory. Every hash a proof contains is the
// hash of a range of leaves, and every such range splits into a few complete subtrees (a run of
// 2^level leaves starting at a multiple of 2^level). A complete subtree is named by a NodeId
// { level, index } and covers leaves [index * 2^level, (index + 1) * 2^level). The server stores
// the hash of every complete subtree once it is complete (`appendLeaf` hands them over), and the
// proof functions ask for nodes through a `NodeReader`. A proof needs O(log n) nodes: for a
// 10-million-leaf tree an inclusion proof reads at most 2 * 24 nodes, usually about 24.
// `inclusionPlan` / `consistencyPlan` list those nodes up front, so the server can fetch them in
// one query and then call `resolvePlan`.
//
// Sizes and indexes are JavaScript numbers limited to safe integers (2^53 - 1); bit arithmetic
// is done with division, not the 32-bit bitwise operators, so trees beyond 2^31 leaves work.
import { sha256 } from '@noble/hashes/sha2';
import { bytesEqual, concatBytes } from './bytes.ts';

export type Hash = Uint8Array;

export const HASH_SIZE = 32;

/** MTH({}) = SHA-256() (RFC 6962 section 2.1). */
export const EMPTY_ROOT: Hash = sha256(new Uint8Array(0));

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

/** SHA-256(0x00 || data): the hash of one leaf's data. */
export function leafHash(data: Uint8Array): Hash {
  return sha256(concatBytes(LEAF_PREFIX, data));
}

/** SHA-256(0x01 || left || right): the hash of an interior node. */
export function nodeHash(left: Hash, right: Hash): Hash {
  return sha256(concatBytes(NODE_PREFIX, left, right));
}

/** A complete subtree: leaves [index * 2^level, (index + 1) * 2^level). Level 0 is a leaf. */
export interface NodeId {
  level: number;
  index: number;
}

/** A complete subtree with its hash, as the server stores it. */
export interface StoredNode extends NodeId {
  hash: Hash;
}

/** Returns the hash of a complete subtree; throws if the store does not have it. */
export type NodeReader = (level: number, index: number) => Hash;

/**
 * The nodes a proof needs: one entry per proof element, each the complete subtrees (left to
 * right, largest first) whose RFC 6962 combination is that element. Most elements are a single
 * complete subtree; the one on the tree's right edge may be several.
 */
export type ProofPlan = NodeId[][];

function isSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function requireSize(n: number, what: string): void {
  if (!isSize(n)) throw new RangeError(`${what} must be a non-negative safe integer, got ${n}`);
}

/** The largest power of two strictly smaller than n (n >= 2): RFC 6962's split point k. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const half = (x: number) => Math.floor(x / 2);
const odd = (x: number) => x % 2 === 1;

/**
 * The complete subtrees covering leaves [start, end), left to right. For the ranges an RFC 6962
 * tree is made of (start a multiple of the smallest power of two >= end - start) they come
 * largest first, and folding them from the right with nodeHash gives MTH of the range.
 */
export function rangeNodes(start: number, end: number): NodeId[] {
  requireSize(start, 'start');
  requireSize(end, 'end');
  if (end < start) throw new RangeError(`range [${start}, ${end}) is reversed`);
  const out: NodeId[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    let width = 1;
    while (at % (width * 2) === 0 && at + width * 2 <= end) {
      width *= 2;
      level++;
    }
    out.push({ level, index: at / width });
    at += width;
  }
  return out;
}

/** Combines the nodes of a range (as `rangeNodes` lists them) into the range's MTH. */
function foldRange(hashes: readonly Hash[]): Hash {
  if (hashes.length === 0) return EMPTY_ROOT;
  let h = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) h = nodeHash(hashes[i]!, h);
  return h;
}

function readChecked(read: NodeReader, node: NodeId): Hash {
  const h = read(node.level, node.index);
  if (!(h instanceof Uint8Array) || h.length !== HASH_SIZE) {
    throw new Error(`node ${node.level}/${node.index}: expected a ${HASH_SIZE}-byte hash`);
  }
  return h;
}

/** MTH of the first `size` leaves, from the stored complete subtrees: O(log size) reads. */
export function rootFromReader(size: number, read: NodeReader): Hash {
  requireSize(size, 'size');
  return foldRange(rangeNodes(0, size).map((n) => readChecked(read, n)));
}

/** MTH(D[n]) of a list of leaf hashes (RFC 6962 section 2.1). */
export function rootOf(leafHashes: readonly Hash[]): Hash {
  const mth = (start: number, end: number): Hash => {
    const n = end - start;
    if (n === 1) return leafHashes[start]!;
    const k = splitPoint(n);
    return nodeHash(mth(start, start + k), mth(start + k, end));
  };
  return leafHashes.length === 0 ? EMPTY_ROOT : mth(0, leafHashes.length);
}

/**
 * A NodeReader over leaf hashes held in memory (tests, small trees, the browser rebuilding a
 * tree it downloaded). Each read hashes the subtree afresh: O(2^level).
 */
export function leavesReader(leafHashes: readonly Hash[]): NodeReader {
  return (level, index) => {
    const width = 2 ** level;
    const start = index * width;
    if (!Number.isSafeInteger(start) || start + width > leafHashes.length) {
      throw new RangeError(`node ${level}/${index} is not complete in a tree of ${leafHashes.length} leaves`);
    }
    return rootOf(leafHashes.slice(start, start + width));
  };
}

/** The nodes of PATH(index, D[size]) (RFC 6962 section 2.1.1), deepest element first. */
export function inclusionPlan(index: number, size: number): ProofPlan {
  requireSize(index, 'index');
  requireSize(size, 'size');
  if (index >= size) throw new RangeError(`index ${index} is not below size ${size}`);
  const topDown: NodeId[][] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      topDown.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeNodes(start, start + k));
      start += k;
    }
  }
  return topDown.reverse();
}

/**
 * The nodes of PROOF(m, D[n]) (RFC 6962 section 2.1.2), deepest element first.
 * 0 < m <= n; m == n gives the empty proof.
 */
export function consistencyPlan(m: number, n: number): ProofPlan {
  requireSize(m, 'm');
  requireSize(n, 'n');
  if (m === 0 || m > n) throw new RangeError(`no consistency proof from size ${m} to size ${n}`);
  const topDown: NodeId[][] = [];
  let start = 0;
  let end = n;
  let whole = true; // SUBPROOF's b: the range is still the original tree's left part.
  for (;;) {
    if (m === end) {
      if (!whole) topDown.push(rangeNodes(start, end));
      break;
    }
    const k = splitPoint(end - start);
    if (m <= start + k) {
      topDown.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeNodes(start, start + k));
      start += k;
      whole = false;
    }
  }
  return topDown.reverse();
}

/** Every distinct node a plan reads, for fetching them in one query. */
export function planNodes(plan: ProofPlan): NodeId[] {
  const seen = new Set<string>();
  const out: NodeId[] = [];
  for (const element of plan) {
    for (const node of element) {
      const key = nodeKey(node.level, node.index);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(node);
      }
    }
  }
  return out;
}

/** A stable text key for a node, e.g. for a Map of fetched hashes. */
export function nodeKey(level: number, index: number): string {
  return `${level}/${index}`;
}

/** Turns a plan into proof hashes. */
export function resolvePlan(plan: ProofPlan, read: NodeReader): Hash[] {
  return plan.map((element) => foldRange(element.map((node) => readChecked(read, node))));
}

function readerOf(source: readonly Hash[] | NodeReader): NodeReader {
  return typeof source === 'function' ? source : leavesReader(source);
}

/** The audit path of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProof(source: readonly Hash[] | NodeReader, index: number, size: number): Hash[] {
  return resolvePlan(inclusionPlan(index, size), readerOf(source));
}

/** The consistency proof between the trees of the first m and the first n leaves. */
export function consistencyProof(source: readonly Hash[] | NodeReader, m: number, n: number): Hash[] {
  return resolvePlan(consistencyPlan(m, n), readerOf(source));
}

function allHashes(hashes: readonly Uint8Array[]): boolean {
  return hashes.every((h) => h instanceof Uint8Array && h.length === HASH_SIZE);
}

/**
 * The root an inclusion proof leads to (RFC 9162 section 2.1.3.2, steps 1-4), or null when the
 * proof cannot belong to a tree of that size.
 */
export function rootFromInclusionProof(index: number, size: number, leaf: Hash, proof: readonly Hash[]): Hash | null {
  if (!isSize(index) || !isSize(size) || index >= size) return null;
  if (!allHashes([leaf]) || !allHashes(proof)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** RFC 9162 section 2.1.3.2: does `proof` show leaf `index` with hash `leaf` under `root`? */
export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): boolean {
  const r = rootFromInclusionProof(index, size, leaf, proof);
  return r !== null && bytesEqual(r, root);
}

/**
 * RFC 9162 section 2.1.4.2: is the tree of size n with `newRoot` an append-only extension of
 * the tree of size m with `oldRoot`? Beyond the RFC's 0 < m < n case: m == n holds only with
 * an empty proof and equal roots; m == 0 never verifies (a proof from the empty tree says
 * nothing, and the transparency-dev vectors require the refusal).
 */
export function verifyConsistency(m: number, n: number, oldRoot: Hash, newRoot: Hash, proof: readonly Hash[]): boolean {
  if (!isSize(m) || !isSize(n) || m > n || m === 0) return false;
  if (m === n) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  if (proof.length === 0 || !allHashes(proof)) return false;
  const path = isPowerOfTwo(m) ? [oldRoot, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

/**
 * The right edge of a tree: the hashes of the complete subtrees that cover [0, size), largest
 * first (the same nodes as rangeNodes(0, size)). At most log2(size) + 1 hashes; enough to
 * append and to compute the root without reading anything else.
 */
export interface Frontier {
  readonly size: number;
  readonly hashes: readonly Hash[];
}

export const EMPTY_FRONTIER: Frontier = { size: 0, hashes: [] };

/**
 * Appends one leaf hash: O(log n) hashing. Returns the new frontier and every complete subtree
 * the leaf completed (the leaf itself at level 0, then each new parent), which the server stores
 * so later proofs can read them.
 */
export function appendLeaf(frontier: Frontier, leaf: Hash): { frontier: Frontier; completed: StoredNode[] } {
  if (!allHashes([leaf])) throw new Error(`a leaf hash has ${HASH_SIZE} bytes`);
  if (frontier.size >= Number.MAX_SAFE_INTEGER) throw new RangeError('the tree is full');
  const hashes = [...frontier.hashes];
  const completed: StoredNode[] = [{ level: 0, index: frontier.size, hash: leaf }];
  let h = leaf;
  let index = frontier.size;
  let level = 0;
  while (odd(index)) {
    const left = hashes.pop();
    if (!left) throw new Error('frontier does not match its size');
    h = nodeHash(left, h);
    index = (index - 1) / 2;
    level++;
    completed.push({ level, index, hash: h });
  }
  hashes.push(h);
  return { frontier: { size: frontier.size + 1, hashes }, completed };
}

/** Appends several leaves in order; the completed nodes of all of them, in order. */
export function appendLeaves(frontier: Frontier, leaves: readonly Hash[]): { frontier: Frontier; completed: StoredNode[] } {
  let f = frontier;
  const completed: StoredNode[] = [];
  for (const leaf of leaves) {
    const r = appendLeaf(f, leaf);
    f = r.frontier;
    completed.push(...r.completed);
  }
  return { frontier: f, completed };
}

/** The root of the tree the frontier describes. */
export function frontierRoot(frontier: Frontier): Hash {
  return foldRange(frontier.hashes);
}

/** Rebuilds the frontier of the first `size` leaves from stored nodes (e.g. after a restart). */
export function frontierFromReader(size: number, read: NodeReader): Frontier {
  requireSize(size, 'size');
  return { size, hashes: rangeNodes(0, size).map((n) => readChecked(read, n)) };
}
