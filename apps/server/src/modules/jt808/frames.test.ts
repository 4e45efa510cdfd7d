// Frames published by other open-source JT/T 808 platforms (testdata/frames.ts, sources and
// licences in testdata/NOTICE.md), decoded to values checked by hand against the standard's field
// layout: each coordinate is the hex DWORD over 1e6, each time the BCD digits less 8 hours.
import { describe, expect, it } from 'vitest';
import { decodeFrame, Deframer, unescape } from './codec.ts';
import { Jt808Error } from './errors.ts';
import { decodeLocation, encodeLocation } from './location.ts';
import { decodeTerminalMessage, type TerminalMessage } from './messages.ts';
import { goJt808, smallChi, traccar, yezhihao } from './testdata/frames.ts';

function decode(hex: string): TerminalMessage {
  const items = new Deframer().push(Buffer.from(hex, 'hex'));
  expect(items).toHaveLength(1);
  if (items[0] instanceof Jt808Error) throw items[0];
  return decodeTerminalMessage(decodeFrame(items[0]!));
}

function decodeError(hex: string): Jt808Error {
  try {
    decode(hex);
  } catch (err) {
    if (err instanceof Jt808Error) return err;
    throw err;
  }
  throw new Error('expected a Jt808Error');
}

function as<K extends TerminalMessage['kind']>(msg: TerminalMessage, kind: K): Extract<TerminalMessage, { kind: K }> {
  expect(msg.kind).toBe(kind);
  return msg as Extract<TerminalMessage, { kind: K }>;
}

/** The body of a frame whose check code is known to be spoiled (2013 header, no subpackage). */
function bodyOf(hex: string): Buffer {
  const inner = Buffer.from(hex, 'hex');
  return unescape(inner.subarray(1, inner.length - 1)).subarray(12, -1);
}

