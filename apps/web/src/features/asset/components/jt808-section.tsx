// The "JT/T 808 terminal" section of a device's drawer: the terminal's registration (0x0100),
// whether it is connected now and from where, and its last frames in and out (decoded summary and
// raw hex with a copy button) for troubleshooting. The frames need cells DataTable has no type
// for (monospace hex with a copy button, a JSON summary, a row that opens), hence a plain antd
// Table here. Each frame is one line (summary and hex cut with an ellipsis), so the list reads as
// a log; a row opens (click, or its expand button) to the summary laid out as indented JSON and
// the whole hex.
import { useState } from 'react';
import { App, Button, Descriptions, Empty, Table, Tag, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Jt808FrameRow, Jt808Terminal } from '@iotc/shared/jt808';
import { copyText } from '../../../lib/clipboard.ts';
import { useJt808Terminal } from '../api/device-jt808.ts';
import { usePagination } from '../../../components/data-table/pagination.ts';

/** JT/T 415 plate colours the registry names (others are shown as their code). */
const PLATE_COLOURS: Record<number, `asset.jt808.plateColour.${0 | 1 | 2 | 3 | 4 | 5 | 9}`> = {
  0: 'asset.jt808.plateColour.0',
  1: 'asset.jt808.plateColour.1',
  2: 'asset.jt808.plateColour.2',
  3: 'asset.jt808.plateColour.3',
  4: 'asset.jt808.plateColour.4',
  5: 'asset.jt808.plateColour.5',
  9: 'asset.jt808.plateColour.9',
};
const time = (iso: string | null | undefined) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '-');

/** The raw bytes with a copy button: on one line cut short in the list (`line`), whole in an opened row. */
function HexCell({ hex, line = false }: { hex: string; line?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  if (!hex) return <span className="asset-muted">{t('asset.jt808.hexRedacted')}</span>;
  return (
    <div className={line ? 'jt808-hex jt808-hex-line' : 'jt808-hex'}>
      <code className={line ? 'jt808-mono jt808-line' : 'jt808-mono'} data-testid={line ? 'jt808-frame-hex' : 'jt808-frame-hex-full'}>
        {hex}
      </code>
      <Tooltip title={t('asset.jt808.copyHex')}>
        <Button
          size="small"
          type="text"
          icon={<CopyOutlined />}
          aria-label={t('asset.jt808.copyHex')}
          data-testid="jt808-copy-hex"
          onClick={(e) => {
            // Copying does not open (or close) the frame's row.
            e.stopPropagation();
            void copyText(hex).then((ok) => (ok ? message.success(t('asset.jt808.copied')) : message.error(t('asset.jt808.copyFailed'))));
          }}
        />
      </Tooltip>
    </div>
  );
}

/** An opened frame: its decoded summary as indented JSON beside its whole hex. */
function FrameDetail({ row }: { row: Jt808FrameRow }) {
  const { t } = useTranslation();
  return (
    <div className="jt808-frame-detail" data-testid="jt808-frame-detail">
      <div>
        <h6 className="jt808-detail-title">{t('asset.jt808.summary')}</h6>
        <pre className="jt808-mono jt808-json" data-testid="jt808-frame-json">
          {JSON.stringify(row.summary, null, 2)}
        </pre>
      </div>
      <div>
        <h6 className="jt808-detail-title">{t('asset.jt808.hex')}</h6>
        <HexCell hex={row.hex} />
      </div>
    </div>
  );
}

function Registration({ data }: { data: Jt808Terminal }) {
  const { t } = useTranslation();
  const reg = data.registration;
  if (!reg) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('asset.jt808.notRegistered')} data-testid="jt808-not-registered" />;
  const colourKey = reg.plateColour === null ? undefined : PLATE_COLOURS[reg.plateColour];
  const colour = reg.plateColour === null ? '-' : colourKey ? t(colourKey) : String(reg.plateColour);
  return (
    <Descriptions
      bordered
      size="small"
      column={2}
      data-testid="jt808-registration"
      items={[
        { key: 'manufacturer', label: t('asset.jt808.manufacturer'), children: reg.manufacturer || '-' },
        { key: 'model', label: t('asset.jt808.model'), children: reg.model || '-' },
        { key: 'terminalId', label: t('asset.jt808.terminalId'), children: <span data-testid="jt808-terminal-id">{reg.terminalId || '-'}</span> },
        { key: 'edition', label: t('asset.jt808.edition'), children: reg.edition ?? '-' },
        { key: 'plateColour', label: t('asset.jt808.plateColourLabel'), children: colour },
        { key: 'plate', label: reg.plateColour === 0 ? t('asset.jt808.vin') : t('asset.jt808.plate'), children: reg.plate || '-' },
        { key: 'registeredAt', label: t('asset.jt808.registeredAt'), children: time(reg.registeredAt) },
        {
          key: 'code',
          label: t('asset.jt808.authCode'),
          children: reg.hasCode ? <Tag color="green">{t('asset.jt808.codeValid')}</Tag> : <Tag>{t('asset.jt808.codeForgotten')}</Tag>,
        },
      ]}
    />
  );
}

