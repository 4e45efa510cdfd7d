import { describe, expect, it } from 'vitest';
import { ASSET_ATTR_KEYS, ASSET_KINDS, KINDS_WITH_RANGES, type AssetRow } from '@iotc/shared/asset';
import en from '../../../locales/en.json';
import zh from '../../../locales/zh.json';
import { assetColumns, assetConfig, assetFormFields, rangeText, toAssetView } from './asset-kinds.ts';

const ROW: AssetRow = {
  id: 'a1',
  kind: 'warehouse',
  code: 'WH-01',
  name: 'Shanghai DC',
  parentId: null,
  parentName: null,
  orgId: 'o1',
  orgName: 'Org',
  attrs: { province: 'Shanghai', city: 'Shanghai', address: '1 Road', zip: '200000', lat: 31.23, lon: 121.47 },
  tempMin: -20,
  tempMax: -18,
  humidityMin: null,
  humidityMax: 80,
  placeId: null,
  placeName: null,
  devices: [{ id: 'd1', deviceId: '860000000000001', name: 'Logger' }],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-02T00:00:00.000Z',
};

const visible = (kind: Parameters<typeof assetColumns>[0]) => assetColumns(kind).filter((c) => !c.hidden).map((c) => c.value);

describe('the asset kind declarations', () => {
  it('declare exactly the attributes of the shared contract, in its order', () => {
    for (const kind of ASSET_KINDS) {
      expect(assetConfig(kind).attrs.map((a) => a.key)).toEqual([...ASSET_ATTR_KEYS[kind]]);
    }
  });

  it('name a REST resource, parents and ranges as the contract does', () => {
    expect(assetConfig('cold_room')).toMatchObject({ resource: 'cold-rooms', parentKinds: ['warehouse'], ranges: true });
    expect(assetConfig('refrigerator').parentKinds).toEqual(['warehouse', 'cold_room']);
    expect(assetConfig('gateway')).toMatchObject({ resource: 'gateways', parentKinds: [], ranges: false });
    for (const kind of ASSET_KINDS) expect(assetConfig(kind).ranges).toBe(KINDS_WITH_RANGES.includes(kind));
  });

  it('list each kind with its own columns', () => {
    expect(visible('vehicle')).toEqual(['code', 'name', 'attr_vehicleType', 'attr_driver', 'attr_driverPhone', 'tempRange', 'humidityRange', 'deviceIds']);
    expect(visible('container')).toEqual(['code', 'name', 'attr_containerType', 'attr_size', 'attr_owner', 'tempRange', 'humidityRange', 'deviceIds']);
    expect(visible('gateway')).toEqual(['code', 'name', 'attr_model', 'attr_serial', 'attr_ip', 'deviceIds']);
    expect(visible('warehouse')).toEqual(['code', 'name', 'attr_province', 'attr_city', 'attr_address', 'tempRange', 'humidityRange', 'deviceIds']);
    expect(visible('cold_room')).toEqual(['code', 'name', 'attr_area', 'tempRange', 'humidityRange', 'deviceIds']);
    expect(visible('refrigerator')).toEqual(['code', 'name', 'attr_model', 'tempRange', 'humidityRange', 'deviceIds']);
  });

  it('label the code column per kind and keep the rest in the custom-column dialog', () => {
    expect(assetColumns('vehicle')[0]).toMatchObject({ key: 'asset.vehicle.code', value: 'code', sortable: true });
    expect(assetColumns('container')[0]!.key).toBe('asset.container.code');
    expect(assetColumns('warehouse', { codeAsLink: true })[0]!.type).toBe('link');
    const hidden = assetColumns('warehouse').filter((c) => c.hidden).map((c) => c.value);
    expect(hidden).toEqual(['attr_zip', 'position', 'orgName', 'updatedAt']);
    expect(assetColumns('cold_room').find((c) => c.value === 'attr_area')).toMatchObject({ type: 'unit', unit: 'm²' });
  });

  it('build each kind’s form: code, name, attributes, then ranges where the kind has them', () => {
    const names = (kind: Parameters<typeof assetFormFields>[0]) => assetFormFields(kind).map((f) => f.name.join('.'));
    const ranges = ['tempMin', 'tempMax', 'humidityMin', 'humidityMax'];
    expect(names('vehicle')).toEqual(['code', 'name', 'attrs.vehicleType', 'attrs.driver', 'attrs.driverPhone', ...ranges]);
    expect(names('container')).toEqual(['code', 'name', 'attrs.containerType', 'attrs.size', 'attrs.owner', ...ranges]);
    expect(names('warehouse')).toEqual(['code', 'name', 'attrs.province', 'attrs.city', 'attrs.address', 'attrs.zip', 'attrs.lat', 'attrs.lon', ...ranges]);
    expect(names('gateway')).toEqual(['code', 'name', 'attrs.model', 'attrs.serial', 'attrs.ip']);
    const fields = assetFormFields('warehouse');
    expect(fields.find((f) => f.name[1] === 'lat')).toMatchObject({ type: 'number', min: -90, max: 90 });
    expect(fields.filter((f) => f.required).map((f) => f.name[0])).toEqual(['code', 'name']);
    expect(fields[0]!.label).toBe('asset.warehouse.code');
  });

  it('have every label in both languages', () => {
    const keys = ASSET_KINDS.flatMap((kind) => {
      const c = assetConfig(kind);
      return [c.title, c.codeLabel, c.newLabel, c.editLabel, ...assetColumns(kind).map((col) => col.key), ...assetFormFields(kind).map((f) => f.label)];
    });
    for (const key of keys) {
      expect(en, key).toHaveProperty([key]);
      expect(zh, key).toHaveProperty([key]);
    }
    expect(zh['asset.vehicle.code']).toBe('车牌号');
    expect(en['asset.vehicle.code']).toBe('Plate number');
  });
});

describe('an asset row as the tables show it', () => {
  it('flattens attributes, words the ranges and joins the position', () => {
    const view = toAssetView(ROW);
    expect(view.attr_city).toBe('Shanghai');
    expect(view.tempRange).toBe('-20 ~ -18 °C');
    expect(view.humidityRange).toBe('≤ 80 %RH');
    expect(view.position).toBe('31.23, 121.47');
    expect(view.deviceIds).toEqual(['860000000000001']);
    expect(view.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("names a warehouse's province from the province dictionary in the language", () => {
    expect(toAssetView(ROW, 'zh').attr_province).toBe('上海');
    expect(toAssetView({ ...ROW, attrs: { ...ROW.attrs, province: '广东省' } }, 'en').attr_province).toBe('Guangdong');
    expect(toAssetView({ ...ROW, attrs: { ...ROW.attrs, province: 'Atlantis' } }, 'zh').attr_province).toBe('Atlantis');
  });

  it('shows one-sided and empty ranges', () => {
    expect(rangeText(2, null, '°C')).toBe('≥ 2 °C');
    expect(rangeText(null, null, '°C')).toBe('');
    expect(rangeText(0, 0, '%RH')).toBe('0 ~ 0 %RH');
  });
});
