// Layouts of vendor items and the blocks they make, read back by the JSON reports' decoder.
import { describe, expect, it } from 'vitest';
import { mapItems, modelBodySchema, readLayout, type ModelItem } from './jt808-models.ts';
import { decodeExtraData } from './sensors.ts';

const b = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

describe('item layouts', () => {
  it('reads sign-and-magnitude probes in 0.1 C with 0xFFFF absent (traccar Huabao 0x51)', () => {
    expect(readLayout(b('00fa'), 'sm16/10')).toBe(25);
    expect(readLayout(b('80b9'), 'sm16/10')).toBe(-18.5);
    expect(readLayout(b('8000'), 'sm16/10')).toBe(-0);
    expect(readLayout(b('ffff'), 'sm16/10')).toBeNull();
    expect(readLayout(b('00fa80b9'), 'sm16/10', 2)).toBe(-18.5);
    expect(readLayout(b('00fa'), 'sm16/10', 1)).toBeNull();
  });
  it('reads two-complement and unsigned words and bytes', () => {
    expect(readLayout(b('ff4b'), 'int16/10')).toBe(-18.1);
    expect(readLayout(b('fc18'), 'int16/100')).toBe(-10);
    expect(readLayout(b('0271'), 'uint16/10')).toBe(62.5);
    expect(readLayout(b('0514'), 'uint16/100')).toBe(13);
    expect(readLayout(b('ff'), 'uint8')).toBe(255);
    expect(readLayout(b('09'), 'uint8*10')).toBe(90);
    expect(readLayout(b('ff'), 'int8')).toBe(-1);
    expect(readLayout(b('000004d2'), 'uint32/10')).toBe(123.4);
    expect(readLayout(b(''), 'uint8')).toBeNull();
  });
});

describe('mapItems', () => {
  const items: ModelItem[] = [
    { id: '0x51', layout: 'sm16/10', offset: 0, channel: 'temperature', probe: 1 },
    { id: '0x51', layout: 'sm16/10', offset: 2, channel: 'temperature', probe: 2 },
    { id: '0x66', layout: 'uint16/10', offset: 0, channel: 'humidity', probe: 1 },
    { id: '0x56', layout: 'uint8*10', offset: 0, channel: 'battery', probe: 1 },
    { id: '0x67', layout: 'uint8', offset: 0, channel: 'door', probe: 1 },
  ];
  it('makes the JSON blocks that decode to the same values', () => {
    const { blocks, probes } = mapItems(items, { '0x51': '80b900fa', '0x66': '0271', '0x56': '0900', '0x67': '02', '0xe1': 'abcd' });
    expect(blocks).toEqual({ '3': { temp: 32768 + 185, humidity: 625 }, '1': { batval: 900 }, '16': { gac: 1 } });
    expect(probes).toEqual({ 'temperature.2': 25 });
    const decoded = decodeExtraData(blocks);
    expect(decoded).toMatchObject({ ok: true, values: { temperature: -18.5, humidity: 62.5, battery: 90, door: 'open' } });
  });
  it('makes nothing of absent items, absent probes and bad hex', () => {
    expect(mapItems(items, { '0x51': 'ffff', '0x66': 'zz' })).toEqual({ blocks: {}, probes: {} });
  });
});

describe('modelBodySchema', () => {
  it('normalises item ids and refuses a channel and probe given twice', () => {
    const ok = modelBodySchema.parse({ model: ' XYZ-T4 ', items: [{ id: '0X66', layout: 'int16/10', channel: 'temperature' }] });
    expect(ok).toEqual({ model: 'XYZ-T4', description: '', items: [{ id: '0x66', layout: 'int16/10', offset: 0, channel: 'temperature', probe: 1 }] });
    const twice = modelBodySchema.safeParse({ model: 'M', items: [{ id: '0x66', layout: 'int16/10', channel: 'temperature' }, { id: '0x67', layout: 'int16/10', channel: 'temperature' }] });
    expect(twice.success).toBe(false);
    expect(twice.error!.issues[0]!.message).toBe('JT808_CHANNEL_REPEATED');
    expect(modelBodySchema.safeParse({ model: 'M', items: [{ id: '66', layout: 'int16/10', channel: 'temperature' }] }).error!.issues[0]!.message).toBe('JT808_ITEM_ID_FORMAT');
    expect(modelBodySchema.safeParse({ model: 'M', items: [] }).success).toBe(false);
  });
});

describe('standard items as sensor channels', () => {
  it('reads fuel, signal and satellites from block jt808, leaving the rest of the block raw', () => {
    const decoded = decodeExtraData({ jt808: { msg: '0x0200', alarm: 1, fuel: 52.3, signal: 20, satellites: 11, items: { '0x51': '00fa' } } });
    expect(decoded).toMatchObject({ ok: true, values: { fuel: 52.3, signal: 20, satellites: 11 } });
    expect(decodeExtraData({ jt808: { msg: '0x0200', alarm: 0 } })).toMatchObject({ ok: true, values: {} });
  });
});