describe('traccar frames (2011/2013 terminals)', () => {
  it('registration, 2013 body', () => {
    const m = as(decode(traccar.register2013), 'register');
    expect(m.header).toMatchObject({ messageId: 0x0100, phone: '013511221122', serial: 5, v2019: false, bodyLength: 45 });
    expect(m.registration).toEqual({
      edition: 2013,
      province: 0,
      city: 0,
      manufacturer: '70107',
      model: 'HB-R03GBD',
      terminalId: '2366104',
      plateColour: 2,
      plate: '苏BA6860',
    });
    expect(as(decode(traccar.register2013Shenzhen), 'register').registration).toEqual({
      edition: 2013,
      province: 44,
      city: 303,
      manufacturer: '70111',
      model: 'BSJ-A6-BD',
      terminalId: '0567872',
      plateColour: 1,
      plate: '粤B88888',
    });
  });

  it('registration, 2011 body (8-byte model), told from 2013 by its length', () => {
    const m = as(decode(traccar.register2011), 'register');
    expect(m.header).toMatchObject({ phone: '013345678906', serial: 15 });
    expect(m.registration).toEqual({
      edition: 2011,
      province: 44,
      city: 303,
      manufacturer: '70111',
      model: 'BSJ-M7B ',
      terminalId: '0000000',
      plateColour: 1,
      plate: '粤B88888',
    });
    expect(as(decode(traccar.register2011NoPlate), 'register').registration).toMatchObject({ edition: 2011, plateColour: 0, plate: '' });
  });

  it('authentication and heartbeat', () => {
    const a = as(decode(traccar.authText), 'authenticate');
    expect(a.header).toMatchObject({ messageId: 0x0102, phone: '013511221122', serial: 6 });
    expect(a.auth).toEqual({ code: 'authentication' });
    expect(as(decode(traccar.authDigits), 'authenticate').auth).toEqual({ code: '2011110811332196' });
    const h = as(decode(traccar.heartbeat), 'heartbeat');
    expect(h.header).toMatchObject({ messageId: 0x0002, phone: '043048325465', serial: 0xb7, bodyLength: 0 });
  });

  it('a wrong check code is refused naming the message, serial and phone', () => {
    expect(decodeError(traccar.locationBadCheck)).toMatchObject({ code: 'bad-check-code', messageId: 0x0200, serial: 7, phone: '013511221122' });
  });

  it('location with mileage, fuel and recorder speed', () => {
    const m = as(decode(traccar.locationShenzhen), 'location');
    expect(m.header).toMatchObject({ phone: '013833501744', serial: 0x19 });
    expect(m.location).toEqual({
      alarm: 0,
      alarms: [],
      status: 0xc2,
      acc: false,
      positioned: true,
      latitude: 22.6426, // 0x01597FA8
      longitude: 114.032984, // 0x06CC0158
      altitude: 128,
      speedKmh: 0,
      direction: 8,
      time: new Date('2015-08-17T23:21:21Z'), // 150818072121 GMT+8
      mileageKm: 75.7, // 0x02F5
      fuelLitres: 0,
      recorderSpeedKmh: 0,
      extras: {},
    });
  });

  it('south latitude, signal, satellites and vendor items kept raw', () => {
    const m = as(decode(traccar.locationAdelaide), 'location');
    expect(m.location).toMatchObject({
      status: 7,
      acc: true,
      positioned: true,
      latitude: -34.895833, // 0x021477D9, south bit
      longitude: 138.514951, // 0x08419207
      direction: 80,
      time: new Date('2019-11-05T07:19:40Z'),
      mileageKm: 574.5,
      signal: 22,
      satellites: 12,
      extras: { '0xd0': '00000400', '0xd3': '0027', '0xd4': '3f', '0xd6': Buffer.from('89610182000483652830').toString('hex'), '0xda': '04' },
    });
    // items in ascending order: encoding what was decoded gives the terminal's bytes back
    expect(encodeLocation(m.location)).toEqual(decodeFrame(new Deframer().push(Buffer.from(traccar.locationAdelaide, 'hex'))[0] as Buffer).body);
  });

  it('items running past the body are kept as trailing bytes, the fix is not lost', () => {
    const m = as(decode(traccar.locationBrisbane), 'location');
    expect(m.location).toMatchObject({ latitude: -27.455656, longitude: 153.029616, direction: 237, time: new Date('2020-11-02T19:17:33Z') });
    expect(m.location.trailing).toBe('00780000000018000000');
  });

  it('west longitude with the SOS alarm', () => {
    const m = as(decode(traccar.locationEnglandSos), 'location');
    expect(m.location).toMatchObject({
      alarm: 1,
      alarms: ['sos'],
      latitude: 50.871735,
      longitude: -1.255923, // 0x001329F3, west bit
      speedKmh: 2,
      time: new Date('2013-04-12T08:49:52Z'),
      mileageKm: 1.8,
      extras: { '0x36': '0002341502cb0c20085c' },
    });
    const m2 = as(decode(traccar.locationBrazil), 'location');
    expect(m2.location).toMatchObject({ status: 0x400e, latitude: -19.591535, longitude: -46.912186, mileageKm: 11.9, time: new Date('2015-01-01T11:42:57Z') });
  });

  it('ACC on without a fix, and alarm bit 17', () => {
    expect(as(decode(traccar.locationUnpositioned), 'location').location).toMatchObject({ acc: true, positioned: false, signal: 27, satellites: 3, mileageKm: 4326.4 });
    const m = as(decode(traccar.locationAlarm17), 'location');
    expect(m.location).toMatchObject({
      alarm: 0x00020000,
      alarms: ['right-turn-blind-spot'],
      latitude: 22.375883,
      longitude: 113.562653,
      speedKmh: 24.1,
      direction: 252,
      time: new Date('2021-01-18T01:58:53Z'),
      extras: { '0xfe': '40', '0xff': '01cc000000002694000055d8' },
    });
  });

  it('0x0704 blind-area batches, each fix at its own time', () => {
    const a = as(decode(traccar.batchShenzhen), 'batch');
    expect(a.header).toMatchObject({ messageId: 0x0704, phone: '013567777777', serial: 0x07f5 });
    expect(a.batch.type).toBe(1);
    expect(a.batch.items.map((l) => l.time?.toISOString())).toEqual([
      '2016-05-27T01:06:24.000Z',
      '2016-05-27T01:06:53.000Z',
      '2016-05-27T01:07:27.000Z',
      '2016-05-27T01:07:56.000Z',
      '2016-05-27T01:08:30.000Z',
      '2016-05-27T01:09:00.000Z',
      '2016-05-27T01:09:33.000Z',
      '2016-05-27T01:10:02.000Z',
    ]);
    expect(a.batch.items[0]).toMatchObject({ latitude: 22.639634, longitude: 114.031952, altitude: 370, mileageKm: 2.9 });

    const b = as(decode(traccar.batchPowerCut), 'batch');
    expect(b.batch.items.map((l) => l.alarms)).toEqual([[], [], [], ['power-cut']]);
    expect(b.batch.items[3]).toMatchObject({ status: 0x0803, latitude: 23.169768, longitude: 113.45068, direction: 159 });

    const c = as(decode(traccar.batchCasablanca), 'batch');
    expect(c.batch.items.map((l) => [l.latitude, l.longitude, l.speedKmh])).toEqual([
      [33.576916, -7.535516, 37],
      [33.576716, -7.53605, 31],
      [33.57662, -7.536283, 21],
    ]);
  });
});

