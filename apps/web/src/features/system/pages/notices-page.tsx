// system/notices (issue 26 item 5): the platform administrator publishes a notice, its title and
// text in Chinese and English, at a level (notice, warning, important), to everyone or to one
// organisation's tree; it reaches the inboxes of that audience at once. The published notices
// are listed newest first, a page at a time; withdrawing one (after a confirmation) takes it out
// of every inbox.
import { useMemo, useState } from 'react';
import { Alert, Card, Col, Form, Input, Modal, Radio, Row, Tag, Typography } from 'antd';
import { DeleteOutlined, NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { NOTICE_BODY_MAX, NOTICE_LEVELS, NOTICE_TITLE_MAX, noticeBodySchema, type NoticeLevel, type NoticeRow } from '@iotc/shared/notice';
import { ApiError } from '../../../api/client.ts';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { OrgSelect } from '../../../components/org-select.tsx';
import { textShadeOf } from '../../../lib/color.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams } from '../../../lib/list-query.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useNotices, usePublishNotice, useWithdrawNotice } from '../api/notices.ts';
import '../components/system.css';

const LEVEL_COLOR: Record<NoticeLevel, string> = { info: 'blue', warning: 'orange', important: 'red' };
/** The list's level tags: a light tint of the level's colour under text dark enough to read (axe's contrast). */
const LEVEL_HEX: Record<NoticeLevel, string> = { info: '#1677ff', warning: '#fa8c16', important: '#f5222d' };

interface FormValues {
  titleZh: string;
  titleEn: string;
  bodyZh: string;
  bodyEn: string;
  level: NoticeLevel;
  audience: 'all' | 'org';
  orgId?: string;
}

interface NoticeView extends NoticeRow {
  title: string;
  audienceText: string;
  time: string;
}

function PublishDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<FormValues>();
  const publish = usePublishNotice();
  const audience = Form.useWatch('audience', form);
  const rule = (field: 'titleZh' | 'titleEn') => schemaRule(noticeBodySchema.shape[field], lang);

  const submit = async () => {
    const v = await form.validateFields();
    await publish.mutateAsync({
      titleZh: v.titleZh,
      titleEn: v.titleEn,
      bodyZh: v.bodyZh ?? '',
      bodyEn: v.bodyEn ?? '',
      level: v.level,
      orgId: v.audience === 'org' ? (v.orgId ?? null) : null,
    });
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('notices.publishTitle')}
      okText={t('notices.publish')}
      onOk={() => void submit().catch(() => undefined)}
      confirmLoading={publish.isPending}
      onCancel={() => {
        publish.reset();
        onClose();
      }}
      width={720}
      destroyOnHidden
      okButtonProps={{ ...{ 'data-testid': 'notice-submit' } }}
      data-testid="notice-dialog"
    >
      {publish.isError ? (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} title={publish.error instanceof ApiError ? publish.error.message : t('notices.failed')} data-testid="notice-error" />
      ) : null}
      <Form form={form} layout="vertical" initialValues={{ level: 'info', audience: 'all', bodyZh: '', bodyEn: '' }} preserve={false}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="titleZh" label={t('notices.titleZh')} rules={[rule('titleZh')]}>
              <Input maxLength={NOTICE_TITLE_MAX} data-testid="notice-title-zh" />
            </Form.Item>
            <Form.Item name="bodyZh" label={t('notices.bodyZh')}>
              <Input.TextArea rows={4} maxLength={NOTICE_BODY_MAX} data-testid="notice-body-zh" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="titleEn" label={t('notices.titleEn')} rules={[rule('titleEn')]}>
              <Input maxLength={NOTICE_TITLE_MAX} data-testid="notice-title-en" />
            </Form.Item>
            <Form.Item name="bodyEn" label={t('notices.bodyEn')}>
              <Input.TextArea rows={4} maxLength={NOTICE_BODY_MAX} data-testid="notice-body-en" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="level" label={t('notices.level')}>
          <Radio.Group data-testid="notice-level">
            {NOTICE_LEVELS.map((l) => (
              <Radio key={l} value={l} data-testid={`notice-level-${l}`}>
                {t(`inbox.noticeLevel.${l}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="audience" label={t('notices.audience')}>
          <Radio.Group data-testid="notice-audience">
            <Radio value="all" data-testid="notice-audience-all">
              {t('notices.everyone')}
            </Radio>
            <Radio value="org" data-testid="notice-audience-org">
              {t('notices.orgTree')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {audience === 'org' ? (
          <Form.Item name="orgId" label={t('notices.org')} rules={[{ required: true, message: t('notices.orgRequired') }]}>
            <OrgSelect aria-label={t('notices.org')} />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

export default function NoticesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const list = useListParams('notices');
  const query = useNotices(list);
  const withdraw = useWithdrawNotice();
  const confirm = useConfirmAction();
  const [publishing, setPublishing] = useState(false);

  const rows = useMemo(
    () =>
      (query.data?.rows ?? []).map(
        (r): NoticeView => ({
          ...r,
          title: lang === 'zh' ? r.titleZh : r.titleEn,
          audienceText: r.orgId ? t('notices.toOrg', { org: r.orgName ?? '' }) : t('notices.everyone'),
          time: dayjs(r.publishedAt).format(DATETIME_FORMAT),
        }),
      ),
    [query.data, lang, t],
  );

  const descriptor: TableDescriptor<NoticeView> = {
    id: 'notices',
    rowKey: 'id',
    columns: [
      { key: 'notices.col.title', value: 'title', testId: 'notice-row-title' },
      {
        key: 'notices.col.level',
        value: 'level',
        type: 'button',
        width: 110,
        testId: 'notice-row-level',
        buttons: NOTICE_LEVELS.map((l) => ({ key: l, text: `inbox.noticeLevel.${l}`, butType: 'tag' as const, background: `${LEVEL_HEX[l]}1f`, color: textShadeOf(LEVEL_HEX[l]) })),
      },
      { key: 'notices.col.audience', value: 'audienceText', width: 240, testId: 'notice-row-audience' },
      { key: 'notices.col.publishedAt', value: 'time', width: 170, testId: 'notice-row-time' },
    ],
    topButtons: [{ name: 'notices.publish', icon: <NotificationOutlined />, primary: true, testId: 'notice-new', onClick: () => setPublishing(true) }],
    rowButtons: [
      {
        name: 'notices.withdraw',
        icon: <DeleteOutlined />,
        showtype: 'ti',
        danger: true,
        testId: 'notice-withdraw',
        onClick: (r) =>
          confirm({
            title: t('notices.withdrawTitle'),
            content: (
              <Typography.Paragraph data-testid="notice-withdraw-content">
                <Tag color={LEVEL_COLOR[r.level]}>{t(`inbox.noticeLevel.${r.level}`)}</Tag>
                {t('notices.withdrawContent', { title: r.title, audience: r.audienceText })}
              </Typography.Paragraph>
            ),
            okText: t('notices.withdraw'),
            danger: true,
            action: () => withdraw.mutateAsync(r.id),
            success: t('notices.withdrawn'),
          }),
      },
    ],
    actionWidth: 110,
  };

  return (
    <Card title={<span data-testid="screen-title">{t('notices.title')}</span>} data-testid="notices-page">
      <Alert type="info" showIcon title={t('notices.hint')} style={{ marginBottom: 16 }} data-testid="notices-hint" />
      <DataTable<NoticeView>
        descriptor={descriptor}
        rows={rows}
        total={query.data?.total ?? 0}
        page={list.page}
        size={list.size}
        onChange={list.setTable}
        loading={query.isFetching}
        error={query.isError && !query.data ? query.error : undefined}
        onRetry={() => void query.refetch()}
        emptyText={<span data-testid="notices-empty">{t('notices.none')}</span>}
      />
      <PublishDialog open={publishing} onClose={() => setPublishing(false)} />
    </Card>
  );
}
