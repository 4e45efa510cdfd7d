// JT/T 808 platform commands and what they ask of the terminal: 0x8300 text message, 0x8105
// terminal control, 0x8103 set terminal parameters, and the 0x0107 attributes a terminal answers
// 0x8107 with (0x8201 position query and 0x8107 have empty bodies). Each body has a decoder and an
// encoder, so the gateway sends them and the simulator reads them with the same code.
import { Reader, Writer, gbk } from './binary.ts';
import { Jt808Error } from './errors.ts';

// ---- 0x8300 text message ----------------------------------------------------------------------

/** Bits of the text flag byte (2013): where and how the terminal shows the text. */
export const TEXT_FLAG = { emergency: 0x01, display: 0x04, tts: 0x08, advertisingScreen: 0x10 } as const;

export interface TextMessage {
  flags: number;
  text: string;
  /** 2019 only: 1 notice, 2 service information. */
  textType?: number;
}

export function decodeTextMessage(body: Buffer, v2019: boolean): TextMessage {
  const r = new Reader(body, '0x8300 body');
  const flags = r.u8();
  if (!v2019) return { flags, text: r.restText() };
  const textType = r.u8();
  return { flags, textType, text: r.restText() };
}

export function encodeTextMessage(message: TextMessage, v2019: boolean): Buffer {
  const w = new Writer().u8(message.flags);
  if (v2019) w.u8(message.textType ?? 1);
  return w.restText(message.text).done();
}

// ---- 0x8105 terminal control ------------------------------------------------------------------

export const CONTROL_COMMAND = {
  wirelessUpgrade: 1,
  connectServer: 2,
  powerOff: 3,
  reset: 4,
  factoryReset: 5,
  closeDataLink: 6,
  closeWireless: 7,
} as const;

export interface TerminalControl {
  command: number;
  /** Parameters separated by ';' (commands 1 and 2), empty otherwise. */
  params: string;
}

export function decodeTerminalControl(body: Buffer): TerminalControl {
  const r = new Reader(body, '0x8105 body');
  return { command: r.u8(), params: r.restText() };
}

export function encodeTerminalControl(control: TerminalControl): Buffer {
  return new Writer().u8(control.command).restText(control.params).done();
}

// ---- 0x8103 set terminal parameters -------------------------------------------------------------

/** Parameters the platform sets by name: id and value type. */
export const PARAMETERS = {
  heartbeatSeconds: { id: 0x0001, type: 'dword' },
  mainServer: { id: 0x0013, type: 'string' },
  sleepReportIntervalSeconds: { id: 0x0027, type: 'dword' },
  reportIntervalSeconds: { id: 0x0029, type: 'dword' },
  maxSpeedKmh: { id: 0x0055, type: 'dword' },
} as const;

type ParameterName = keyof typeof PARAMETERS;
type ParameterValue<N extends ParameterName> = (typeof PARAMETERS)[N]['type'] extends 'string' ? string : number;

export type TerminalParameters = { [N in ParameterName]?: ParameterValue<N> } & {
  /** Every other parameter: "0x0075" -> value hex. */
  other?: Record<string, string>;
};

export function parameterKey(id: number): string {
  return `0x${id.toString(16).padStart(4, '0')}`;
}

const PARAMETER_BY_ID = new Map(Object.entries(PARAMETERS).map(([name, p]) => [p.id as number, { name: name as ParameterName, type: p.type }]));

export function decodeSetParameters(body: Buffer): TerminalParameters {
  const r = new Reader(body, '0x8103 body');
  const count = r.u8();
  const params: TerminalParameters = {};
  const set = params as Record<string, unknown>;
  for (let i = 0; i < count; i++) {
    const id = r.u32();
    const value = r.bytes(r.u8());
    const known = PARAMETER_BY_ID.get(id);
    if (known?.type === 'dword' && value.length === 4) set[known.name] = value.readUInt32BE(0);
    else if (known?.type === 'string') set[known.name] = new Reader(value).restText();
    else (params.other ??= {})[parameterKey(id)] = value.toString('hex');
  }
  return params;
}

export function encodeSetParameters(params: TerminalParameters): Buffer {
  const items: Array<[number, Buffer]> = [];
  for (const [name, p] of Object.entries(PARAMETERS) as Array<[ParameterName, (typeof PARAMETERS)[ParameterName]]>) {
    const value = params[name];
    if (value === undefined) continue;
    if (p.type === 'string') items.push([p.id, gbk(String(value))]);
    else items.push([p.id, new Writer().u32(Number(value)).done()]);
  }
  for (const [key, hex] of Object.entries(params.other ?? {})) {
    if (!/^0x[0-9a-f]{4,8}$/i.test(key) || !/^([0-9a-f]{2})*$/i.test(hex)) {
      throw new Jt808Error('cannot-encode', `parameter ${key} = ${hex}`);
    }
    items.push([Number(key), Buffer.from(hex, 'hex')]);
  }
  if (items.length > 0xff) throw new Jt808Error('cannot-encode', `${items.length} parameters in one message`);
  const w = new Writer().u8(items.length);
  for (const [id, value] of items.sort((a, b) => a[0] - b[0])) {
    if (value.length > 0xff) throw new Jt808Error('cannot-encode', `parameter ${parameterKey(id)} of ${value.length} bytes`);
    w.u32(id).u8(value.length).raw(value);
  }
  return w.done();
}

// ---- 0x0107 terminal attributes (answer to 0x8107, which has an empty body) ----------------------

export interface TerminalAttributes {
  /** Bits: passenger, dangerous goods, freight, taxi, video, split unit (2013 table 20). */
  terminalType: number;
  manufacturer: string;
  model: string;
  terminalId: string;
  /** SIM card ICCID, 20 BCD digits. */
  iccid: string;
  hardwareVersion: string;
  firmwareVersion: string;
  /** Bits: GPS, BeiDou, GLONASS, Galileo. */
  gnss: number;
  /** Bits: GPRS, CDMA, TD-SCDMA, WCDMA, CDMA2000, TD-LTE, other. */
  comm: number;
}

export function decodeAttributes(body: Buffer, v2019: boolean): TerminalAttributes {
  const r = new Reader(body, '0x0107 body');
  return {
    terminalType: r.u16(),
    manufacturer: r.text(5),
    model: r.text(v2019 ? 30 : 20),
    terminalId: r.text(v2019 ? 30 : 7),
    iccid: r.bcd(10),
    hardwareVersion: r.text(r.u8()),
    firmwareVersion: r.text(r.u8()),
    gnss: r.u8(),
    comm: r.u8(),
  };
}

export function encodeAttributes(a: TerminalAttributes, v2019: boolean): Buffer {
  const hw = gbk(a.hardwareVersion);
  const fw = gbk(a.firmwareVersion);
  return new Writer()
    .u16(a.terminalType)
    .text(a.manufacturer, 5)
    .text(a.model, v2019 ? 30 : 20)
    .text(a.terminalId, v2019 ? 30 : 7)
    .bcd(a.iccid, 10)
    .u8(hw.length)
    .raw(hw)
    .u8(fw.length)
    .raw(fw)
    .u8(a.gnss)
    .u8(a.comm)
    .done();
}