describe('go-jt808 frames (each edition)', () => {
  const reg = { province: 31, city: 115, manufacturer: 'cd', terminalId: '7654321', plateColour: 1, plate: '测A1234' };

  it('registration in 2011, 2013 and 2019', () => {
    const r11 = as(decode(goJt808.register2011), 'register');
    expect(r11.registration).toEqual({ ...reg, edition: 2011, model: 'www.808.' });
    expect(r11.header).toMatchObject({ v2019: false, phone: '012345678901' });
    expect(as(decode(goJt808.register2013), 'register').registration).toEqual({ ...reg, edition: 2013, model: 'www.808.com' });
    const r19 = as(decode(goJt808.register2019), 'register');
    expect(r19.header).toMatchObject({ v2019: true, protocolVersion: 1, phone: '00000000017299841738', bodyLength: 83 });
    expect(r19.registration).toEqual({ ...reg, edition: 2019, model: 'www.808.com' });
  });

  it('2019 authentication with IMEI and software version', () => {
    const a = as(decode(goJt808.auth2019), 'authenticate');
    expect(a.auth).toEqual({ code: '17299841738', imei: '123456789012345', softwareVersion: '3.7.15' });
  });

  it('an escaped 0x7e inside the body', () => {
    expect(goJt808.locationEscaped).toContain('7d02');
    expect(as(decode(goJt808.locationEscaped), 'location').location).toMatchObject({ latitude: 119.552894, altitude: 312, speedKmh: 0.3, direction: 99 });
  });

  it('a subpackage header, and a check code of 0x7d sent unescaped', () => {
    const m = decodeFrame(new Deframer().push(Buffer.from(goJt808.subpackage, 'hex'))[0] as Buffer);
    expect(m.header).toMatchObject({ messageId: 0x0801, phone: '001234567890', serial: 734, packages: { total: 26, index: 2 } });
    expect(m.body.toString('hex')).toBe('2808000102');
    expect(as(decode(goJt808.unescapedCheckCode), 'heartbeat').header).toMatchObject({ phone: '000000000679', serial: 0 });
  });

  it('broken frames give typed errors', () => {
    expect(decodeError(goJt808.badCheckCode)).toMatchObject({ code: 'bad-check-code', messageId: 0x0801, serial: 734 });
    expect(decodeError(goJt808.shortBody)).toMatchObject({ code: 'short-body', messageId: 0x0801, serial: 734 });
    expect(decodeError(goJt808.shortHeader).code).toBe('short-frame');
  });
});

