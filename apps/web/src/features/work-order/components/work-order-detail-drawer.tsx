// The details of one work order in a drawer: its fields, the alarms it gathers, its story and a
// comment box, and its electronic signatures; for handlers Edit and the status actions its status
// allows (resolving asks what was done; closing is signed with the password again, since a
// closed order is final).
import { useState } from 'react';
import { App, Button, Descriptions, Drawer, Skeleton, Space, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SignatureMeaning } from '@iotc/shared/signature';
import type { WorkOrderDetail, WorkOrderRow, WorkOrderStatus } from '@iotc/shared/work-order';
import { CommentBox } from '../../../components/comment-box.tsx';
import { SignatureDialog, type SignatureValues } from '../../../components/signature-dialog.tsx';
import { SignatureList } from '../../../components/signature-list.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useCommentWorkOrder } from '../api/work-order-comment.ts';
import { useWorkOrder } from '../api/work-order-detail.ts';
import { useWorkOrderEvents } from '../api/work-order-events.ts';
import { useTransitionWorkOrder } from '../api/work-order-transition.ts';
import { LinkedAlarms } from './linked-alarms.tsx';
import { ResolveModal } from './resolve-modal.tsx';
import { WorkOrderFormModal, type WorkOrderFormTarget } from './work-order-form-modal.tsx';
import { formatTime, OVERDUE_COLOR, personText, statusActions, type StatusAction } from './work-order-model.ts';
import { PriorityTag, StatusTag } from './work-order-tags.tsx';
import { WorkOrderTimeline } from './work-order-timeline.tsx';

export const DETAIL_WIDTH = 560;
const COMMENT_MAX = 1000;
const CLOSE_MEANINGS: readonly SignatureMeaning[] = ['responsible', 'approved', 'reviewed'];

function Fields({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const text = (v: string | null | undefined) => (v ? v : '-');
  const due = formatTime(order.dueAt);
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      styles={{ label: { width: 130 } }}
      data-testid="wo-detail-fields"
      items={[
        { key: 'code', label: t('workOrder.col.code'), children: order.code },
        { key: 'title', label: t('workOrder.col.title'), children: order.title },
        { key: 'status', label: t('workOrder.col.status'), children: <StatusTag status={order.status} /> },
        { key: 'priority', label: t('workOrder.col.priority'), children: <PriorityTag priority={order.priority} /> },
        { key: 'assignee', label: t('workOrder.col.assignee'), children: order.assignee ? personText(order.assignee) : t('workOrder.unassigned') },
        {
          key: 'dueAt',
          label: t('workOrder.col.dueAt'),
          children: order.overdue ? (
            <span style={{ color: OVERDUE_COLOR }} data-testid="wo-detail-overdue">
              {`${due} · ${t('workOrder.overdue')}`}
            </span>
          ) : (
            text(due)
          ),
        },
        { key: 'source', label: t('workOrder.col.source'), children: t(`workOrder.source.${order.source}`) },
        { key: 'org', label: t('workOrder.col.org'), children: order.orgName },
        { key: 'created', label: t('workOrder.col.createdAt'), children: `${order.createdBy} · ${formatTime(order.createdAt)}` },
        { key: 'updatedAt', label: t('workOrder.col.updatedAt'), children: formatTime(order.updatedAt) },
        ...(order.resolvedAt ? [{ key: 'resolvedAt', label: t('workOrder.col.resolvedAt'), children: formatTime(order.resolvedAt) }] : []),
        ...(order.closedAt ? [{ key: 'closedAt', label: t('workOrder.col.closedAt'), children: formatTime(order.closedAt) }] : []),
        {
          key: 'description',
          label: t('workOrder.col.description'),
          children: <span className="wo-event-text">{text(order.description)}</span>,
        },
      ]}
    />
  );
}

export interface WorkOrderDetailDrawerProps {
  /** The order shown; null closes the drawer. */
  id: string | null;
  onClose: () => void;
  /** The user may change orders (alarm:handle). */
  canHandle: boolean;
}

