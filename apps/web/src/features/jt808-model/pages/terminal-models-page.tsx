// deviceManage/jt808Models: the item mappings of JT/T 808 terminal models (vendor additional
// items -> sensor channels) of the caller's organisations. Writers (device:write) create and
// change them in a form and delete them after a confirmation.
import { Card } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteModel } from '../api/model-delete.ts';
import { useModelList, type ModelView } from '../api/models.ts';
import { ModelFormModal, type ModelFormTarget } from '../components/model-form-modal.tsx';

export default function TerminalModelsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const list = useListParams('jt808-models', { sort: 'model,asc' });
  const query = useModelList(list);
  const form = useDialog<ModelFormTarget>();
  const confirm = useConfirmAction();
  const remove = useDeleteModel();
  const writable = can('device:write');

  const descriptor: TableDescriptor<ModelView> = {
    id: 'jt808-models',
    rowKey: 'id',
    columns: [
      { key: 'jt808Model.model', value: 'model', sortable: true, testId: 'model-name' },
      { key: 'jt808Model.description', value: 'description' },
      { key: 'jt808Model.itemCount', value: 'itemCount' },
      { key: 'jt808Model.org', value: 'orgName' },
      { key: 'jt808Model.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true },
    ],
    topButtons: writable ? [{ name: 'jt808Model.new', icon: <PlusOutlined />, primary: true, testId: 'model-new', onClick: () => form.show({ mode: 'create' }) }] : [],
    rowButtons: writable
      ? [
          { name: 'jt808Model.edit', icon: <EditOutlined />, showtype: 'ti', testId: 'model-action-edit', onClick: (r) => form.show({ mode: 'edit', row: r }) },
          {
            name: 'jt808Model.delete',
            icon: <DeleteOutlined />,
            showtype: 'ti',
            danger: true,
            testId: 'model-action-delete',
            onClick: (r) =>
              confirm({
                title: t('jt808Model.deleteTitle'),
                content: <p data-testid="model-delete-content">{t('jt808Model.deleteContent', { model: r.model, org: r.orgName })}</p>,
                okText: t('jt808Model.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('jt808Model.deleted'),
              }),
          },
        ]
      : [],
  };

  if (!can('device:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('jt808Model.title')}</span>} data-testid="jt808-models-page">
      <p style={{ color: 'rgba(0,0,0,0.58)', marginTop: 0 }}>{t('jt808Model.intro')}</p>
      <ServerTable descriptor={descriptor} list={list} query={query} />
      <ModelFormModal target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} />
    </Card>
  );
}
