// The task's "Tracking link" dialog: the maker picks how long a consignee's link works (90 days
// unless changed, at most a year), makes it and sees its address this once, with copy and open;
// below, the task's links with their status (active, expired, revoked), paged, and revoking an
// active one after a confirmation (its page then says it was revoked). The page the link opens
// shows only the task's position, status, ETA and temperature curve (public-tracking-page.tsx).
import { useState } from 'react';
import { Alert, App, Button, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { CopyOutlined, ExportOutlined, LinkOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { DEFAULT_TRACKING_EXPIRY_DAYS, TRACKING_EXPIRY_DAYS, type TrackingLinkAnswer, type TrackingLinkRow, type TrackingLinkStatus } from '@iotc/shared/transport-tracking';
import { copyText } from '../../../lib/clipboard.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useCreateTrackingLink, useRevokeTrackingLink, useTaskTrackingLinks } from '../api/tracking-links.ts';

export interface TrackingLinkTarget {
  id: string;
  code: string;
}

const STATUS_COLOR: Record<TrackingLinkStatus, string> = { active: 'green', expired: 'default', revoked: 'red' };
const PAGE_SIZE = 5;
const DAY_MS = 86_400_000;
const time = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '');

/** The link's page as an absolute address (the server answers a path unless PUBLIC_URL is set). */
const absoluteUrl = (url: string) => (/^https?:\/\//.test(url) ? url : `${window.location.origin}${url}`);

function LinkList({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const links = useTaskTrackingLinks(taskId, page, PAGE_SIZE);
  const revoke = useRevokeTrackingLink();
  const confirm = useConfirmAction();
  if (links.isError && !links.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('tracking.list.failed')}
        action={
          <Button size="small" onClick={() => void links.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Table<TrackingLinkRow>
      size="small"
      rowKey="id"
      loading={links.isFetching}
      dataSource={links.data?.rows ?? []}
      locale={{ emptyText: <span data-testid="tracking-links-empty">{t('tracking.list.none')}</span> }}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: links.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true, size: 'small' }}
      data-testid="tracking-links"
      columns={[
        { title: t('tracking.list.createdAt'), dataIndex: 'createdAt', render: (v: string) => time(v) },
        { title: t('tracking.list.createdBy'), dataIndex: 'createdBy' },
        { title: t('tracking.list.expiresAt'), dataIndex: 'expiresAt', render: (v: string) => time(v) },
        {
          title: t('tracking.list.status'),
          dataIndex: 'status',
          render: (s: TrackingLinkStatus, r) => (
            <Tag color={STATUS_COLOR[s]} data-testid="tracking-link-status" title={r.revokedAt ? `${time(r.revokedAt)} · ${r.revokedBy ?? ''}` : undefined}>
              {t(`tracking.status.${s}`)}
            </Tag>
          ),
        },
        {
          title: t('tracking.list.action'),
          key: 'action',
          render: (_: unknown, r) =>
            r.status === 'active' ? (
              <Button
                size="small"
                danger
                type="link"
                icon={<StopOutlined />}
                data-testid="tracking-link-revoke"
                onClick={() =>
                  confirm({
                    title: t('tracking.revoke.title'),
                    content: <Typography.Paragraph data-testid="tracking-revoke-content">{t('tracking.revoke.content', { time: time(r.createdAt) })}</Typography.Paragraph>,
                    okText: t('tracking.revoke.ok'),
                    danger: true,
                    action: () => revoke.mutateAsync(r.id),
                    success: t('tracking.revoke.done'),
                  })
                }
              >
                {t('tracking.revoke.ok')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}

export function TrackingLinkDialog({ target, open, onClose, afterClose }: { target: TrackingLinkTarget | null; open: boolean; onClose: () => void; afterClose?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const create = useCreateTrackingLink(target?.id ?? '');
  const [days, setDays] = useState<number>(DEFAULT_TRACKING_EXPIRY_DAYS);
  const [made, setMade] = useState<TrackingLinkAnswer | null>(null);
  const url = made ? absoluteUrl(made.url) : '';
  const copy = async () => {
    if (await copyText(url)) void message.success(t('tracking.copied'));
    else void message.warning(t('tracking.copyFailed'));
  };
  // A new dialog starts again from the default expiry, without the last address.
  const reset = () => {
    setMade(null);
    setDays(DEFAULT_TRACKING_EXPIRY_DAYS);
    create.reset();
    afterClose?.();
  };

  return (
    <Modal
      open={open}
      title={t('tracking.title', { code: target?.code ?? '' })}
      onCancel={onClose}
      afterClose={reset}
      footer={null}
      width={720}
      destroyOnHidden
      data-testid="tracking-dialog"
    >
      <Typography.Paragraph type="secondary">{t('tracking.intro')}</Typography.Paragraph>
      {create.isError ? <Alert type="error" showIcon title={t('tracking.failed')} style={{ marginBottom: 12 }} data-testid="tracking-error" /> : null}
      {made ? (
        <div data-testid="tracking-made">
          <Typography.Text strong>{t('tracking.link')}</Typography.Text>
          <Space.Compact style={{ width: '100%', margin: '8px 0' }}>
            <Input readOnly value={url} aria-label={t('tracking.link')} data-testid="tracking-url" />
            <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="tracking-copy">
              {t('tracking.copy')}
            </Button>
            <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener noreferrer" data-testid="tracking-open">
              {t('tracking.open')}
            </Button>
          </Space.Compact>
          <Typography.Paragraph type="secondary">{t('tracking.onceHint')}</Typography.Paragraph>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
            <Typography.Text data-testid="tracking-expires">{t('tracking.expires', { time: time(made.expiresAt) })}</Typography.Text>
            <Button onClick={() => setMade(null)} data-testid="tracking-another">
              {t('tracking.another')}
            </Button>
          </Space>
        </div>
      ) : (
        <div>
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            <Typography.Text strong id="tracking-expiry-label">
              {t('tracking.expiry')}
            </Typography.Text>
            <Radio.Group
              aria-labelledby="tracking-expiry-label"
              optionType="button"
              disabled={create.isPending}
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
              options={TRACKING_EXPIRY_DAYS.map((d) => ({ value: d, label: t(`tracking.expiry.${d}`) }))}
              data-testid="tracking-expiry"
            />
            <Typography.Text type="secondary" data-testid="tracking-ends">
              {t('tracking.endsAt', { time: dayjs(Date.now() + days * DAY_MS).format(DATETIME_FORMAT) })}
            </Typography.Text>
          </Space>
          <Space style={{ width: '100%', justifyContent: 'flex-end', marginTop: 16 }}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              icon={<LinkOutlined />}
              loading={create.isPending}
              disabled={!target}
              onClick={() => create.mutate({ expiresInDays: days }, { onSuccess: setMade })}
              data-testid="tracking-create"
            >
              {t('tracking.create')}
            </Button>
          </Space>
        </div>
      )}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('tracking.list.title')}
      </Typography.Title>
      {target ? <LinkList taskId={target.id} /> : null}
    </Modal>
  );
}
