// Puts JT/T 808 subpackages back together before their body is decoded. Pure: the caller passes
// the time in, so there are no timers, and memory is bounded by a number of sets and of bytes.
//
// The key is the terminal's phone, the message id and the serial of package 1. Each package has
// its own serial, consecutive from package 1's (the standard's 0x8003 re-send request names a
// message by that first serial), so package k with serial s belongs to first serial s - k + 1,
// whatever order the packages come in, and two long messages of the same id do not mix.
import type { Jt808Frame, Jt808Header } from './codec.ts';
import { Jt808Error } from './errors.ts';

export interface ReassemblerOptions {
  /** An unfinished set silent this long is dropped (default 60 s). */
  timeoutMs?: number;
  /** Sets kept at once; the oldest is dropped for a new one (default 16). */
  maxSets?: number;
  /** Bytes kept over all sets; the oldest sets are dropped to make room (default 1 MiB). */
  maxBytes?: number;
}

export interface DroppedSet {
  phone: string;
  messageId: number;
  firstSerial: number;
  total: number;
  /** Package numbers never received: what a 0x8003 re-send request would ask for. */
  missing: number[];
  reason: 'timeout' | 'evicted' | 'too-large';
}

export interface AddResult {
  /** The whole message once its last package arrived: package 1's header without `packages`. */
  message?: Jt808Frame;
  /** Sets dropped while making room or for being too old. */
  dropped: DroppedSet[];
}

interface PackageSet {
  phone: string;
  messageId: number;
  firstSerial: number;
  total: number;
  parts: Map<number, Buffer>;
  bytes: number;
  lastSeen: number;
  first?: Jt808Header;
}

export class Reassembler {
  private readonly sets = new Map<string, PackageSet>();
  private bytes = 0;
  private readonly timeoutMs: number;
  private readonly maxSets: number;
  private readonly maxBytes: number;

  constructor(options: ReassemblerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxSets = options.maxSets ?? 16;
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
  }

  /** Unfinished sets held. */
  get size(): number {
    return this.sets.size;
  }

  /** Bytes held in unfinished sets. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Adds one package (a frame whose header has `packages`). */
  add(frame: Jt808Frame, nowMs: number): AddResult {
    const { header, body } = frame;
    const p = header.packages;
    const context = { messageId: header.messageId, serial: header.serial, phone: header.phone };
    if (!p) throw new Jt808Error('bad-value', 'not a subpackage', context);
    if (p.total < 1 || p.index < 1 || p.index > p.total) {
      throw new Jt808Error('bad-value', `package ${p.index} of ${p.total}`, context);
    }
    const dropped = this.expire(nowMs);
    const firstSerial = (header.serial - (p.index - 1)) & 0xffff;
    const key = `${header.phone}/${header.messageId}/${firstSerial}`;
    let set = this.sets.get(key);
    if (set && set.total !== p.total) {
      // A new message whose serials met an old unfinished one: the old one is lost anyway.
      dropped.push(this.drop(key, set, 'evicted'));
      set = undefined;
    }
    if (!set) {
      // Terminals cut every package but the last at one size: a set that cannot fit is refused.
      if (p.index < p.total && body.length * (p.total - 1) > this.maxBytes) {
        dropped.push(describe({ phone: header.phone, messageId: header.messageId, firstSerial, total: p.total, parts: new Map() }, 'too-large'));
        return { dropped };
      }
      set = { phone: header.phone, messageId: header.messageId, firstSerial, total: p.total, parts: new Map(), bytes: 0, lastSeen: nowMs };
      this.sets.set(key, set);
    }
    // A re-sent package replaces the one before it.
    const before = set.parts.get(p.index);
    if (before) {
      set.bytes -= before.length;
      this.bytes -= before.length;
    }
    set.parts.set(p.index, Buffer.from(body));
    set.bytes += body.length;
    this.bytes += body.length;
    set.lastSeen = nowMs;
    if (p.index === 1) set.first = header;
    // Map order is insertion order: refresh this set's place so the oldest is evicted first.
    this.sets.delete(key);
    this.sets.set(key, set);

    if (set.parts.size === set.total) {
      this.sets.delete(key);
      this.bytes -= set.bytes;
      const parts: Buffer[] = [];
      for (let i = 1; i <= set.total; i++) parts.push(set.parts.get(i)!);
      const merged = Buffer.concat(parts);
      const { packages: _packages, ...first } = set.first!;
      return { message: { header: { ...first, bodyLength: merged.length }, body: merged }, dropped };
    }
    this.makeRoom(key, dropped);
    return { dropped };
  }

  /** Drops sets silent for longer than the timeout. */
  expire(nowMs: number): DroppedSet[] {
    const dropped: DroppedSet[] = [];
    for (const [key, set] of this.sets) {
      if (nowMs - set.lastSeen > this.timeoutMs) dropped.push(this.drop(key, set, 'timeout'));
    }
    return dropped;
  }

  private makeRoom(keep: string, dropped: DroppedSet[]): void {
    for (const [key, set] of this.sets) {
      if (this.sets.size <= this.maxSets && this.bytes <= this.maxBytes) return;
      if (key === keep) continue;
      dropped.push(this.drop(key, set, 'evicted'));
    }
    const set = this.sets.get(keep);
    if (set && this.bytes > this.maxBytes) dropped.push(this.drop(keep, set, 'too-large'));
  }

  private drop(key: string, set: PackageSet, reason: DroppedSet['reason']): DroppedSet {
    this.sets.delete(key);
    this.bytes -= set.bytes;
    return describe(set, reason);
  }
}

function describe(set: Pick<PackageSet, 'phone' | 'messageId' | 'firstSerial' | 'total' | 'parts'>, reason: DroppedSet['reason']): DroppedSet {
  const missing: number[] = [];
  for (let i = 1; i <= set.total; i++) if (!set.parts.has(i)) missing.push(i);
  return { phone: set.phone, messageId: set.messageId, firstSerial: set.firstSerial, total: set.total, missing, reason };
}
