// The byte-level pieces of a readings pack: a growing writer and its reader, with unsigned
// LEB128 varints for whole numbers up to 2^53 (microsecond times need more than 32 bits, so the
// arithmetic is on numbers, not on 32-bit bit operations), zigzag for signed ones, and
// length-prefixed UTF-8 strings.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ByteWriter {
  private buf = new Uint8Array(1024);
  private at = 0;

  private room(n: number) {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  byte(b: number) {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** A whole number in 0..2^53. */
  uvar(v: number) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`not a varint: ${v}`);
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.at++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.at++] = v;
  }

  /** A whole number in -2^52..2^52. */
  svar(v: number) {
    this.uvar(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  bytes(b: Uint8Array) {
    this.uvar(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  string(s: string) {
    this.bytes(encoder.encode(s));
  }

  f64(v: number) {
    this.room(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.at, 8).setFloat64(0, v, true);
    this.at += 8;
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

export class ByteReader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  byte(): number {
    if (this.at >= this.buf.length) throw new RangeError('pack ends early');
    return this.buf[this.at++]!;
  }

  uvar(): number {
    // Most values of a pack's columns are deltas of one byte.
    const first = this.buf[this.at];
    if (first !== undefined && first < 0x80) {
      this.at++;
      return first;
    }
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }

  svar(): number {
    const z = this.uvar();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  bytes(): Uint8Array {
    const n = this.uvar();
    if (this.at + n > this.buf.length) throw new RangeError('pack ends early');
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  string(): string {
    return decoder.decode(this.bytes());
  }

  f64(): number {
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  /** Where the reader is, to come back to with `seek`. */
  get position(): number {
    return this.at;
  }

  seek(at: number) {
    this.at = at;
  }

  get ended(): boolean {
    return this.at >= this.buf.length;
  }
}
