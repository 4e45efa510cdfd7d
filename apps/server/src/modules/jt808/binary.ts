// Byte-level helpers of the JT/T 808 codec: a bounds-checked big-endian reader, a body writer,
// BCD digits and GBK text (the standard's STRING type). Every read past the end throws a typed
// 'short-body' error instead of Node's RangeError, so a truncated body is refused with a reason.
import iconv from 'iconv-lite';
import { Jt808Error } from './errors.ts';

/** GBK text (GB 2312 superset), the encoding of every STRING field of the standard. */
export function gbk(text: string): Buffer {
  return iconv.encode(text, 'gbk');
}

export function fromGbk(bytes: Buffer): string {
  return iconv.decode(bytes, 'gbk');
}

/** Decimal digits as packed BCD, left-padded with zeros to `bytes` bytes. */
export function toBcd(digits: string, bytes: number): Buffer {
  if (!/^\d*$/.test(digits)) throw new Jt808Error('cannot-encode', `BCD needs decimal digits, got "${digits}"`);
  if (digits.length > bytes * 2) throw new Jt808Error('cannot-encode', `"${digits}" does not fit in ${bytes} BCD bytes`);
  return Buffer.from(digits.padStart(bytes * 2, '0'), 'hex');
}

/** Packed BCD as digits; a nibble over 9 is refused (the field is then not BCD at all). */
export function fromBcd(bytes: Buffer): string {
  const digits = bytes.toString('hex');
  if (!/^\d*$/.test(digits)) throw new Jt808Error('bad-value', `not BCD: ${digits}`);
  return digits;
}

/** Text in a fixed-width field: GBK, right-padded with 0x00; longer text is refused, not cut. */
export function fixedText(text: string, width: number): Buffer {
  const bytes = gbk(text);
  if (bytes.length > width) throw new Jt808Error('cannot-encode', `"${text}" is ${bytes.length} bytes, the field holds ${width}`);
  return Buffer.concat([bytes, Buffer.alloc(width - bytes.length)]);
}

/** Text of a fixed-width field with its 0x00 padding removed (terminals pad left or right). */
export function trimmedText(bytes: Buffer): string {
  let start = 0;
  let end = bytes.length;
  while (start < end && bytes[start] === 0) start++;
  while (end > start && bytes[end - 1] === 0) end--;
  return fromGbk(bytes.subarray(start, end));
}

/** Reads a body front to back; `what` names the body in errors ("0x0100 body"). */
export class Reader {
  private pos = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly what = 'body',
  ) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  get offset(): number {
    return this.pos;
  }

  /** Throws the typed error when fewer than `n` bytes are left. */
  private need(n: number): void {
    if (n > this.remaining) {
      throw new Jt808Error('short-body', `${this.what}: needs ${n} bytes at offset ${this.pos}, has ${this.remaining}`);
    }
  }

  bytes(n: number): Buffer {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  rest(): Buffer {
    return this.bytes(this.remaining);
  }

  // The numbers are read in place: no view of the buffer is made for them (a location has a dozen).
  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  bcd(n: number): string {
    return fromBcd(this.bytes(n));
  }

  /** A fixed-width text field. */
  text(n: number): string {
    return trimmedText(this.bytes(n));
  }

  /** Text of the rest of the body. */
  restText(): string {
    return fromGbk(this.rest());
  }
}

/** Builds a body from big-endian fields, in one buffer that grows as needed. */
export class Writer {
  private buf = Buffer.allocUnsafe(64);
  private length = 0;

  /** Makes room for `n` more bytes (perhaps in a new buffer) and answers where they go. */
  private room(n: number): number {
    if (this.length + n > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
      this.buf.copy(bigger, 0, 0, this.length);
      this.buf = bigger;
    }
    const at = this.length;
    this.length += n;
    return at;
  }

  u8(v: number): this {
    const at = this.room(1);
    this.buf.writeUInt8(v, at);
    return this;
  }

  u16(v: number): this {
    const at = this.room(2);
    this.buf.writeUInt16BE(v, at);
    return this;
  }

  u32(v: number): this {
    const at = this.room(4);
    this.buf.writeUInt32BE(v, at);
    return this;
  }

  raw(b: Buffer): this {
    // `room` first: it may replace the buffer.
    const at = this.room(b.length);
    b.copy(this.buf, at);
    return this;
  }

  bcd(digits: string, bytes: number): this {
    return this.raw(toBcd(digits, bytes));
  }

  text(text: string, width: number): this {
    return this.raw(fixedText(text, width));
  }

  restText(text: string): this {
    return this.raw(gbk(text));
  }

  /** The bytes written (a buffer of their own). */
  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }
}
