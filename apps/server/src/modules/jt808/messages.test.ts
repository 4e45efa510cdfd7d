// Message bodies of the terminal lifecycle and the general answers: round trips in every edition
// (body and whole frame), the 2011/2013 registration guess, known bytes, typed errors for bodies
// cut short, and the dispatcher.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFrame, Deframer, encodeFrame } from './codec.ts';
import { encodeLocation } from './location.ts';
import {
  decodeAuthentication,
  decodeGeneralAnswer,
  decodeRegistration,
  decodeRegistrationAnswer,
  decodeTerminalMessage,
  encodeAuthentication,
  encodeGeneralAnswer,
  encodeRegistration,
  encodeRegistrationAnswer,
  MSG,
  REGISTER_RESULT,
  type Edition,
  type Registration,
} from './messages.ts';
import { ALNUM, PROVINCES, refusesEveryCut, text, thrown, throughWire } from './test-helpers.ts';

const plate = fc.tuple(fc.constantFrom(...PROVINCES), fc.array(fc.constantFrom(...ALNUM), { minLength: 5, maxLength: 7 })).map(([p, rest]) => p + rest.join(''));

const WIDTHS = { 2011: [5, 8, 7], 2013: [5, 20, 7], 2019: [11, 30, 30] } as const;

const registrationArb = (edition: Edition): fc.Arbitrary<Registration> =>
  fc.record({
    edition: fc.constant(edition),
    province: fc.integer({ min: 0, max: 0xffff }),
    city: fc.integer({ min: 0, max: 0xffff }),
    manufacturer: text(WIDTHS[edition][0]),
    model: text(WIDTHS[edition][1]),
    terminalId: text(WIDTHS[edition][2]),
    plateColour: fc.integer({ min: 0, max: 255 }),
    plate,
  });

describe('0x0100 registration', () => {
  for (const edition of [2011, 2013, 2019] as const) {
    it(`round-trips the ${edition} body, telling the edition as a platform must`, () => {
      fc.assert(
        fc.property(registrationArb(edition), (reg) => {
          expect(decodeRegistration(encodeRegistration(reg), edition === 2019)).toEqual(reg);
          const msg = throughWire({ messageId: MSG.register, v2019: edition === 2019 }, encodeRegistration(reg));
          expect(msg).toMatchObject({ kind: 'register', registration: reg });
        }),
      );
    });
  }

  it('has the field widths of each edition', () => {
    const reg = { province: 44, city: 303, manufacturer: '70111', model: 'M7', terminalId: 'T1', plateColour: 1, plate: '粤B88888' };
    // fixed part + 8-byte GBK plate
    expect(encodeRegistration({ ...reg, edition: 2011 }).length).toBe(25 + 8);
    expect(encodeRegistration({ ...reg, edition: 2013 }).length).toBe(37 + 8);
    expect(encodeRegistration({ ...reg, edition: 2019 }).length).toBe(76 + 8);
    expect(encodeRegistration({ ...reg, edition: 2013 }).subarray(9, 29).toString('hex')).toBe('4d37' + '00'.repeat(18));
  });

  it('refuses a body cut short, and text too long for its field', () => {
    refusesEveryCut(encodeRegistration({ edition: 2019, province: 1, city: 2, manufacturer: 'm', model: 'x', terminalId: 'y', plateColour: 1, plate: '' }), (b) => decodeRegistration(b, true));
    refusesEveryCut(Buffer.alloc(25), (b) => decodeRegistration(b, false));
    const long = { edition: 2011 as const, province: 1, city: 2, manufacturer: 'm', model: 'too long a model', terminalId: 'y', plateColour: 1, plate: '' };
    expect(thrown(() => encodeRegistration(long)).code).toBe('cannot-encode');
  });
});

