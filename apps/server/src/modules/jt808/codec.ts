// The JT/T 808 frame layer (2011, 2013 and 2019 editions), pure and without I/O: a stream deframer
// for TCP reads, escaping, the XOR check code, the message header, and frame encoding for the
// platform's answers and commands. Bodies are in messages.ts and location.ts; subpackages are put
// back together by reassembly.ts.
import { Reader, Writer, fromBcd } from './binary.ts';
import { Jt808Error } from './errors.ts';

export const FLAG = 0x7e;
export const ESCAPE = 0x7d;

/** The body length field has 10 bits. */
export const MAX_BODY_BYTES = 0x3ff;
/** 2019 header with the subpackage fields: id 2, properties 2, version 1, phone 10, serial 2, packages 4. */
const MAX_HEADER_BYTES = 21;
/**
 * Default size guard of the deframer, in escaped bytes between the flags: the largest legal frame
 * with every byte escaped. Nothing a terminal may send is dropped, and an endless frame costs at
 * most this much memory per connection.
 */
export const MAX_FRAME_BYTES = 2 * (MAX_HEADER_BYTES + MAX_BODY_BYTES + 1);

const PROPS_LENGTH = 0x03ff;
const PROPS_ENCRYPTION_SHIFT = 10;
const PROPS_SUBPACKAGE = 1 << 13;
const PROPS_VERSION = 1 << 14;

export interface Jt808Header {
  messageId: number;
  /** Body length from the properties word. */
  bodyLength: number;
  /** Encryption bits (3): 0 none, 1 RSA. The codec never decrypts. */
  encryption: number;
  /** Laid out as 2019 (version byte, 10-byte phone). */
  v2019: boolean;
  /** The 2019 version byte (1 for the first 2019 edition); 0 before 2019. */
  protocolVersion: number;
  /** Terminal phone number as BCD digits: 12 (2011/2013) or 20 (2019), leading zeros kept. */
  phone: string;
  serial: number;
  /** Present when the subpackage flag is set; `index` counts from 1. */
  packages?: { total: number; index: number };
}

/** What the platform sets to build a frame; the rest is computed. */
export interface HeaderFields {
  messageId: number;
  /** Digits; left-padded with zeros to 12 (or 20 for 2019). */
  phone: string;
  serial: number;
  /** 2019 layout. */
  v2019?: boolean;
  /** 2019 version byte; default 1. */
  protocolVersion?: number;
  encryption?: number;
  packages?: { total: number; index: number };
}

export interface Jt808Frame {
  header: Jt808Header;
  body: Buffer;
}

/** XOR of every byte: the check code over header and body. */
export function checkCode(bytes: Buffer): number {
  let x = 0;
  for (let i = 0; i < bytes.length; i++) x ^= bytes[i]!;
  return x;
}

/** 0x7e -> 0x7d 0x02 and 0x7d -> 0x7d 0x01. */
export function escape(bytes: Buffer): Buffer {
  return escaped(bytes, false);
}

/** `bytes` escaped, between two flags when `flags` (a whole frame, in one buffer); unescaped bytes without flags come back as they are. */
function escaped(bytes: Buffer, flags: boolean): Buffer {
  let extra = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === FLAG || bytes[i] === ESCAPE) extra++;
  if (extra === 0 && !flags) return bytes;
  const out = Buffer.allocUnsafe(bytes.length + extra + (flags ? 2 : 0));
  let j = 0;
  if (flags) out[j++] = FLAG;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === FLAG || b === ESCAPE) {
      out[j++] = ESCAPE;
      out[j++] = b === FLAG ? 0x02 : 0x01;
    } else {
      out[j++] = b;
    }
  }
  if (flags) out[j++] = FLAG;
  return out;
}

/**
 * Undoes `escape`. A 0x7d followed by anything but 0x01 or 0x02 is refused. One exception: a lone
 * 0x7d as the very last byte is kept as it is, because some terminals do not escape a check code
 * of 0x7d (the byte cannot start an escape when nothing follows it).
 */
export function unescape(bytes: Buffer): Buffer {
  let i = bytes.indexOf(ESCAPE);
  if (i < 0) return bytes;
  const out = Buffer.alloc(bytes.length);
  bytes.copy(out, 0, 0, i);
  let j = i;
  while (i < bytes.length) {
    const b = bytes[i++]!;
    if (b !== ESCAPE) {
      out[j++] = b;
      continue;
    }
    if (i === bytes.length) {
      out[j++] = ESCAPE;
      break;
    }
    const next = bytes[i++]!;
    if (next === 0x02) out[j++] = FLAG;
    else if (next === 0x01) out[j++] = ESCAPE;
    else throw new Jt808Error('bad-escape', `0x7d 0x${hex2(next)} at offset ${i - 2} is not an escape`);
  }
  return out.subarray(0, j);
}

