// JT/T 808 message ids, the bodies of the terminal lifecycle (registration, authentication) and
// the general answers, each with a decoder returning a typed object and an encoder taking one
// (the gateway decodes what terminals send and encodes what the platform sends; the simulator
// does the reverse). Locations are in location.ts, platform commands in commands.ts.
// `decodeTerminalMessage` dispatches a whole terminal frame by its id.
import { Reader, Writer, gbk } from './binary.ts';
import type { Jt808Frame, Jt808Header } from './codec.ts';
import { decodeAttributes, type TerminalAttributes } from './commands.ts';
import { Jt808Error } from './errors.ts';
import {
  decodeLocation,
  decodeLocationBatch,
  decodePositionAnswer,
  type Location,
  type LocationBatch,
  type PositionAnswer,
} from './location.ts';

export const MSG = {
  terminalAnswer: 0x0001,
  heartbeat: 0x0002,
  deregister: 0x0003,
  register: 0x0100,
  authenticate: 0x0102,
  attributes: 0x0107,
  location: 0x0200,
  positionAnswer: 0x0201,
  locationBatch: 0x0704,
  platformAnswer: 0x8001,
  registerAnswer: 0x8100,
  setParameters: 0x8103,
  terminalControl: 0x8105,
  attributesQuery: 0x8107,
  positionQuery: 0x8201,
  textMessage: 0x8300,
} as const;

export type Edition = 2011 | 2013 | 2019;

// ---- 0x0100 registration --------------------------------------------------------------------

export interface Registration {
  edition: Edition;
  /** Province code (GB/T 2260, first two digits). */
  province: number;
  /** City or county code (GB/T 2260, last four digits). */
  city: number;
  manufacturer: string;
  model: string;
  terminalId: string;
  /** JT/T 415 plate colour; 0 means not registered, and the plate field then holds the VIN. */
  plateColour: number;
  plate: string;
}

const REGISTRATION_WIDTHS: Record<Edition, { manufacturer: number; model: number; terminalId: number }> = {
  2011: { manufacturer: 5, model: 8, terminalId: 7 },
  2013: { manufacturer: 5, model: 20, terminalId: 7 },
  2019: { manufacturer: 11, model: 30, terminalId: 30 },
};

/** 2013's fixed part: province, city, manufacturer, model, terminal id, plate colour. */
const REGISTRATION_2013_FIXED = 2 + 2 + 5 + 20 + 7 + 1;

/**
 * 2019 is told by the header's flag; 2011 from 2013 by the body length, as public decoders do:
 * 2011's fixed part is 25 bytes and 2013's 37, and a plate is 9 bytes at most in GBK. (A 2011
 * terminal sending a 17-character VIN as its plate would be read as 2013; none has been seen.)
 */
export function decodeRegistration(body: Buffer, v2019: boolean): Registration {
  const edition: Edition = v2019 ? 2019 : body.length >= REGISTRATION_2013_FIXED ? 2013 : 2011;
  const widths = REGISTRATION_WIDTHS[edition];
  const r = new Reader(body, `0x0100 body (${edition})`);
  return {
    edition,
    province: r.u16(),
    city: r.u16(),
    manufacturer: r.text(widths.manufacturer),
    model: r.text(widths.model),
    terminalId: r.text(widths.terminalId),
    plateColour: r.u8(),
    plate: r.restText(),
  };
}

export function encodeRegistration(reg: Registration): Buffer {
  const widths = REGISTRATION_WIDTHS[reg.edition];
  return new Writer()
    .u16(reg.province)
    .u16(reg.city)
    .text(reg.manufacturer, widths.manufacturer)
    .text(reg.model, widths.model)
    .text(reg.terminalId, widths.terminalId)
    .u8(reg.plateColour)
    .restText(reg.plate)
    .done();
}

// ---- 0x8100 registration answer -------------------------------------------------------------

export const REGISTER_RESULT = {
  ok: 0,
  vehicleAlreadyRegistered: 1,
  vehicleNotInDatabase: 2,
  terminalAlreadyRegistered: 3,
  terminalNotInDatabase: 4,
} as const;

export interface RegistrationAnswer {
  /** Serial of the 0x0100 answered. */
  serial: number;
  result: number;
  /** Only with result 0. */
  authCode?: string;
}

export function decodeRegistrationAnswer(body: Buffer): RegistrationAnswer {
  const r = new Reader(body, '0x8100 body');
  const serial = r.u16();
  const result = r.u8();
  return result === REGISTER_RESULT.ok ? { serial, result, authCode: r.restText() } : { serial, result };
}

