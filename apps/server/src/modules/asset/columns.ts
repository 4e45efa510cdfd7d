// The spreadsheet columns of each asset kind (export, import template and import).
import { ASSET_ATTR_KEYS, KINDS_WITH_RANGES, type AssetKind } from '@iotc/shared/asset';
import type { I18nText } from '@iotc/shared/i18n';
import type { SheetColumn } from '../../lib/sheet.ts';

const CODE_HEADERS: Record<AssetKind, I18nText> = {
  vehicle: { zh: '车牌号', en: 'Plate number' },
  container: { zh: '集装箱号', en: 'Container number' },
  warehouse: { zh: '仓库编码', en: 'Warehouse code' },
  cold_room: { zh: '冷库编码', en: 'Cold room code' },
  refrigerator: { zh: '冷柜编码', en: 'Refrigerator code' },
  gateway: { zh: '网关编码', en: 'Gateway code' },
};

const PARENT_HEADERS: Partial<Record<AssetKind, I18nText>> = {
  cold_room: { zh: '所属仓库编码', en: 'Warehouse code' },
  refrigerator: { zh: '所属仓库或冷库编码', en: 'Warehouse or cold room code' },
};

const ATTR_HEADERS: Record<string, I18nText> = {
  vehicleType: { zh: '车辆类型', en: 'Vehicle type' },
  driver: { zh: '司机', en: 'Driver' },
  driverPhone: { zh: '司机电话', en: 'Driver phone' },
  containerType: { zh: '箱型', en: 'Container type' },
  size: { zh: '尺寸', en: 'Size' },
  owner: { zh: '箱主', en: 'Owner' },
  province: { zh: '省份', en: 'Province' },
  city: { zh: '城市', en: 'City' },
  address: { zh: '地址', en: 'Address' },
  zip: { zh: '邮编', en: 'Zip code' },
  lat: { zh: '纬度', en: 'Latitude' },
  lon: { zh: '经度', en: 'Longitude' },
  area: { zh: '面积(㎡)', en: 'Area (m²)' },
  model: { zh: '型号', en: 'Model' },
  serial: { zh: '序列号', en: 'Serial number' },
  ip: { zh: 'IP 地址', en: 'IP address' },
};

const RANGE_COLUMNS: SheetColumn[] = [
  { field: 'tempMin', header: { zh: '温度下限(°C)', en: 'Temperature min (°C)' } },
  { field: 'tempMax', header: { zh: '温度上限(°C)', en: 'Temperature max (°C)' } },
  { field: 'humidityMin', header: { zh: '湿度下限(%)', en: 'Humidity min (%)' } },
  { field: 'humidityMax', header: { zh: '湿度上限(%)', en: 'Humidity max (%)' } },
];

export function assetColumns(kind: AssetKind): SheetColumn[] {
  const parent = PARENT_HEADERS[kind];
  return [
    { field: 'code', header: CODE_HEADERS[kind], width: 18 },
    { field: 'name', header: { zh: '名称', en: 'Name' }, width: 22 },
    ...(parent ? [{ field: 'parentCode', header: parent, width: 18 }] : []),
    ...ASSET_ATTR_KEYS[kind].map((k) => ({ field: `attrs.${k}`, header: ATTR_HEADERS[k]!, width: k === 'address' ? 36 : 16 })),
    ...(KINDS_WITH_RANGES.includes(kind) ? RANGE_COLUMNS : []),
  ];
}

