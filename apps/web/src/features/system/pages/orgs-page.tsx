// system/orgs: the caller's organisation tree on the left (searchable), the selected
// organisation's details on the right with its actions: add a child, rename, deactivate or
// activate, delete. The selection lives in the address (`org`), so a reload keeps it.
import { useMemo } from 'react';
import { Badge, Button, Card, Descriptions, Empty, Skeleton, Space, Tag, Tooltip } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { errorText } from '@iotc/shared/errors';
import type { OrgNode } from '@iotc/shared/platform';
import { useInfo } from '../../../api/info.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useDeleteOrg } from '../api/org-delete.ts';
import { useChangeOrgStatus } from '../api/org-status.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import { OrgFormModal, type OrgFormTarget } from '../components/org-form-modal.tsx';
import { findOrg } from '../components/org-tree-model.ts';
import { OrgTreePanel } from '../components/org-tree-panel.tsx';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import '../components/system.css';

function OrgDetails({ org, parent, own }: { org: OrgNode; parent: OrgNode | undefined; own: boolean }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      column={2}
      size="middle"
      data-testid="org-details"
      items={[
        { key: 'name', label: t('system.orgs.name'), children: <span data-testid="org-detail-name">{org.name}</span> },
        { key: 'code', label: t('system.orgs.code'), children: <span data-testid="org-detail-code">{org.code}</span> },
        {
          key: 'kind',
          label: t('system.orgs.kind'),
          children: <Tag color={org.kind === 'platform' ? 'blue' : 'default'}>{t(org.kind === 'platform' ? 'system.orgs.kindPlatform' : 'system.orgs.kindTenant')}</Tag>,
        },
        {
          key: 'status',
          label: t('system.common.status'),
          children: (
            <span data-testid="org-detail-status" data-status={org.status}>
              <Badge status={org.status === 'active' ? 'success' : 'default'} text={t(org.status === 'active' ? 'system.common.active' : 'system.common.disabled')} />
            </span>
          ),
        },
        { key: 'parent', label: t('system.orgs.parent'), children: parent?.name ?? '-' },
        { key: 'users', label: t('system.orgs.userCount'), children: <span data-testid="org-detail-users">{org.userCount}</span> },
        { key: 'created', label: t('system.common.createdAt'), children: dayjs(org.createdAt).format(DATETIME_FORMAT) },
        { key: 'children', label: t('system.orgs.childCount'), children: org.children.length },
        ...(own ? [{ key: 'own', label: t('system.orgs.yours'), children: t('system.orgs.yoursHint'), span: 2 }] : []),
      ]}
    />
  );
}

export default function OrgsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const { data: me } = useInfo();
  const [params, setParams] = useSearchParams();
  const readable = can('org:read');
  const { data: tree, isPending } = useOrgTree(readable);
  const form = useDialog<OrgFormTarget>();
  const confirm = useConfirmAction();
  const changeStatus = useChangeOrgStatus();
  const remove = useDeleteOrg();

  const selectedId = params.get('org') ?? tree?.[0]?.id;
  const org = useMemo(() => findOrg(tree ?? [], selectedId) ?? tree?.[0], [tree, selectedId]);
  const parent = useMemo(() => findOrg(tree ?? [], org?.parentId), [tree, org?.parentId]);
  const select = (id: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('org', id);
        else next.delete('org');
        return next;
      },
      { replace: true },
    );

  const writable = can('org:write');
  // The server refuses these for the caller's own organisation; the buttons say so first.
  const own = !!org && org.id === me?.orgId;
  const ownHint = own ? errorText('NOT_YOUR_ORG', lang) : undefined;

  const deactivate = (o: OrgNode) =>
    confirm({
      title: t('system.orgs.deactivateTitle'),
      content: t('system.orgs.deactivateContent', { name: o.name }),
      okText: t('system.common.deactivate'),
      danger: true,
      action: () => changeStatus.mutateAsync({ id: o.id, change: 'deactivate' }),
      success: t('system.common.deactivated'),
    });
  const activate = (o: OrgNode) =>
    confirm({
      title: t('system.orgs.activateTitle'),
      content: t('system.orgs.activateContent', { name: o.name }),
      okText: t('system.common.activate'),
      action: () => changeStatus.mutateAsync({ id: o.id, change: 'activate' }),
      success: t('system.common.activated'),
    });
  const del = (o: OrgNode) =>
    confirm({
      title: t('system.orgs.deleteTitle'),
      content: t('system.orgs.deleteContent', { name: o.name }),
      okText: t('system.common.delete'),
      danger: true,
      action: () => remove.mutateAsync(o.id),
      success: t('system.common.deleted'),
      onDone: () => select(o.parentId ?? undefined),
    });

  // The menu may show the screen to a role that lacks the action; the server would refuse the tree.
  if (!readable) return <Forbidden />;

  let main;
  if (isPending) main = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (!org) main = <Empty description={t('system.orgs.pick')} />;
  else
    main = (
      <>
        <div className="system-detail-head">
          <h3 className="system-detail-title" data-testid="org-title">
            {org.name}
          </h3>
          {writable ? (
            <Space wrap>
              <Button type="primary" icon={<PlusOutlined />} data-testid="org-add-child" onClick={() => form.show({ mode: 'create', parent: org })}>
                {t('system.orgs.addChild')}
              </Button>
              <Button icon={<EditOutlined />} data-testid="org-rename" onClick={() => form.show({ mode: 'rename', org })}>
                {t('system.orgs.rename')}
              </Button>
              <Tooltip title={ownHint}>
                {org.status === 'active' ? (
                  <Button icon={<StopOutlined />} data-testid="org-deactivate" disabled={own} onClick={() => deactivate(org)}>
                    {t('system.common.deactivate')}
                  </Button>
                ) : (
                  <Button icon={<CheckCircleOutlined />} data-testid="org-activate" disabled={own} onClick={() => activate(org)}>
                    {t('system.common.activate')}
                  </Button>
                )}
              </Tooltip>
              <Tooltip title={ownHint}>
                <Button danger icon={<DeleteOutlined />} data-testid="org-delete" disabled={own} onClick={() => del(org)}>
                  {t('system.common.delete')}
                </Button>
              </Tooltip>
            </Space>
          ) : null}
        </div>
        <OrgDetails org={org} parent={parent} own={own} />
      </>
    );

  return (
    <Card title={<span data-testid="screen-title">{t('system.orgs.title')}</span>} data-testid="orgs-page" className="system-page">
      <div className="system-split">
        <OrgTreePanel selectedId={org?.id} onSelect={select} />
        <div className="system-split-main">{main}</div>
      </div>
      <OrgFormModal target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} onSaved={select} />
    </Card>
  );
}
