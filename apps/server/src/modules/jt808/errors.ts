// The one error type of the JT/T 808 codec. The gateway answers and logs a bad frame by its code,
// so every failure carries a stable code, and the header's message id, serial and phone whenever
// the header could be read (a wrong check code still names the message it spoiled).

export type Jt808ErrorCode =
  /** bytes outside any frame were skipped (not fatal: the next 0x7e starts a frame) */
  | 'junk'
  /** a frame grew past the size guard before its closing 0x7e; its bytes were dropped */
  | 'frame-too-long'
  /** 0x7d followed by anything but 0x01 or 0x02 */
  | 'bad-escape'
  /** fewer bytes than the smallest header and its check code */
  | 'short-frame'
  /** the XOR of header and body differs from the frame's check code */
  | 'bad-check-code'
  /** the body (or a field inside it) is shorter than its length says */
  | 'short-body'
  /** the frame carries bytes after the body length its header gives */
  | 'long-body'
  /** a field holds a value the standard does not allow (BCD digit, package number...) */
  | 'bad-value'
  /** a value cannot be encoded (body over 1023 bytes, phone too long...) */
  | 'cannot-encode';

export interface Jt808ErrorContext {
  messageId?: number;
  serial?: number;
  phone?: string;
  /** bytes skipped or dropped ('junk', 'frame-too-long') */
  bytes?: number;
}

export class Jt808Error extends Error {
  override readonly name = 'Jt808Error';
  readonly messageId?: number;
  readonly serial?: number;
  readonly phone?: string;
  readonly bytes?: number;

  constructor(
    readonly code: Jt808ErrorCode,
    message: string,
    context: Jt808ErrorContext = {},
  ) {
    super(message);
    Object.assign(this, context);
  }

  /** The same error with the frame's header fields added (body decoders do not see the header). */
  withContext(context: Jt808ErrorContext): Jt808Error {
    return new Jt808Error(this.code, this.message, { ...this.context(), ...context });
  }

  private context(): Jt808ErrorContext {
    return { messageId: this.messageId, serial: this.serial, phone: this.phone, bytes: this.bytes };
  }
}