describe('SmallChi frames (the 2019 flag on a 2013 header; field location bodies)', () => {
  it('reads the flagged frames as 2013', () => {
    const a = as(decode(smallChi.flaggedAuth2013), 'authenticate');
    expect(a.header).toMatchObject({ v2019: false, phone: '010030000681', serial: 0x0902 });
    expect(a.auth).toEqual({ code: 'J10030000681' });
    const l = as(decode(smallChi.flaggedLocation2013), 'location');
    expect(l.header).toMatchObject({ v2019: false, phone: '010030000681', serial: 0x090e, bodyLength: 108 });
    expect(l.location).toMatchObject({
      status: 0x000c0003,
      latitude: 40.670063, // 0x026C936F
      longitude: 122.4523, // 0x074C794C
      altitude: 4,
      speedKmh: 86.7,
      direction: 215,
      time: new Date('2021-06-25T07:57:39Z'),
      signal: 21,
      satellites: 18,
    });
    expect(l.location.extras['0x5f']).toBe('89860418231870850620');
  });

  it('a repeated item id and a truncated last item', () => {
    const rep = decodeLocation(bodyOf(smallChi.repeatedItemIds));
    expect(rep).toMatchObject({ latitude: 24.681268, longitude: 102.992634, mileageKm: 941.5, signal: 23, satellites: 27, time: new Date('2021-04-01T16:46:09Z') });
    expect(rep.extras).toMatchObject({ '0x2b': '0b290b29', '0x00': '00b222222222222222222222' });
    const cut = decodeLocation(bodyOf(smallChi.truncatedItem));
    expect(cut).toMatchObject({ latitude: 32.910979, longitude: 118.783122, altitude: 30, direction: 30, time: new Date('2011-01-10T19:11:52Z') });
    expect(cut.trailing).toBe('f6041450');
    expect(Object.keys(cut.extras)).toEqual(['0x05', '0x06', '0x07', '0x25', '0x2b', '0xe0', '0xe1', '0xe2', '0xe3', '0xe4', '0xe5', '0xea', '0xeb', '0xee']);
  });
});

describe('yezhihao frame (2019 location)', () => {
  it('reads the 2019 header and the standard items', () => {
    const m = as(decode(yezhihao.location2019), 'location');
    expect(m.header).toMatchObject({ v2019: true, protocolVersion: 1, phone: '00000000017299841738', serial: 0xffff, bodyLength: 124 });
    expect(m.location).toMatchObject({
      alarms: ['tts-fault'],
      latitude: 116.307629, // the source's longitude, as sent
      longitude: 40.058359,
      altitude: 312,
      speedKmh: 0.3,
      direction: 99,
      time: new Date('2020-07-07T11:23:59Z'),
      mileageKm: 1.1,
      fuelLitres: 2.2,
      recorderSpeedKmh: 3.3,
      signal: 30,
      satellites: 40,
    });
  });
});

describe('every published frame in one stream', () => {
  const all = [...Object.values(traccar), ...Object.values(goJt808), ...Object.values(smallChi), ...Object.values(yezhihao)];
  const stream = Buffer.concat(all.flatMap((h, i) => [Buffer.from(i % 3 === 0 ? 'AT+JUNK\r\n' : ''), Buffer.from(h, 'hex')]));
  const inner = all.map((h) => Buffer.from(h, 'hex').subarray(1, -1).toString('hex'));

  it('is cut into the same frames wherever the reads split it', () => {
    for (let i = 0; i <= stream.length; i += 7) {
      const d = new Deframer();
      const out = [...d.push(stream.subarray(0, i)), ...d.push(stream.subarray(i))];
      expect(out.filter((x) => Buffer.isBuffer(x)).map((b) => (b as Buffer).toString('hex'))).toEqual(inner);
      expect(out.filter((x) => x instanceof Jt808Error).map((e) => (e as Jt808Error).code)).toEqual(all.filter((_, k) => k % 3 === 0).map(() => 'junk'));
    }
  });
});
