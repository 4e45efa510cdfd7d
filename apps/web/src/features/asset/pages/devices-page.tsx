// deviceManage/devices: the device registry of the caller's organisations. Registering a device
// or resetting its secret shows the secret once; a device's drawer shows its fields, binds it to
// an asset or unbinds it, and lists its binding history. Import and export as .xlsx / CSV.
import { Card } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEVICE_API, type DeviceWithSecret } from '@iotc/shared/device';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import type { RowButton, TableDescriptor } from '../../../components/data-table/types.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useDeleteDevice } from '../api/device-delete.ts';
import { useResetDeviceSecret } from '../api/device-reset-secret.ts';
import { useDevices, type DeviceView } from '../api/devices.ts';
import { DeviceDrawer } from '../components/device-drawer.tsx';
import { DeviceFormModal, type DeviceFormTarget } from '../components/device-form-modal.tsx';
import { PROTOCOL_OPTIONS, PROTOCOL_TEXT } from '../components/protocols.ts';
import { ImportModal } from '../components/import-modal.tsx';
import { SecretModal, type DeviceSecret } from '../components/secret-modal.tsx';
import { useSheetButtons } from '../components/use-sheet-buttons.tsx';
import '../components/asset.css';

const FILTERS: FilterItem[] = [
  { label: 'asset.device.keyword', key: 'keyword', type: 'input' },
  { label: 'asset.device.protocol', key: 'protocol', type: 'select', options: PROTOCOL_OPTIONS },
];

/** The sheet's columns an import error may name. */
const IMPORT_FIELDS = {
  deviceId: 'asset.device.deviceId',
  name: 'asset.device.name',
  model: 'asset.device.model',
  protocol: 'asset.device.protocol',
  sim: 'asset.device.sim',
  firmware: 'asset.device.firmware',
  secret: 'asset.secret.secret',
};

export default function DevicesPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const list = useListParams('devices', { sort: 'deviceId,asc' });
  const query = useDevices(list);
  const writable = can('device:write');

  const form = useDialog<DeviceFormTarget>();
  const drawer = useDialog<DeviceView>();
  const secret = useDialog<DeviceSecret>();
  const importer = useDialog<true>();
  const confirm = useConfirmAction();
  const remove = useDeleteDevice();
  const reset = useResetDeviceSecret();
  const sheetButtons = useSheetButtons({ path: DEVICE_API.devices, filters: list.filters, sort: list.sort, onImport: writable ? () => importer.show(true) : null, testPrefix: 'device' });

  const showSecret = (d: DeviceWithSecret, isReset = false) => secret.show({ deviceId: d.deviceId, secret: d.secret, reset: isReset });

  const rowButtons: RowButton<DeviceView>[] = [
    { name: 'asset.device.details', icon: <ProfileOutlined />, showtype: 'i', testId: 'device-action-details', onClick: (r) => drawer.show(r) },
    ...(writable
      ? [
          { name: 'asset.edit', icon: <EditOutlined />, showtype: 'i' as const, testId: 'device-action-edit', onClick: (r: DeviceView) => form.show({ mode: 'edit', row: r }) },
          {
            name: 'asset.device.resetSecret',
            icon: <KeyOutlined />,
            showtype: 'i' as const,
            testId: 'device-action-reset',
            onClick: (r: DeviceView) =>
              confirm({
                title: t('asset.device.resetTitle'),
                content: t('asset.device.resetContent', { deviceId: r.deviceId }),
                okText: t('asset.device.resetSecret'),
                danger: true,
                action: async () => showSecret(await reset.mutateAsync(r.id), true),
              }),
          },
          {
            name: 'asset.delete',
            icon: <DeleteOutlined />,
            showtype: 'i' as const,
            danger: true,
            testId: 'device-action-delete',
            onClick: (r: DeviceView) =>
              confirm({
                title: t('asset.device.deleteTitle'),
                content: t(r.assetText ? 'asset.device.deleteContentBound' : 'asset.device.deleteContent', { deviceId: r.deviceId, name: r.name, asset: r.assetText }),
                okText: t('asset.delete'),
                danger: true,
                action: () => remove.mutateAsync(r.id),
                success: t('asset.deleted'),
              }),
          },
        ]
      : []),
  ];

  const descriptor: TableDescriptor<DeviceView> = {
    id: 'devices',
    rowKey: 'id',
    columns: [
      { key: 'asset.device.deviceId', value: 'deviceId', sortable: true, type: 'link' },
      { key: 'asset.device.name', value: 'name', sortable: true },
      { key: 'asset.device.model', value: 'model' },
      { key: 'asset.device.protocol', value: 'protocol', type: 'map', textMap: PROTOCOL_TEXT, testId: 'device-protocol' },
      { key: 'asset.device.sim', value: 'sim', hidden: true },
      { key: 'asset.device.firmware', value: 'firmware', hidden: true },
      { key: 'asset.org', value: 'orgName' },
      { key: 'asset.device.asset', value: 'assetText' },
      { key: 'asset.device.lastSeenAt', value: 'lastSeenAt', type: 'datetime', sortable: true },
      // Off by default (custom columns turns it on): the list fits 1280 px without scrolling sideways.
      { key: 'asset.createdAt', value: 'createdAt', type: 'datetime', sortable: true, hidden: true },
    ],
    topButtons: [
      ...(writable ? [{ name: 'asset.device.new', icon: <PlusOutlined />, primary: true, testId: 'device-new', onClick: () => form.show({ mode: 'create' }) }] : []),
      ...sheetButtons,
    ],
    rowButtons,
  };

  // The menu may show the screen to a role that lacks the action; the server would refuse the list.
  if (!can('device:read')) return <Forbidden />;

  return (
    <Card title={<span data-testid="screen-title">{t('asset.device.title')}</span>} data-testid="devices-page" className="asset-page">
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <ServerTable descriptor={descriptor} list={list} query={query} onLink={(row) => drawer.show(row)} />
      <DeviceFormModal target={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} onCreated={(d) => showSecret(d)} />
      <DeviceDrawer row={drawer.target} open={drawer.open} onClose={drawer.hide} afterClose={drawer.afterClose} />
      <SecretModal data={secret.target} open={secret.open} onClose={secret.hide} afterClose={secret.afterClose} />
      <ImportModal open={importer.open} onClose={importer.hide} path={DEVICE_API.devices} what={t('asset.device.title')} templateName="devices-template.xlsx" fieldLabels={IMPORT_FIELDS} />
    </Card>
  );
}
