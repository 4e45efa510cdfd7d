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

  bytes(n: number): Buffer {
    if (n > this.remaining) {
      throw new Jt808Error('short-body', `${this.what}: needs ${n} bytes at offset ${this.pos}, has ${this.remaining}`);
    }
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  rest(): Buffer {
    return this.bytes(this.remaining);
  }

  u8(): number {
    return this.bytes(1).readUInt8(0);
  }

  u16(): number {
    return this.bytes(2).readUInt16BE(0);
  }

  u32(): number {
    return this.bytes(4).readUInt32BE(0);
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

/** Builds a body from big-endian fields. */
export class Writer {
  private readonly parts: Buffer[] = [];

  u8(v: number): this {
    const b = Buffer.alloc(1);
    b.writeUInt8(v);
    return this.raw(b);
  }

  u16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(v);
    return this.raw(b);
  }

  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v);
    return this.raw(b);
  }

  raw(b: Buffer): this {
    this.parts.push(b);
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

  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}