export function WorkOrderDetailDrawer({ id, onClose, canHandle }: WorkOrderDetailDrawerProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const order = useWorkOrder(id);
  const events = useWorkOrderEvents(id);
  const move = useTransitionWorkOrder();
  const comment = useCommentWorkOrder();
  const closing = useDialog<WorkOrderRow>();
  const editor = useDialog<WorkOrderFormTarget>();
  const [resolving, setResolving] = useState<WorkOrderRow | null>(null);
  const row = order.data;
  const writable = canHandle && !!row && row.status !== 'closed';

  const moveTo = (current: WorkOrderRow, to: WorkOrderStatus) =>
    move.mutateAsync({ id: current.id, to, note: '' }).then(
      () => void message.success(t('workOrder.action.moved', { status: t(`workOrder.status.${to}`) })),
      (error: unknown) => void message.error({ content: apiErrorText(error, lang), className: 'action-error', duration: 6 }),
    );

  const run = (current: WorkOrderRow, action: StatusAction) => {
    if (action.asks === 'note') setResolving(current);
    else if (action.asks === 'confirm') closing.show(current);
    else void moveTo(current, action.to);
  };

  const close = async (values: SignatureValues) => {
    const current = closing.target;
    if (!current) return;
    await move.mutateAsync({ id: current.id, to: 'closed', note: values.reason, ...values.proof, meaning: values.meaning });
    void message.success(t('workOrder.action.moved', { status: t('workOrder.status.closed') }));
    closing.hide();
  };

  let body;
  if (!id) body = null;
  else if (order.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!row)
    body = (
      <Outcome
        status="warning"
        title={t('workOrder.detail.loadFailed')}
        extra={
          <Button onClick={() => void order.refetch()} data-testid="wo-detail-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else
    body = (
      <>
        <Fields order={row} />
        <Typography.Title level={5} className="wo-section">
          {t('workOrder.detail.alarms', { count: row.alarms.length })}
        </Typography.Title>
        <LinkedAlarms orderId={row.id} alarms={row.alarms} canLink={writable} />
        <Typography.Title level={5} className="wo-section">
          {t('workOrder.detail.timeline')}
        </Typography.Title>
        <WorkOrderTimeline events={events.data} pending={events.isPending} failed={events.isError} />
        <Typography.Title level={5} className="wo-section">
          {t('signature.title')}
        </Typography.Title>
        <SignatureList recordType="work_order" recordId={row.id} />
        {writable ? (
          <CommentBox
            testId="wo-comment"
            maxLength={COMMENT_MAX}
            placeholder={t('workOrder.comment.placeholder')}
            sendText={t('workOrder.comment.send')}
            pending={comment.isPending}
            onSend={(text, sent) => comment.mutate({ id: row.id, text }, { onSuccess: sent })}
          />
        ) : null}
      </>
    );

  const footer = writable ? (
    <Space wrap data-testid="wo-detail-actions">
      <Button icon={<EditOutlined />} data-testid="wo-detail-edit" onClick={() => editor.show({ mode: 'edit', row })}>
        {t('workOrder.action.edit')}
      </Button>
      {statusActions(row.status).map((a) => (
        <Button
          key={a.to}
          type={a.asks === 'note' ? 'primary' : 'default'}
          danger={a.asks === 'confirm'}
          data-testid={`wo-move-${a.to}`}
          loading={move.isPending && move.variables?.to === a.to}
          onClick={() => run(row, a)}
        >
          {t(a.name)}
        </Button>
      ))}
    </Space>
  ) : null;

  return (
    <Drawer
      open={!!id}
      size={DETAIL_WIDTH}
      title={row ? `${row.code} · ${row.title}` : t('workOrder.detail.title')}
      className="wo-detail-drawer"
      data-testid="wo-detail"
      onClose={onClose}
      footer={footer}
    >
      {body}
      <ResolveModal order={resolving} onClose={() => setResolving(null)} />
      <SignatureDialog
        open={closing.open}
        title={closing.target ? t('workOrder.close.title', { code: closing.target.code }) : ''}
        okText={t('workOrder.action.close')}
        meanings={CLOSE_MEANINGS}
        reason={{ label: t('workOrder.close.note'), maxLength: COMMENT_MAX }}
        onSubmit={close}
        onClose={closing.hide}
        afterClose={closing.afterClose}
        testId="wo-close"
        danger
      >
        <div data-testid="wo-close-content" className="wo-section">
          {t('workOrder.close.content')}
        </div>
      </SignatureDialog>
      <WorkOrderFormModal formName="woEdit" target={editor.target} open={editor.open} onClose={editor.hide} afterClose={editor.afterClose} />
    </Drawer>
  );
}
