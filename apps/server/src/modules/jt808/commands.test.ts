// Platform command bodies (0x8300, 0x8105, 0x8103) and the 0x0107 attributes: round trips in
// each edition, known bytes, and typed errors for bodies cut short.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeAttributes,
  decodeSetParameters,
  decodeTerminalControl,
  decodeTextMessage,
  encodeAttributes,
  encodeSetParameters,
  encodeTerminalControl,
  encodeTextMessage,
} from './commands.ts';
import { MSG } from './messages.ts';
import { ALNUM, PROVINCES, refusesEveryCut, text, thrown, throughWire } from './test-helpers.ts';

describe('0x8300 text message', () => {
  it('round-trips GBK text, with the text type in 2019', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), text(200, ALNUM + PROVINCES + '，。请注意冷机温度'), (flags, textType, t) => {
        expect(decodeTextMessage(encodeTextMessage({ flags, text: t }, false), false)).toEqual({ flags, text: t });
        expect(decodeTextMessage(encodeTextMessage({ flags, textType, text: t }, true), true)).toEqual({ flags, textType, text: t });
      }),
    );
    expect(encodeTextMessage({ flags: 0x0c, text: '测' }, false).toString('hex')).toBe('0cb2e2');
    expect(encodeTextMessage({ flags: 0x0c, text: '测' }, true).toString('hex')).toBe('0c01b2e2');
    expect(thrown(() => decodeTextMessage(Buffer.from('0c', 'hex'), true)).code).toBe('short-body');
  });
});

describe('0x8105 terminal control', () => {
  it('round-trips the command word and its parameters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), text(100, ALNUM + ';:/.'), (command, params) => {
        expect(decodeTerminalControl(encodeTerminalControl({ command, params }))).toEqual({ command, params });
      }),
    );
    expect(encodeTerminalControl({ command: 4, params: '' }).toString('hex')).toBe('04');
    expect(thrown(() => decodeTerminalControl(Buffer.alloc(0))).code).toBe('short-body');
  });
});

describe('0x8103 set terminal parameters', () => {
  it('encodes the named parameters by their ids and types', () => {
    expect(encodeSetParameters({ reportIntervalSeconds: 30 }).toString('hex')).toBe('01' + '00000029' + '04' + '0000001e');
    expect(encodeSetParameters({ mainServer: 'gps.example.cn', heartbeatSeconds: 60 }).toString('hex')).toBe(
      '02' + '00000001' + '04' + '0000003c' + '00000013' + '0e' + Buffer.from('gps.example.cn').toString('hex'),
    );
  });

  it('round-trips named and other parameters', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            heartbeatSeconds: fc.integer({ min: 0, max: 0xffffffff }),
            mainServer: text(60, ALNUM + '.:'),
            sleepReportIntervalSeconds: fc.integer({ min: 0, max: 0xffffffff }),
            reportIntervalSeconds: fc.integer({ min: 0, max: 0xffffffff }),
            maxSpeedKmh: fc.integer({ min: 0, max: 0xffffffff }),
            other: fc.dictionary(
              fc.integer({ min: 0x0100, max: 0xffff }).map((id) => `0x${id.toString(16).padStart(4, '0')}`),
              fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b).toString('hex')),
              { minKeys: 1 },
            ),
          },
          { requiredKeys: [] },
        ),
        (params) => {
          expect(decodeSetParameters(encodeSetParameters(params))).toEqual(params);
        },
      ),
    );
    refusesEveryCut(encodeSetParameters({ reportIntervalSeconds: 30, mainServer: 'a' }), decodeSetParameters);
  });
});

describe('0x0107 terminal attributes', () => {
  it('round-trips in 2013 and 2019 widths', () => {
    for (const v2019 of [false, true]) {
      const a = {
        terminalType: 0x0006,
        manufacturer: '70111',
        model: v2019 ? 'A-very-long-2019-model-name' : 'BSJ-A6',
        terminalId: v2019 ? 'ID-0123456789-0123456789' : '0567872',
        iccid: '89860418231870850620',
        hardwareVersion: 'HW1.2',
        firmwareVersion: 'FW 3.7.15',
        gnss: 0x03,
        comm: 0x21,
      };
      const body = encodeAttributes(a, v2019);
      expect(decodeAttributes(body, v2019)).toEqual(a);
      refusesEveryCut(body, (b) => decodeAttributes(b, v2019));
      expect(throughWire({ messageId: MSG.attributes, v2019 }, body)).toMatchObject({ kind: 'attributes', attributes: a });
    }
  });
});
