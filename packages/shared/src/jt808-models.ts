// Vendor mappings of JT/T 808 additional items, per terminal model: which item (id, and where in
// it) carries which sensor channel in which binary layout. The gateway keeps every item it does
// not know raw (id -> hex); a model's mapping turns them into the same `extraData` blocks a JSON
// report carries, so that latest state, alarms, curves and reports see them unchanged.
//
// Layouts are those found in public decoders, e.g. traccar's HuabaoProtocolDecoder (Apache-2.0,
// github.com/traccar/traccar, src/main/java/org/traccar/protocol/HuabaoProtocolDecoder.java):
// item 0x51 holds 1 or 8 temperature probes of two bytes each, sign and magnitude (bit 15 the
// sign) in 0.1 C, 0xFFFF for an absent probe (`sm16/10`); item 0x56 a battery percentage in
// tens (`uint8*10`); 0x69 a battery voltage in 0.01 V (`uint16/100`). Plain two's-complement
// words in 0.1 or 0.01 units are what most reefer terminals send otherwise.
import { z } from 'zod';
import { blankAsUndefined } from './list.ts';
import { TEMP_SIGN_OFFSET, type RawBlocks } from './sensors.ts';

export const ITEM_LAYOUTS = ['sm16/10', 'int16/10', 'int16/100', 'uint16/10', 'uint16/100', 'uint8', 'uint8*10', 'int8', 'uint32/10'] as const;
export type ItemLayout = (typeof ITEM_LAYOUTS)[number];

/** Sensor channels a mapped item can feed: the sensor dictionary's values a JSON block carries one to one. */
export const ITEM_CHANNELS = ['temperature', 'humidity', 'battery', 'batteryTemperature', 'light', 'pressure', 'door'] as const;
export type ItemChannel = (typeof ITEM_CHANNELS)[number];

const LAYOUT_BYTES: Record<ItemLayout, number> = {
  'sm16/10': 2,
  'int16/10': 2,
  'int16/100': 2,
  'uint16/10': 2,
  'uint16/100': 2,
  uint8: 1,
  'uint8*10': 1,
  int8: 1,
  'uint32/10': 4,
};

/** The value of `layout` at `offset` of an item's bytes; null when it is not there or is the layout's "no reading". */
export function readLayout(bytes: Uint8Array, layout: ItemLayout, offset = 0): number | null {
  const n = LAYOUT_BYTES[layout];
  if (offset < 0 || offset + n > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, n);
  switch (layout) {
    case 'sm16/10': {
      const raw = view.getUint16(0);
      if (raw === 0xffff) return null;
      const magnitude = (raw & 0x7fff) / 10;
      return raw & 0x8000 ? -magnitude : magnitude;
    }
    case 'int16/10':
      return view.getInt16(0) / 10;
    case 'int16/100':
      return view.getInt16(0) / 100;
    case 'uint16/10':
      return view.getUint16(0) / 10;
    case 'uint16/100':
      return view.getUint16(0) / 100;
    case 'uint8':
      return view.getUint8(0);
    case 'uint8*10':
      return view.getUint8(0) * 10;
    case 'int8':
      return view.getInt8(0);
    case 'uint32/10':
      return view.getUint32(0) / 10;
  }
}

export const ITEM_ID_PATTERN = /^0x[0-9a-f]{2}$/;
export const MAX_MODEL_ITEMS = 32;

export const modelItemSchema = z.object({
  /** The additional item's id, `0x` and two lower-case hex digits (as the gateway keeps it). */
  id: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.string().regex(ITEM_ID_PATTERN, { message: 'JT808_ITEM_ID_FORMAT' })),
  layout: z.enum(ITEM_LAYOUTS),
  /** Byte offset of the value in the item (probe n of item 0x51 is at 2(n-1)). */
  offset: z.number().int().min(0).max(254).default(0),
  channel: z.enum(ITEM_CHANNELS),
  /** The channel's probe: 1 feeds the channel; others are kept beside it (`jt808.probes`). */
  probe: z.number().int().min(1).max(8).default(1),
});
export type ModelItem = z.infer<typeof modelItemSchema>;

export const modelBodySchema = z
  .object({
    /** The terminal model as it registers (0x0100), compared exactly. */
    model: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(30),
    description: z.string().trim().max(200).default(''),
    items: z.array(modelItemSchema).min(1, { message: 'JT808_MODEL_ITEMS_REQUIRED' }).max(MAX_MODEL_ITEMS),
    /** On create: the owning organisation (the caller's or one below it); absent: the caller's. */
    orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.items.forEach((it, i) => {
      const key = `${it.channel}/${it.probe}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['items', i, 'probe'], message: 'JT808_CHANNEL_REPEATED' });
      seen.add(key);
    });
  });
export type ModelBody = z.infer<typeof modelBodySchema>;
export type ModelInput = z.input<typeof modelBodySchema>;

export const modelRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  model: z.string(),
  description: z.string(),
  items: z.array(z.object({ id: z.string(), layout: z.enum(ITEM_LAYOUTS), offset: z.number(), channel: z.enum(ITEM_CHANNELS), probe: z.number() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ModelRow = z.infer<typeof modelRowSchema>;

export const JT808_MODEL_API = '/api/iot/v2/jt808-models';

/** The raw value a JSON block carries for a channel's value (the inverse of decodeExtraData). */
function blockValue(channel: ItemChannel, v: number): [string, string, number] {
  const tenths = Math.round(v * 10);
  switch (channel) {
    case 'temperature':
      // Sign and magnitude around 32768, in 0.1 C (sensors.ts decodeTemperature).
      return ['3', 'temp', tenths < 0 ? TEMP_SIGN_OFFSET - tenths : tenths];
    case 'humidity':
      return ['3', 'humidity', tenths];
    case 'battery':
      return ['1', 'batval', tenths];
    case 'batteryTemperature':
      return ['21', 'bat_T', tenths];
    case 'light':
      return ['4', 'light', Math.round(v)];
    case 'pressure':
      return ['4', 'press', Math.round(v)];
    case 'door':
      return ['16', 'gac', v === 0 ? 0 : 1];
  }
}

/**
 * The blocks a model's items make of a report's raw items (id -> hex): probe 1 of a channel goes
 * into its JSON block; other probes, as decoded values, into `probes` ("temperature.2": -18.5).
 * Items the report lacks, or values a layout calls absent, make nothing.
 */
export function mapItems(items: readonly ModelItem[], raw: Record<string, string>): { blocks: RawBlocks; probes: Record<string, number> } {
  const blocks: RawBlocks = {};
  const probes: Record<string, number> = {};
  for (const item of items) {
    const hex = raw[item.id];
    if (hex === undefined || !/^([0-9a-f]{2})*$/i.test(hex)) continue;
    const bytes = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
    const v = readLayout(bytes, item.layout, item.offset);
    if (v === null) continue;
    if (item.probe !== 1) {
      probes[`${item.channel}.${item.probe}`] = v;
      continue;
    }
    const [block, field, value] = blockValue(item.channel, v);
    (blocks[block] ??= {})[field] = value;
  }
  return { blocks, probes };
}