/**
 * Cuts a TCP byte stream into frames. `push` takes each read and returns, in stream order, the
 * complete frames (the escaped bytes between the two 0x7e, ready for `decodeFrame`) and the
 * errors: junk skipped outside frames ('junk', reported when the junk ends and for every size
 * guard's worth of it, so how the stream was split into reads does not change what is reported) and frames
 * dropped for growing past the guard ('frame-too-long'). Two flags in a row (7e 7e) are the end
 * of one frame and the start of the next, so an empty frame is never returned.
 */
export class Deframer {
  private parts: Buffer[] = [];
  private length = 0;
  private inFrame = false;
  /** After an oversized frame: drop bytes up to the next flag without reporting them as junk. */
  private discarding = false;
  private junk = 0;

  constructor(private readonly maxFrameBytes = MAX_FRAME_BYTES) {}

  /** Bytes held for an unfinished frame. */
  get buffered(): number {
    return this.length;
  }

  push(chunk: Buffer): Array<Buffer | Jt808Error> {
    const out: Array<Buffer | Jt808Error> = [];
    let pos = 0;
    while (pos < chunk.length) {
      const flag = chunk.indexOf(FLAG, pos);
      const end = flag < 0 ? chunk.length : flag;
      if (this.inFrame) this.take(chunk.subarray(pos, end), out);
      else this.skip(end - pos, out);
      if (flag < 0) break;
      this.onFlag(out);
      pos = flag + 1;
    }
    return out;
  }

