/// <reference types="node" />
// The Merkle tree against published data (the transparency-dev/merkle proof vectors and the
// RFC 6962 reference tree) and against its own definitions for random trees.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromBase64, fromHex, toHex, utf8 } from './bytes.ts';
import {
  appendLeaf,
  appendLeaves,
  consistencyPlan,
  consistencyProof,
  EMPTY_FRONTIER,
  EMPTY_ROOT,
  frontierFromReader,
  frontierRoot,
  inclusionPlan,
  inclusionProof,
  leafHash,
  leavesReader,
  nodeHash,
  nodeKey,
  planNodes,
  rangeNodes,
  resolvePlan,
  rootFromReader,
  rootOf,
  verifyConsistency,
  verifyInclusion,
  type Frontier,
  type Hash,
  type NodeId,
  type NodeReader,
} from './merkle.ts';

// A copy of the design folder's testdata/rfc6962-vectors (inclusion and consistency, with their
// Apache-2.0 LICENSE and README), kept in the repository so a clone on its own runs them.
const VECTORS = fileURLToPath(new URL('../../testdata/rfc6962-vectors/', import.meta.url));

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

function listVectors(kind: 'inclusion' | 'consistency'): { files: string[]; error: unknown } {
  try {
    return { files: jsonFiles(join(VECTORS, kind)), error: null };
  } catch (error) {
    return { files: [], error };
  }
}

const b64 = (s: string) => fromBase64(s);
const rel = (path: string) => path.slice(VECTORS.length);

// RFC 6962 reference tree: the eight leaf inputs of Certificate Transparency's merkle tree tests
// and the roots of their first n leaves, from transparency-dev/merkle testonly/constants.go
// (LeafInputs, RootHashes, NodeHashes; github.com/transparency-dev/merkle).
const REF_INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  (h) => fromHex(h),
);
const REF_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const REF_NODES = [
  [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
    '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658',
    'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
    '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1',
  ],
  [
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
  ],
  ['d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'],
  ['5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328'],
];
const refLeaves = REF_INPUTS.map(leafHash);

