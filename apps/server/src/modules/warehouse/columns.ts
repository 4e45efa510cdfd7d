// The spreadsheet columns of inbound and outbound records: the import sheet (and its template)
// and the words a cell may hold for a direction or an audit status in either language.
import type { I18nText } from '@iotc/shared/i18n';
import type { WarehouseAuditStatus, WarehouseDirection } from '@iotc/shared/warehouse';
import type { SheetColumn } from '../../lib/sheet.ts';

export const SHEET_NAME: I18nText = { zh: '出入库记录', en: 'Inbound and outbound records' };

export const IMPORT_COLUMNS: SheetColumn[] = [
  { field: 'warehouseCode', header: { zh: '仓库编码', en: 'Warehouse code' }, width: 16 },
  { field: 'roomCode', header: { zh: '冷库或冷柜编码', en: 'Cold room or refrigerator code' }, width: 20 },
  { field: 'direction', header: { zh: '方向', en: 'Direction' }, width: 10 },
  { field: 'goodsName', header: { zh: '货物名称', en: 'Goods' }, width: 20 },
  { field: 'batchNo', header: { zh: '批次号', en: 'Batch number' }, width: 16 },
  { field: 'quantity', header: { zh: '数量', en: 'Quantity' }, width: 10 },
  { field: 'unit', header: { zh: '单位', en: 'Unit' }, width: 8 },
  { field: 'time', header: { zh: '出入库时间', en: 'Time' }, width: 21 },
  { field: 'handler', header: { zh: '经手人', en: 'Handler' }, width: 12 },
  { field: 'remark', header: { zh: '备注', en: 'Remark' }, width: 30 },
];

export const DIRECTION_TEXT: Record<WarehouseDirection, I18nText> = {
  in: { zh: '入库', en: 'Inbound' },
  out: { zh: '出库', en: 'Outbound' },
};

export const AUDIT_TEXT: Record<WarehouseAuditStatus, I18nText> = {
  pending: { zh: '待审核', en: 'Pending' },
  approved: { zh: '已通过', en: 'Approved' },
  rejected: { zh: '已驳回', en: 'Rejected' },
};

/** A direction as a sheet cell may write it: 入库 / 出库, in / out, inbound / outbound. */
export function directionOf(cell: string): WarehouseDirection | null {
  const v = cell.trim().toLowerCase();
  if (['入库', '入', 'in', 'inbound'].includes(v)) return 'in';
  if (['出库', '出', 'out', 'outbound'].includes(v)) return 'out';
  return null;
}
