// The records table as a declaration: time, warehouse, room, direction tag, goods, batch, quantity
// with its unit, handler, temperature at hand-over (red outside the room's range), audit status
// and reviewer. Row buttons: Details; while pending, Edit and Delete for writers, Approve and
// Reject for reviewers (never on their own records).
import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, ProfileOutlined } from '@ant-design/icons';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { textShadeOf } from '../../../lib/color.ts';
import { AUDIT_COLORS, DIRECTION_COLORS, canReview, type RecordView } from './record-model.ts';

export interface RecordTableOptions {
  onDetails: (row: RecordView) => void;
  onEdit: (row: RecordView) => void;
  onDelete: (row: RecordView) => void;
  onReview: (row: RecordView, decision: 'approve' | 'reject') => void;
  canWrite: boolean;
  canAudit: boolean;
  topButtons: TopButton[];
  userId: string | undefined;
}

export function recordDescriptor(o: RecordTableOptions): TableDescriptor<RecordView> {
  const pending = (r: RecordView) => r.auditStatus === 'pending';
  const buttons: RowButton<RecordView>[] = [{ name: 'warehouse.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: o.onDetails, testId: 'wh-row-details' }];
  if (o.canWrite) {
    buttons.push(
      { name: 'warehouse.action.edit', icon: <EditOutlined />, showtype: 'i', hidden: (r) => !pending(r), onClick: o.onEdit, testId: 'wh-row-edit' },
      { name: 'warehouse.action.delete', icon: <DeleteOutlined />, showtype: 'i', danger: true, confirm: 'warehouse.confirmDelete', hidden: (r) => !pending(r), onClick: o.onDelete, testId: 'wh-row-delete' },
    );
  }
  if (o.canAudit) {
    buttons.push(
      { name: 'warehouse.action.approve', icon: <CheckOutlined />, showtype: 'i', hidden: (r) => !canReview(r.row, o.userId), onClick: (r) => o.onReview(r, 'approve'), testId: 'wh-row-approve' },
      { name: 'warehouse.action.reject', icon: <CloseOutlined />, showtype: 'i', danger: true, hidden: (r) => !canReview(r.row, o.userId), onClick: (r) => o.onReview(r, 'reject'), testId: 'wh-row-reject' },
    );
  }
  return {
    id: o.userId ? `warehouse-records-${o.userId}` : 'warehouse-records',
    rowKey: 'id',
    columns: [
      { key: 'warehouse.col.time', value: 'time', type: 'datetime', sortable: true, fixedLeft: true, testId: 'wh-cell-time' },
      { key: 'warehouse.col.warehouse', value: 'warehouse', width: 180, testId: 'wh-cell-warehouse' },
      { key: 'warehouse.col.room', value: 'room', width: 140, hidden: true, testId: 'wh-cell-room' },
      {
        key: 'warehouse.col.direction',
        value: 'direction',
        type: 'button',
        width: 90,
        testId: 'wh-cell-direction',
        buttons: [
          { key: 'in', text: 'warehouse.direction.in', butType: 'tag', background: `${DIRECTION_COLORS.in}1f`, color: DIRECTION_COLORS.in },
          { key: 'out', text: 'warehouse.direction.out', butType: 'tag', background: `${DIRECTION_COLORS.out}1f`, color: DIRECTION_COLORS.out },
        ],
      },
      { key: 'warehouse.col.goods', value: 'goodsName', sortable: true, width: 150, testId: 'wh-cell-goods' },
      { key: 'warehouse.col.batch', value: 'batchNo', sortable: true, width: 130, hidden: true, testId: 'wh-cell-batch' },
      { key: 'warehouse.col.quantity', value: 'quantity', width: 110, testId: 'wh-cell-quantity' },
      { key: 'warehouse.col.handler', value: 'handler', width: 100, hidden: true, testId: 'wh-cell-handler' },
      { key: 'warehouse.col.temperature', value: 'temperature', type: 'limit', unit: '°C', minValueField: 'tempMin', maxValueField: 'tempMax', width: 120, testId: 'wh-cell-temperature' },
      {
        key: 'warehouse.col.audit',
        value: 'auditStatus',
        type: 'button',
        width: 100,
        testId: 'wh-cell-audit',
        buttons: (['pending', 'approved', 'rejected'] as const).map((s) => ({ key: s, text: `warehouse.audit.${s}`, butType: 'tag' as const, background: `${AUDIT_COLORS[s]}1f`, color: textShadeOf(AUDIT_COLORS[s]) })),
      },
      { key: 'warehouse.col.reviewer', value: 'reviewer', width: 110, hidden: true, testId: 'wh-cell-reviewer' },
      { key: 'warehouse.col.createdBy', value: 'createdBy', width: 110, hidden: true },
    ],
    rowButtons: buttons,
    topButtons: o.topButtons,
    pageSizes: 'main',
    // Icon buttons: details, then edit and delete, then approve and reject (about 24 px each).
    actionWidth: 56 + (o.canWrite ? 50 : 0) + (o.canAudit ? 50 : 0),
  };
}