function Connection({ data }: { data: Jt808Terminal }) {
  const { t } = useTranslation();
  const c = data.connection;
  if (!c) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('asset.jt808.neverConnected')} data-testid="jt808-never-connected" />;
  return (
    <Descriptions
      bordered
      size="small"
      column={2}
      data-testid="jt808-connection"
      items={[
        {
          key: 'state',
          label: t('asset.jt808.state'),
          children: (
            <Tag color={c.connected ? 'green' : 'default'} data-testid="jt808-connected" data-connected={String(c.connected)}>
              {c.connected ? t('asset.jt808.connected') : t('asset.jt808.disconnected')}
            </Tag>
          ),
        },
        { key: 'address', label: t('asset.jt808.remoteAddress'), children: c.remoteAddress ?? '-' },
        { key: 'node', label: t('asset.jt808.node'), children: c.node ?? '-' },
        { key: 'since', label: t('asset.jt808.connectedAt'), children: time(c.connectedAt) },
        { key: 'lastFrame', label: t('asset.jt808.lastFrameAt'), children: time(c.lastFrameAt) },
        { key: 'disconnected', label: t('asset.jt808.disconnectedAt'), children: time(c.disconnectedAt) },
      ]}
    />
  );
}

export function Jt808Section({ deviceRef }: { deviceRef: string }) {
  const { t } = useTranslation();
  const pagination = usePagination('small');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const query = useJt808Terminal(deviceRef, page, size);
  const data = query.data;
  const frames = data?.frames;
  return (
    <div data-testid="jt808-section">
      <h4 className="asset-section-title">{t('asset.jt808.title')}</h4>
      {query.error && !data ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('asset.jt808.loadFailed')}>
          <Button onClick={() => void query.refetch()}>{t('asset.jt808.retry')}</Button>
        </Empty>
      ) : !data ? (
        <Table size="small" loading columns={[]} dataSource={[]} />
      ) : (
        <>
          <h5 className="jt808-subtitle">{t('asset.jt808.registration')}</h5>
          <Registration data={data} />
          <h5 className="jt808-subtitle">{t('asset.jt808.connection')}</h5>
          <Connection data={data} />
        </>
      )}
      <h5 className="jt808-subtitle">{t('asset.jt808.frames')}</h5>
      <Table<Jt808FrameRow>
        size="small"
        rowKey="id"
        data-testid="jt808-frames"
        className="jt808-frames"
        loading={query.isFetching && !frames}
        dataSource={frames?.rows ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('asset.jt808.noFrames')} /> }}
        pagination={{
          ...pagination,
          current: page,
          pageSize: size,
          total: frames?.total ?? 0,
          size: 'small',
          showTotal: (total) => t('asset.jt808.framesTotal', { total }),
          onChange: (p, s) => {
            setPage(s === size ? p : 1);
            setSize(s);
          },
        }}
        columns={[
          { key: 'at', title: t('asset.jt808.at'), dataIndex: 'at', width: 160, render: (v: string) => time(v) },
          {
            key: 'direction',
            title: t('asset.jt808.direction'),
            dataIndex: 'direction',
            width: 70,
            render: (v: 'in' | 'out') => <Tag color={v === 'in' ? 'blue' : 'purple'}>{t(v === 'in' ? 'asset.jt808.in' : 'asset.jt808.out')}</Tag>,
          },
          { key: 'message', title: t('asset.jt808.message'), dataIndex: 'messageId', width: 80, render: (v: string) => <code className="jt808-mono">{v}</code> },
          { key: 'serial', title: t('asset.jt808.serial'), dataIndex: 'serial', width: 70 },
          {
            key: 'summary',
            title: t('asset.jt808.summary'),
            dataIndex: 'summary',
            ellipsis: true,
            render: (v: unknown) => (
              <code className="jt808-mono jt808-line" data-testid="jt808-frame-summary">
                {JSON.stringify(v)}
              </code>
            ),
          },
          { key: 'hex', title: t('asset.jt808.hex'), dataIndex: 'hex', width: 190, render: (v: string) => <HexCell hex={v} line /> },
        ]}
        expandable={{ expandedRowRender: (row) => <FrameDetail row={row} />, expandRowByClick: true, columnWidth: 32 }}
      />
    </div>
  );
}