interface InclusionVector {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null; // Go writes a nil slice as null
  desc: string;
  wantErr: boolean;
}
interface ConsistencyVector {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

describe('transparency-dev/merkle proof vectors', () => {
  const inclusion = listVectors('inclusion');
  const consistency = listVectors('consistency');

  it('finds the vector directories (missing vectors fail, never skip)', () => {
    expect(inclusion.error).toBeNull();
    expect(consistency.error).toBeNull();
    // 98 + 98 files at transparency-dev/merkle commit 417fb0c.
    expect(inclusion.files.length).toBeGreaterThanOrEqual(90);
    expect(consistency.files.length).toBeGreaterThanOrEqual(90);
  });

  it.each(inclusion.files.map((f) => [rel(f), f]))('inclusion %s', (_name, file) => {
    const v = JSON.parse(readFileSync(file, 'utf8')) as InclusionVector;
    const proof = (v.proof ?? []).map(b64);
    const ok = verifyInclusion(v.leafIdx, v.treeSize, b64(v.leafHash), proof, b64(v.root));
    expect(ok).toBe(!v.wantErr);
    if (!v.wantErr && toHex(b64(v.root)) === REF_ROOTS[v.treeSize]) {
      // Our generator must produce the very proof the vector gives for the reference tree.
      expect(inclusionProof(refLeaves, v.leafIdx, v.treeSize)).toEqual(proof);
    }
  });

  it.each(consistency.files.map((f) => [rel(f), f]))('consistency %s', (_name, file) => {
    const v = JSON.parse(readFileSync(file, 'utf8')) as ConsistencyVector;
    const proof = (v.proof ?? []).map(b64);
    const ok = verifyConsistency(v.size1, v.size2, b64(v.root1), b64(v.root2), proof);
    expect(ok).toBe(!v.wantErr);
    if (!v.wantErr && v.size1 > 0 && toHex(b64(v.root2)) === REF_ROOTS[v.size2]) {
      expect(consistencyProof(refLeaves, v.size1, v.size2)).toEqual(proof);
    }
  });
});

describe('RFC 6962 reference tree', () => {
  it('has SHA-256("") as the empty root', () => {
    expect(toHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(rootOf([]))).toBe(REF_ROOTS[0]);
    expect(toHex(frontierRoot(EMPTY_FRONTIER))).toBe(REF_ROOTS[0]);
  });

  it('gives the published roots for sizes 0..8, recursively, from the frontier and from stored nodes', () => {
    let frontier: Frontier = EMPTY_FRONTIER;
    const stored = new Map<string, Hash>();
    const read: NodeReader = (level, index) => stored.get(nodeKey(level, index))!;
    for (let n = 0; n <= 8; n++) {
      expect(toHex(rootOf(refLeaves.slice(0, n)))).toBe(REF_ROOTS[n]);
      expect(toHex(frontierRoot(frontier))).toBe(REF_ROOTS[n]);
      expect(toHex(rootFromReader(n, read))).toBe(REF_ROOTS[n]);
      if (n < 8) {
        const r = appendLeaf(frontier, refLeaves[n]!);
        frontier = r.frontier;
        for (const node of r.completed) stored.set(nodeKey(node.level, node.index), node.hash);
      }
    }
  });

  it('stores exactly the published complete-subtree hashes', () => {
    const { completed } = appendLeaves(EMPTY_FRONTIER, refLeaves);
    const got: string[][] = [];
    for (const node of completed) (got[node.level] ??= [])[node.index] = toHex(node.hash);
    expect(got).toEqual(REF_NODES);
    expect(completed).toHaveLength(15);
  });

  it('hashes leaves and nodes with the 0x00 / 0x01 prefixes', () => {
    expect(toHex(leafHash(new Uint8Array(0)))).toBe(REF_NODES[0]![0]);
    expect(toHex(nodeHash(fromHex(REF_NODES[0]![0]!), fromHex(REF_NODES[0]![1]!)))).toBe(REF_NODES[1]![0]);
  });

  it('plans an inclusion proof in a 10-million-leaf tree with O(log n) node reads', () => {
    const size = 10_000_000;
    for (const index of [0, 1, 4_999_999, 9_999_998, 9_999_999]) {
      const plan = inclusionPlan(index, size);
      expect(plan.length).toBeLessThanOrEqual(24);
      expect(planNodes(plan).length).toBeLessThanOrEqual(48);
    }
    const cons = consistencyPlan(7_777_777, size);
    expect(planNodes(cons).length).toBeLessThanOrEqual(48);
  });

  it('refuses impossible proof requests', () => {
    expect(() => inclusionPlan(8, 8)).toThrow(RangeError);
    expect(() => inclusionPlan(-1, 8)).toThrow(RangeError);
    expect(() => consistencyPlan(0, 8)).toThrow(RangeError);
    expect(() => consistencyPlan(9, 8)).toThrow(RangeError);
    expect(consistencyPlan(8, 8)).toEqual([]);
    expect(() => rangeNodes(5, 3)).toThrow(RangeError);
    expect(() => leavesReader(refLeaves)(3, 1)).toThrow(RangeError);
  });
});

// ---- properties over random trees ----

function makeLeaves(n: number, salt: number): Hash[] {
  return Array.from({ length: n }, (_, i) => leafHash(utf8(`leaf ${salt}/${i}`)));
}

function storeOf(leaves: readonly Hash[]): NodeReader {
  const { completed } = appendLeaves(EMPTY_FRONTIER, leaves);
  const map = new Map(completed.map((c) => [nodeKey(c.level, c.index), c.hash]));
  return (level, index) => {
    const h = map.get(nodeKey(level, index));
    if (!h) throw new Error(`node ${level}/${index} not stored`);
    return h;
  };
}

// Which side of the path each proof element sits on: the only thing the verifier takes from the
// sizes besides the proof length.
const startOf = (element: NodeId[]) => element[0]!.index * 2 ** element[0]!.level;
const inclusionShape = (i: number, n: number) =>
  inclusionPlan(i, n)
    .map((e) => (startOf(e) < i ? 'L' : 'R'))
    .join('');
const consistencyShape = (m: number, n: number) =>
  (Number.isInteger(Math.log2(m)) ? 'P' : 'N') +
  consistencyPlan(m, n)
    .map((e) => (startOf(e) < m ? 'L' : 'R'))
    .join('');

const flipBit = (proof: Hash[], at: number, bit: number): Hash[] =>
  proof.map((h, i) => {
    if (i !== at) return h;
    const copy = h.slice();
    copy[Math.floor(bit / 8)]! ^= 1 << bit % 8;
    return copy;
  });

const treeAndIndex = fc
  .record({ n: fc.integer({ min: 1, max: 300 }), salt: fc.nat(), pick: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
  .map(({ n, salt, pick }) => ({ n, salt, i: Math.floor(pick * n) }));

const treeAndSizes = fc
  .record({ n: fc.integer({ min: 2, max: 300 }), salt: fc.nat(), pick: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
  .map(({ n, salt, pick }) => ({ n, salt, m: 1 + Math.floor(pick * (n - 1)) })); // 1 <= m < n

describe('every proof of every tree up to 64 leaves', () => {
  it('verifies', () => {
    const leaves = makeLeaves(64, 7);
    const read = storeOf(leaves);
    for (let n = 1; n <= 64; n++) {
      const root = rootOf(leaves.slice(0, n));
      for (let i = 0; i < n; i++) {
        expect(verifyInclusion(i, n, leaves[i]!, inclusionProof(read, i, n), root)).toBe(true);
      }
      for (let m = 1; m <= n; m++) {
        expect(verifyConsistency(m, n, rootOf(leaves.slice(0, m)), root, consistencyProof(read, m, n))).toBe(true);
      }
    }
  });
});

describe('inclusion proofs (random trees)', () => {
  it('verify for a random leaf of a random tree, and equal the proofs read from stored subtrees', () => {
    fc.assert(
      fc.property(treeAndIndex, ({ n, salt, i }) => {
        const leaves = makeLeaves(n, salt);
        const root = rootOf(leaves);
        const proof = inclusionProof(leaves, i, n);
        expect(verifyInclusion(i, n, leaves[i]!, proof, root)).toBe(true);
        expect(inclusionProof(storeOf(leaves), i, n)).toEqual(proof);
        expect(resolvePlan(inclusionPlan(i, n), storeOf(leaves))).toEqual(proof);
      }),
      { numRuns: 150 },
    );
  });

  it('fail after any tampering', () => {
    fc.assert(
      fc.property(treeAndIndex, fc.nat(), fc.nat({ max: 255 }), ({ n, salt, i }, at, bit) => {
        const leaves = makeLeaves(n, salt);
        const root = rootOf(leaves);
        const proof = inclusionProof(leaves, i, n);
        const leaf = leaves[i]!;
        if (proof.length > 0) {
          const k = at % proof.length;
          expect(verifyInclusion(i, n, leaf, flipBit(proof, k, bit), root)).toBe(false);
          expect(verifyInclusion(i, n, leaf, proof.filter((_, j) => j !== k), root)).toBe(false);
        }
        expect(verifyInclusion(i, n, leaf, [...proof, EMPTY_ROOT], root)).toBe(false);
        expect(verifyInclusion(i, n, leaf, [EMPTY_ROOT, ...proof], root)).toBe(false);
        expect(verifyInclusion(i, n, flipBit([leaf], 0, bit)[0]!, proof, root)).toBe(false);
        expect(verifyInclusion(i, n, leaf, proof, flipBit([root], 0, bit)[0]!)).toBe(false);
        expect(verifyInclusion(i, n, leaf, proof, rootOf(makeLeaves(n, salt + 1)))).toBe(false);
        if (n > 1) expect(verifyInclusion((i + 1 + (at % (n - 1))) % n, n, leaf, proof, root)).toBe(false);
        expect(verifyInclusion(n, n, leaf, proof, root)).toBe(false);
        // Another size fails unless leaf i's path has exactly the same shape in both trees (then
        // the root still commits to the real size: no tree of the other size has that root).
        for (const other of [n - 1, n + 1, n + 1 + (at % 300), 2 * n]) {
          if (other > i && other !== n) {
            expect(verifyInclusion(i, other, leaf, proof, root)).toBe(inclusionShape(i, other) === inclusionShape(i, n));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('consistency proofs (random trees)', () => {
  it('verify for a random m < n, and equal the proofs read from stored subtrees', () => {
    fc.assert(
      fc.property(treeAndSizes, ({ n, salt, m }) => {
        const leaves = makeLeaves(n, salt);
        const oldRoot = rootOf(leaves.slice(0, m));
        const newRoot = rootOf(leaves);
        const proof = consistencyProof(leaves, m, n);
        expect(verifyConsistency(m, n, oldRoot, newRoot, proof)).toBe(true);
        expect(consistencyProof(storeOf(leaves), m, n)).toEqual(proof);
        expect(verifyConsistency(n, n, newRoot, newRoot, [])).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('fail after any tampering', () => {
    fc.assert(
      fc.property(treeAndSizes, fc.nat(), fc.nat({ max: 255 }), ({ n, salt, m }, at, bit) => {
        const leaves = makeLeaves(n, salt);
        const oldRoot = rootOf(leaves.slice(0, m));
        const newRoot = rootOf(leaves);
        const proof = consistencyProof(leaves, m, n);
        const k = at % proof.length;
        expect(verifyConsistency(m, n, oldRoot, newRoot, flipBit(proof, k, bit))).toBe(false);
        expect(verifyConsistency(m, n, oldRoot, newRoot, proof.filter((_, j) => j !== k))).toBe(false);
        expect(verifyConsistency(m, n, oldRoot, newRoot, [...proof, EMPTY_ROOT])).toBe(false);
        expect(verifyConsistency(m, n, oldRoot, newRoot, [EMPTY_ROOT, ...proof])).toBe(false);
        expect(verifyConsistency(m, n, flipBit([oldRoot], 0, bit)[0]!, newRoot, proof)).toBe(false);
        expect(verifyConsistency(m, n, oldRoot, flipBit([newRoot], 0, bit)[0]!, proof)).toBe(false);
        expect(verifyConsistency(m, n, newRoot, oldRoot, proof)).toBe(false);
        // Another log with the same old prefix size but different leaves.
        const other = makeLeaves(n, salt + 1);
        expect(verifyConsistency(m, n, oldRoot, rootOf(other), proof)).toBe(false);
        expect(verifyConsistency(m, n, rootOf(other.slice(0, m)), newRoot, proof)).toBe(false);
        // Other sizes fail unless the proof combines in exactly the same way for them.
        for (const [m2, n2] of [[m, n + 1], [m - 1, n], [m + 1, n], [m, 2 * n], [m + 1 + (at % n), n + 1 + (at % n)]] as const) {
          if (m2 >= 1 && m2 < n2 && (m2 !== m || n2 !== n)) {
            expect(verifyConsistency(m2, n2, oldRoot, newRoot, proof)).toBe(consistencyShape(m2, n2) === consistencyShape(m, n));
          }
        }
        expect(verifyConsistency(n, m, newRoot, oldRoot, proof)).toBe(false);
        expect(verifyConsistency(0, n, EMPTY_ROOT, newRoot, proof)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});

describe('frontier (incremental appender)', () => {
  it('has the recursive root after every append, and rebuilds from stored nodes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (n, salt) => {
        const leaves = makeLeaves(n, salt);
        const read = storeOf(leaves);
        let frontier: Frontier = EMPTY_FRONTIER;
        for (let size = 1; size <= n; size++) {
          frontier = appendLeaf(frontier, leaves[size - 1]!).frontier;
          const root = rootOf(leaves.slice(0, size));
          expect(frontierRoot(frontier)).toEqual(root);
          expect(rootFromReader(size, read)).toEqual(root);
          expect(frontier.hashes.length).toBeLessThanOrEqual(Math.floor(Math.log2(size)) + 1);
        }
        expect(frontierFromReader(n, read)).toEqual(frontier);
      }),
      // Each run rebuilds every prefix's root recursively (O(n^2) hashing); a few runs suffice.
      { numRuns: 10 },
    );
  }, 60_000);

  it('completes one node per level the new leaf closes', () => {
    let frontier: Frontier = EMPTY_FRONTIER;
    const leaves = makeLeaves(16, 0);
    const counts: number[] = [];
    for (const leaf of leaves) {
      const r = appendLeaf(frontier, leaf);
      frontier = r.frontier;
      counts.push(r.completed.length);
    }
    expect(counts).toEqual([1, 2, 1, 3, 1, 2, 1, 4, 1, 2, 1, 3, 1, 2, 1, 5]);
    expect(() => appendLeaf(frontier, new Uint8Array(31))).toThrow();
  });
});