  private take(bytes: Buffer, out: Array<Buffer | Jt808Error>): void {
    if (bytes.length === 0) return;
    if (this.length + bytes.length > this.maxFrameBytes) {
      out.push(
        new Jt808Error('frame-too-long', `frame longer than ${this.maxFrameBytes} bytes dropped`, {
          bytes: this.length + bytes.length,
        }),
      );
      this.parts = [];
      this.length = 0;
      this.inFrame = false;
      this.discarding = true;
      return;
    }
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  private skip(n: number, out: Array<Buffer | Jt808Error>): void {
    if (this.discarding || n === 0) return;
    this.junk += n;
    while (this.junk >= this.maxFrameBytes) {
      this.junk -= this.maxFrameBytes;
      out.push(junkError(this.maxFrameBytes));
    }
  }

  private flushJunk(out: Array<Buffer | Jt808Error>): void {
    if (this.junk === 0) return;
    out.push(junkError(this.junk));
    this.junk = 0;
  }

  private onFlag(out: Array<Buffer | Jt808Error>): void {
    if (!this.inFrame) {
      this.flushJunk(out);
      this.discarding = false;
      this.inFrame = true;
      return;
    }
    if (this.length === 0) return; // 7e 7e: the first closed nothing, the second opens
    // Copies, so the frame does not pin the whole read it came in.
    out.push(this.parts.length === 1 ? Buffer.from(this.parts[0]!) : Buffer.concat(this.parts, this.length));
    this.parts = [];
    this.length = 0;
    this.inFrame = false;
  }
}

function junkError(bytes: number): Jt808Error {
  return new Jt808Error('junk', `${bytes} bytes outside a frame skipped`, { bytes });
}

function headerLength(v2019: boolean, subpackage: boolean): number {
  return (v2019 ? 17 : 12) + (subpackage ? 4 : 0);
}

/**
 * Reads the header of an unescaped frame (without flags or check code). The 2019 flag is taken
 * at its word unless the frame's length says otherwise: some terminals set bit 14 (reserved
 * before 2019) yet send a 2013 header, which the declared body length then fits exactly.
 */
export function decodeHeader(data: Buffer): Jt808Header {
  if (data.length < 4) throw new Jt808Error('short-frame', `frame of ${data.length} bytes has no header`);
  const messageId = data.readUInt16BE(0);
  const props = data.readUInt16BE(2);
  const bodyLength = props & PROPS_LENGTH;
  const subpackage = (props & PROPS_SUBPACKAGE) !== 0;
  let v2019 = (props & PROPS_VERSION) !== 0;
  if (v2019 && data.length === headerLength(false, subpackage) + bodyLength) v2019 = false;
  const length = headerLength(v2019, subpackage);
  if (data.length < length) {
    throw new Jt808Error('short-frame', `frame of ${data.length} bytes, its header needs ${length}`, { messageId });
  }
  const r = new Reader(data.subarray(4, length), 'header');
  const protocolVersion = v2019 ? r.u8() : 0;
  const phoneBytes = r.bytes(v2019 ? 10 : 6);
  const serial = r.u16();
  let phone: string;
  try {
    phone = fromBcd(phoneBytes);
  } catch {
    throw new Jt808Error('bad-value', `phone number ${phoneBytes.toString('hex')} is not BCD`, { messageId, serial });
  }
  const header: Jt808Header = {
    messageId,
    bodyLength,
    encryption: (props >> PROPS_ENCRYPTION_SHIFT) & 0x7,
    v2019,
    protocolVersion,
    phone,
    serial,
  };
  if (subpackage) header.packages = { total: r.u16(), index: r.u16() };
  return header;
}

/**
 * Decodes one frame as the deframer gives it (escaped, without the flags): unescapes, checks the
 * check code, reads the header and cuts out the body. Errors name the message id, serial and
 * phone when the header could be read, so the gateway can answer and log them.
 */
export function decodeFrame(escaped: Buffer): Jt808Frame {
  const data = unescape(escaped);
  if (data.length < 13) throw new Jt808Error('short-frame', `frame of ${data.length} bytes is shorter than any header`);
  const content = data.subarray(0, data.length - 1);
  const expected = data[data.length - 1]!;
  const actual = checkCode(content);
  if (actual !== expected) {
    let context = {};
    try {
      const h = decodeHeader(content);
      context = { messageId: h.messageId, serial: h.serial, phone: h.phone };
    } catch {
      // the header is spoiled too: the error names nothing
    }
    throw new Jt808Error('bad-check-code', `check code 0x${hex2(expected)}, computed 0x${hex2(actual)}`, context);
  }
  const header = decodeHeader(content);
  const start = headerLength(header.v2019, header.packages !== undefined);
  const body = content.subarray(start);
  const context = { messageId: header.messageId, serial: header.serial, phone: header.phone };
  if (body.length < header.bodyLength) {
    throw new Jt808Error('short-body', `body of ${body.length} bytes, its header says ${header.bodyLength}`, context);
  }
  if (body.length > header.bodyLength) {
    throw new Jt808Error('long-body', `body of ${body.length} bytes, its header says ${header.bodyLength}`, context);
  }
  return { header, body };
}

/** The header's bytes for a body of `bodyLength` bytes. */
export function encodeHeader(fields: HeaderFields, bodyLength: number): Buffer {
  return headerWriter(fields, bodyLength).done();
}

/** A writer holding the header, for the body and check code to follow in the same buffer. */
function headerWriter(fields: HeaderFields, bodyLength: number): Writer {
  if (bodyLength > MAX_BODY_BYTES) {
    throw new Jt808Error('cannot-encode', `body of ${bodyLength} bytes is over ${MAX_BODY_BYTES}: send it in packages`);
  }
  const v2019 = fields.v2019 ?? false;
  const encryption = fields.encryption ?? 0;
  let props = bodyLength | ((encryption & 0x7) << PROPS_ENCRYPTION_SHIFT);
  if (fields.packages) props |= PROPS_SUBPACKAGE;
  if (v2019) props |= PROPS_VERSION;
  const w = new Writer().u16(fields.messageId).u16(props);
  if (v2019) w.u8(fields.protocolVersion ?? 1);
  w.bcd(fields.phone, v2019 ? 10 : 6).u16(fields.serial);
  if (fields.packages) w.u16(fields.packages.total).u16(fields.packages.index);
  return w;
}

const EMPTY = Buffer.alloc(0);

/** A complete frame, flags included, ready to write to the socket. */
export function encodeFrame(fields: HeaderFields, body: Buffer = EMPTY): Buffer {
  // Header, body and a place for the check code in one buffer; then escaped between the flags.
  const content = headerWriter(fields, body.length).raw(body).u8(0).done();
  content[content.length - 1] = checkCode(content.subarray(0, content.length - 1));
  return escaped(content, true);
}

/**
 * A body too long for one frame, as packages 1..N of at most `packageBytes` each, with serials
 * `fields.serial`, `fields.serial + 1`, ... (each package has its own serial, per the standard).
 */
export function encodePackages(fields: HeaderFields, body: Buffer, packageBytes = MAX_BODY_BYTES): Buffer[] {
  if (packageBytes < 1 || packageBytes > MAX_BODY_BYTES) {
    throw new Jt808Error('cannot-encode', `package size ${packageBytes} is not 1..${MAX_BODY_BYTES}`);
  }
  const total = Math.max(1, Math.ceil(body.length / packageBytes));
  if (total > 0xffff) throw new Jt808Error('cannot-encode', `${total} packages are more than a WORD counts`);
  const frames: Buffer[] = [];
  for (let i = 0; i < total; i++) {
    const part = body.subarray(i * packageBytes, (i + 1) * packageBytes);
    const serial = (fields.serial + i) & 0xffff;
    frames.push(encodeFrame({ ...fields, serial, packages: { total, index: i + 1 } }, part));
  }
  return frames;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}
