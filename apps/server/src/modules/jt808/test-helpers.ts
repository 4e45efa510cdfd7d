// Helpers shared by the JT/T 808 tests: typed-error capture, body truncation, a trip through the
// wire (encode, deframe, decode), generators of GBK text, and a terminal on a real socket.
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';
import fc from 'fast-check';
import { gbk } from './binary.ts';
import { decodeFrame, Deframer, encodeFrame, type HeaderFields, type Jt808Frame } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { decodeGeneralAnswer, decodeTerminalMessage, encodeGeneralAnswer, MSG, type TerminalMessage } from './messages.ts';

export const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';
export const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** Text of up to `max` GBK bytes, without NUL (the padding byte, which decoding strips). */
export const text = (max: number, chars = ALNUM + 'abcxyz-_. ') =>
  fc
    .array(fc.constantFrom(...chars), { maxLength: max })
    .map((a) => a.join(''))
    .filter((s) => gbk(s).length <= max);

/** The Jt808Error `fn` throws; fails the test if it throws nothing or something else. */
export function thrown(fn: () => unknown): Jt808Error {
  try {
    fn();
  } catch (err) {
    if (err instanceof Jt808Error) return err;
    throw err;
  }
  throw new Error('expected a Jt808Error');
}

/** Every cut of a body short of its end is refused as 'short-body'. */
export function refusesEveryCut(body: Buffer, decode: (b: Buffer) => unknown): void {
  for (let n = 0; n < body.length; n++) expect(thrown(() => decode(body.subarray(0, n))).code).toBe('short-body');
}

/** Encodes a frame and decodes it back through the deframer and the dispatcher. */
export function throughWire(fields: { messageId: number; v2019?: boolean }, body: Buffer): TerminalMessage {
  const [frame] = new Deframer().push(encodeFrame({ phone: '13912345678', serial: 42, ...fields }, body));
  return decodeTerminalMessage(decodeFrame(frame as Buffer));
}

/**
 * A terminal on a real socket for the gateway's tests: frames out built by the codec's encoders
 * (2019 headers when `v2019`), the platform's frames deframed and kept until taken; it waits for
 * the bytes, never for a fixed time. Tests extend it with their own sign-in steps.
 */
export class TestTerminal {
  private readonly deframer = new Deframer();
  private readonly frames: Jt808Frame[] = [];
  private waiters: Array<() => void> = [];
  private serial = 0;
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: Socket,
    readonly phone: string,
    readonly v2019 = false,
  ) {
    socket.on('data', (chunk) => {
      for (const f of this.deframer.push(chunk)) if (Buffer.isBuffer(f)) this.frames.push(decodeFrame(f));
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  /** A connected terminal of this class. */
  static async open<T extends TestTerminal>(this: new (socket: Socket, phone: string, v2019?: boolean) => T, port: number, phone: string, v2019 = false): Promise<T> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new this(socket, phone, v2019);
  }

  /** The frame for a message of this terminal; serials count up unless given. */
  frame(messageId: number, body: Buffer, fields: Partial<HeaderFields> = {}): { bytes: Buffer; serial: number } {
    const serial = fields.serial ?? ++this.serial;
    const edition = this.v2019 ? { v2019: true, protocolVersion: 1 } : {};
    return { bytes: encodeFrame({ messageId, phone: this.phone, serial, ...edition, ...fields }, body), serial };
  }

  write(bytes: Buffer) {
    this.socket.write(bytes);
  }

  send(messageId: number, body: Buffer, fields: Partial<HeaderFields> = {}): number {
    const f = this.frame(messageId, body, fields);
    this.write(f.bytes);
    return f.serial;
  }

  /** The next platform frame of this message id. */
  async next(messageId: number): Promise<Jt808Frame> {
    for (;;) {
      const i = this.frames.findIndex((f) => f.header.messageId === messageId);
      if (i >= 0) return this.frames.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Whether a platform frame of this message id arrived and was not taken. */
  has(messageId: number): boolean {
    return this.frames.some((f) => f.header.messageId === messageId);
  }

  /** The platform frames received and not taken yet. */
  get waiting(): number {
    return this.frames.length;
  }

  /** The platform's next general answer (0x8001), decoded. */
  async answer() {
    return decodeGeneralAnswer((await this.next(MSG.platformAnswer)).body);
  }

  /** The terminal's general answer (0x0001) to a platform frame. */
  reply(to: Jt808Frame, result: number) {
    this.send(MSG.terminalAnswer, encodeGeneralAnswer({ serial: to.header.serial, messageId: to.header.messageId, result }));
  }

  end() {
    this.socket.destroy();
  }
}
