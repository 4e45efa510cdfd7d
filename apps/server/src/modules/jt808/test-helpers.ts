// Helpers shared by the JT/T 808 codec's tests: typed-error capture, body truncation, a trip
// through the wire (encode, deframe, decode), and generators of GBK text.
import { expect } from 'vitest';
import fc from 'fast-check';
import { gbk } from './binary.ts';
import { decodeFrame, Deframer, encodeFrame } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { decodeTerminalMessage, type TerminalMessage } from './messages.ts';

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
