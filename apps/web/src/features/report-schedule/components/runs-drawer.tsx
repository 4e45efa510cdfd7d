// The runs of one scheduled report, newest first, a page at a time: when it ran, the period it
// reported, by the scheduler or a user's "send now", to how many recipients, the file, and whether
// the mail went out, waits in the outbox (no mail server configured) or failed, with the error.
import { useState } from 'react';
import { Alert, Button, Drawer, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { ScheduleRow, ScheduleRun, ScheduleRunStatus } from '@iotc/shared/ops-report';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useScheduleRuns } from '../api/schedule-runs.ts';
import { usePagination } from '../../../components/data-table/pagination.ts';

export const STATUS_COLORS: Record<ScheduleRunStatus, string> = { sent: 'success', outbox: 'processing', failed: 'error' };

export function StatusTag({ status }: { status: ScheduleRunStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid={`rs-status-${status}`}>
      {t(`reportSchedule.status.${status}`)}
    </Tag>
  );
}

export interface RunsDrawerProps {
  schedule: ScheduleRow | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

const SIZE = 10;

export function RunsDrawer({ schedule, open, onClose, afterClose }: RunsDrawerProps) {
  const { t } = useTranslation();
  const pagination = usePagination('small');
  const lang = useLang();
  const [page, setPage] = useState({ page: 1, size: SIZE });
  const runs = useScheduleRuns(open && schedule ? schedule.id : null, page.page, page.size);
  const columns: ColumnsType<ScheduleRun> = [
    { key: 'at', title: t('reportSchedule.runs.at'), render: (_, r) => dayjs(r.at).format(DATETIME_FORMAT), width: 170 },
    { key: 'period', title: t('reportSchedule.runs.period'), render: (_, r) => (r.start === r.end ? r.start : `${r.start} ~ ${r.end}`) },
    { key: 'status', title: t('reportSchedule.runs.status'), render: (_, r) => <StatusTag status={r.status} /> },
    { key: 'manual', title: t('reportSchedule.runs.by'), render: (_, r) => (r.manual ? t('reportSchedule.runs.manual') : t('reportSchedule.runs.scheduled')) },
    { key: 'recipients', title: t('reportSchedule.runs.recipients'), align: 'right', render: (_, r) => <span title={r.recipients.join(', ')}>{r.recipients.length}</span> },
    {
      key: 'detail',
      title: t('reportSchedule.runs.detail'),
      render: (_, r) =>
        r.error ? (
          <Typography.Text type="danger" data-testid="rs-run-error">
            {r.error}
          </Typography.Text>
        ) : (
          (r.filename ?? '—')
        ),
    },
  ];
  return (
    <Drawer
      open={open}
      size={820}
      title={schedule ? t('reportSchedule.runs.title', { name: schedule.name }) : ''}
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) {
          setPage({ page: 1, size: SIZE });
          afterClose();
        }
      }}
      data-testid="rs-runs"
    >
      {runs.isError && !runs.data ? (
        <Alert
          type="error"
          showIcon
          title={apiErrorText(runs.error, lang)}
          action={
            <Button size="small" onClick={() => void runs.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : (
        <Table<ScheduleRun>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={runs.data?.rows ?? []}
          loading={runs.isFetching}
          locale={{ emptyText: t('reportSchedule.runs.none') }}
          pagination={{
            ...pagination,
            current: page.page,
            pageSize: page.size,
            total: runs.data?.total ?? 0,
            onChange: (p, s) => setPage({ page: s === page.size ? p : 1, size: s }),
          }}
          data-testid="rs-runs-table"
        />
      )}
    </Drawer>
  );
}