export function encodeRegistrationAnswer(answer: RegistrationAnswer): Buffer {
  const w = new Writer().u16(answer.serial).u8(answer.result);
  if (answer.result === REGISTER_RESULT.ok) w.restText(answer.authCode ?? '');
  return w.done();
}

// ---- 0x0102 authentication ------------------------------------------------------------------

export interface Authentication {
  code: string;
  /** 2019 only. */
  imei?: string;
  /** 2019 only. */
  softwareVersion?: string;
}

/** 2011/2013: the whole body is the code. 2019: code length, code, IMEI[15], software version[20]. */
export function decodeAuthentication(body: Buffer, v2019: boolean): Authentication {
  if (!v2019) return { code: new Reader(body).restText() };
  const r = new Reader(body, '0x0102 body (2019)');
  const code = r.text(r.u8());
  return { code, imei: r.text(15), softwareVersion: r.text(20) };
}

export function encodeAuthentication(auth: Authentication, v2019: boolean): Buffer {
  if (!v2019) return gbk(auth.code);
  const code = gbk(auth.code);
  if (code.length > 0xff) throw new Jt808Error('cannot-encode', `authentication code of ${code.length} bytes`);
  return new Writer()
    .u8(code.length)
    .raw(code)
    .text(auth.imei ?? '', 15)
    .text(auth.softwareVersion ?? '', 20)
    .done();
}

// ---- 0x8001 platform and 0x0001 terminal general answers --------------------------------------

export const ANSWER_RESULT = { ok: 0, failure: 1, wrongMessage: 2, notSupported: 3, alarmConfirmed: 4 } as const;

export interface GeneralAnswer {
  /** Serial of the message answered. */
  serial: number;
  /** Id of the message answered. */
  messageId: number;
  result: number;
}

export function decodeGeneralAnswer(body: Buffer): GeneralAnswer {
  const r = new Reader(body, 'general answer');
  return { serial: r.u16(), messageId: r.u16(), result: r.u8() };
}

export function encodeGeneralAnswer(answer: GeneralAnswer): Buffer {
  return new Writer().u16(answer.serial).u16(answer.messageId).u8(answer.result).done();
}

// ---- dispatch -----------------------------------------------------------------------------------

/** A decoded terminal-to-platform frame, by message id. */
export type TerminalMessage =
  | { kind: 'answer'; header: Jt808Header; answer: GeneralAnswer }
  | { kind: 'heartbeat'; header: Jt808Header }
  | { kind: 'deregister'; header: Jt808Header }
  | { kind: 'register'; header: Jt808Header; registration: Registration }
  | { kind: 'authenticate'; header: Jt808Header; auth: Authentication }
  | { kind: 'attributes'; header: Jt808Header; attributes: TerminalAttributes }
  | { kind: 'location'; header: Jt808Header; location: Location }
  | { kind: 'position-answer'; header: Jt808Header; answer: PositionAnswer }
  | { kind: 'batch'; header: Jt808Header; batch: LocationBatch }
  /** An id the codec has no decoder for (the gateway answers "not supported"). */
  | { kind: 'unknown'; header: Jt808Header; body: Buffer };

/**
 * Decodes a whole (reassembled) terminal frame. Body errors are rethrown with the header's id,
 * serial and phone so the gateway can answer them. An encrypted body is not decoded ('bad-value').
 */
export function decodeTerminalMessage(frame: Jt808Frame): TerminalMessage {
  const { header, body } = frame;
  try {
    if (header.encryption !== 0) throw new Jt808Error('bad-value', `encrypted body (method ${header.encryption})`);
    const v2019 = header.v2019;
    switch (header.messageId) {
      case MSG.terminalAnswer:
        return { kind: 'answer', header, answer: decodeGeneralAnswer(body) };
      case MSG.heartbeat:
        return { kind: 'heartbeat', header };
      case MSG.deregister:
        return { kind: 'deregister', header };
      case MSG.register:
        return { kind: 'register', header, registration: decodeRegistration(body, v2019) };
      case MSG.authenticate:
        return { kind: 'authenticate', header, auth: decodeAuthentication(body, v2019) };
      case MSG.attributes:
        return { kind: 'attributes', header, attributes: decodeAttributes(body, v2019) };
      case MSG.location:
        return { kind: 'location', header, location: decodeLocation(body) };
      case MSG.positionAnswer:
        return { kind: 'position-answer', header, answer: decodePositionAnswer(body) };
      case MSG.locationBatch:
        return { kind: 'batch', header, batch: decodeLocationBatch(body) };
      default:
        return { kind: 'unknown', header, body };
    }
  } catch (err) {
    if (err instanceof Jt808Error) throw err.withContext({ messageId: header.messageId, serial: header.serial, phone: header.phone });
    throw err;
  }
}