describe('0x8100 registration answer', () => {
  it('carries the code only with result 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 4 }), text(40), (serial, result, code) => {
        const answer = result === 0 ? { serial, result, authCode: code } : { serial, result };
        expect(decodeRegistrationAnswer(encodeRegistrationAnswer(answer))).toEqual(answer);
      }),
    );
    expect(encodeRegistrationAnswer({ serial: 5, result: REGISTER_RESULT.terminalNotInDatabase, authCode: 'ignored' }).toString('hex')).toBe('000504');
    expect(encodeRegistrationAnswer({ serial: 5, result: REGISTER_RESULT.ok, authCode: 'AB' }).toString('hex')).toBe('0005004142');
    refusesEveryCut(Buffer.from('000500', 'hex'), decodeRegistrationAnswer);
  });
});

describe('0x0102 authentication', () => {
  it('is the whole body in 2011/2013 and length, code, IMEI, version in 2019', () => {
    fc.assert(
      fc.property(text(60), fc.array(fc.constantFrom(...'0123456789'), { minLength: 15, maxLength: 15 }), text(20), (code, imei, softwareVersion) => {
        expect(decodeAuthentication(encodeAuthentication({ code }, false), false)).toEqual({ code });
        const auth19 = { code, imei: imei.join(''), softwareVersion };
        expect(decodeAuthentication(encodeAuthentication(auth19, true), true)).toEqual(auth19);
        expect(throughWire({ messageId: MSG.authenticate, v2019: true }, encodeAuthentication(auth19, true))).toMatchObject({ kind: 'authenticate', auth: auth19 });
      }),
    );
    expect(encodeAuthentication({ code: 'ab', imei: '1', softwareVersion: 'v' }, true).length).toBe(1 + 2 + 15 + 20);
    refusesEveryCut(encodeAuthentication({ code: 'abc', imei: '123', softwareVersion: '1' }, true), (b) => decodeAuthentication(b, true));
  });
});

describe('general answers 0x8001 and 0x0001', () => {
  it('round-trip serial, message id and result', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 4 }), (serial, messageId, result) => {
        expect(decodeGeneralAnswer(encodeGeneralAnswer({ serial, messageId, result }))).toEqual({ serial, messageId, result });
      }),
    );
    expect(encodeGeneralAnswer({ serial: 0x00b7, messageId: 0x0002, result: 0 }).toString('hex')).toBe('00b7000200');
    refusesEveryCut(encodeGeneralAnswer({ serial: 1, messageId: 2, result: 0 }), decodeGeneralAnswer);
    expect(throughWire({ messageId: MSG.terminalAnswer }, encodeGeneralAnswer({ serial: 9, messageId: MSG.textMessage, result: 0 }))).toMatchObject({
      kind: 'answer',
      answer: { serial: 9, messageId: 0x8300, result: 0 },
    });
  });
});

describe('decodeTerminalMessage', () => {
  it('dispatches by id and keeps unknown ids raw', () => {
    expect(throughWire({ messageId: MSG.heartbeat }, Buffer.alloc(0)).kind).toBe('heartbeat');
    expect(throughWire({ messageId: MSG.deregister }, Buffer.alloc(0)).kind).toBe('deregister');
    expect(throughWire({ messageId: 0x0900 }, Buffer.from('f1'))).toMatchObject({ kind: 'unknown', body: Buffer.from('f1') });
  });

  it('names the message in a body error', () => {
    const location = encodeLocation({ latitude: 1, longitude: 2, time: null });
    expect(thrown(() => throughWire({ messageId: MSG.location }, location.subarray(0, 20)))).toMatchObject({
      code: 'short-body',
      messageId: 0x0200,
      serial: 42,
      phone: '013912345678',
    });
  });

  it('does not decode an encrypted body', () => {
    const [frame] = new Deframer().push(encodeFrame({ messageId: MSG.location, phone: '1', serial: 3, encryption: 1 }, Buffer.alloc(28)));
    expect(thrown(() => decodeTerminalMessage(decodeFrame(frame as Buffer)))).toMatchObject({ code: 'bad-value', messageId: 0x0200, serial: 3 });
  });
});
