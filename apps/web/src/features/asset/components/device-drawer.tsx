// One device in a drawer: its registry fields, the asset it is mounted on with Bind (a kind and
// an asset picked by search; a bound device moves) and Unbind (confirmed), its binding history, and
// for a JT/T 808 device the terminal's registration, connection and last frames.
import { useState } from 'react';
import { App, Button, Descriptions, Drawer, Space, Tag } from 'antd';
import { DisconnectOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { AssetPicker } from '../../../components/asset-picker.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLabel } from '../../../lib/label.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useBindDevice, useUnbindDevice } from '../api/device-binding.ts';
import { useDevice } from '../api/device-detail.ts';
import type { BoundAsset, DeviceView } from '../api/devices.ts';
import { kindLabel } from './asset-kinds.ts';
import { BindingsTable } from './bindings-table.tsx';
import { Jt808Section } from './jt808-section.tsx';
import { PROTOCOL_KEYS } from './protocols.ts';

function BindForm({ deviceId, bound }: { deviceId: string; bound: BoundAsset | null }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const bind = useBindDevice();
  const label = useLabel();
  const [kind, setKind] = useState<AssetKind>('vehicle');
  const [assetId, setAssetId] = useState<string | undefined>();
  const submit = async () => {
    if (!assetId) return;
    try {
      await bind.mutateAsync({ id: deviceId, assetId });
      setAssetId(undefined);
      void message.success(t('asset.binding.bound'));
    } catch (error) {
      void message.error({ content: apiErrorText(error, lang), className: 'action-error', duration: 6 });
    }
  };
  return (
    <div className="asset-bind-form" data-testid="device-bind-form">
      <div className="asset-bind-row">
        <AssetPicker
          kinds={ASSET_KINDS}
          kind={kind}
          onKindChange={(k) => {
            setKind(k);
            setAssetId(undefined);
          }}
          kindName={(k) => label(kindLabel(k))}
          kindLabel={t('asset.binding.assetKind')}
          kindTestId="asset-picker-kind"
          kindClassName="asset-picker-kind"
          value={assetId}
          onChange={(id) => setAssetId(id)}
          placeholder={t('asset.binding.pick')}
          className="asset-picker"
          data-testid="asset-picker"
        />
        <Button type="primary" icon={<LinkOutlined />} data-testid="device-bind" disabled={!assetId || (bound?.id === assetId)} loading={bind.isPending} onClick={() => void submit()}>
          {bound ? t('asset.binding.move') : t('asset.binding.bind')}
        </Button>
      </div>
      {bound ? <div className="asset-muted">{t('asset.binding.moveHint', { asset: `${bound.code} · ${bound.name}` })}</div> : null}
    </div>
  );
}

export interface DeviceDrawerProps {
  row: DeviceView | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function DeviceDrawer({ row, open, onClose, afterClose }: DeviceDrawerProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const can = usePermission();
  const writable = can('device:write');
  const confirm = useConfirmAction();
  const unbind = useUnbindDevice();
  // The stored device, fresh: a binding made here changes it.
  const detail = useDevice(open ? row?.id : undefined);
  const device = detail.data ?? row;
  const bound = device?.asset ?? null;
  const time = (iso: string | null | undefined) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '-');

  const doUnbind = () => {
    if (!device || !bound) return;
    confirm({
      title: t('asset.binding.unbindTitle'),
      content: t('asset.binding.unbindContent', { deviceId: device.deviceId, asset: `${bound.code} · ${bound.name}` }),
      okText: t('asset.binding.unbind'),
      danger: true,
      action: () => unbind.mutateAsync(device.id),
      success: t('asset.binding.unbound'),
    });
  };

  return (
    <Drawer
      open={open}
      size={860}
      title={device ? t('asset.device.detailsTitle', { deviceId: device.deviceId }) : ''}
      className="device-drawer"
      data-testid="device-drawer"
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
    >
      {device ? (
        <>
          <Descriptions
            bordered
            size="small"
            column={2}
            className="asset-gap"
            data-testid="device-details"
            items={[
              { key: 'deviceId', label: t('asset.device.deviceId'), children: <span data-testid="device-detail-id">{device.deviceId}</span> },
              { key: 'name', label: t('asset.device.name'), children: device.name },
              { key: 'model', label: t('asset.device.model'), children: device.model ?? '-' },
              { key: 'protocol', label: t('asset.device.protocol'), children: <span data-testid="device-detail-protocol">{device.protocol ? t(PROTOCOL_KEYS[device.protocol]) : '-'}</span> },
              { key: 'sim', label: t('asset.device.sim'), children: device.sim ?? '-' },
              { key: 'firmware', label: t('asset.device.firmware'), children: device.firmware ?? '-' },
              { key: 'org', label: t('asset.org'), children: device.orgName },
              { key: 'lastSeen', label: t('asset.device.lastSeenAt'), children: time(device.lastSeenAt) },
              { key: 'created', label: t('asset.createdAt'), children: time(device.createdAt), span: 2 },
            ]}
          />
          <h4 className="asset-section-title">{t('asset.device.asset')}</h4>
          <div className="asset-bound" data-testid="device-bound-asset" data-bound={bound ? bound.id : ''}>
            {bound ? (
              <Space wrap>
                <Tag color="blue">{label(kindLabel(bound.kind))}</Tag>
                <span className="asset-bound-text" data-testid="device-bound-asset-text">
                  {bound.code} · {bound.name}
                </span>
                {writable ? (
                  <Button danger icon={<DisconnectOutlined />} size="small" data-testid="device-unbind" onClick={doUnbind}>
                    {t('asset.binding.unbind')}
                  </Button>
                ) : null}
              </Space>
            ) : (
              <span className="asset-muted">{t('asset.binding.none')}</span>
            )}
          </div>
          {writable ? <BindForm key={device.id} deviceId={device.id} bound={bound} /> : null}
          <h4 className="asset-section-title">{t('asset.binding.history')}</h4>
          <BindingsTable key={device.id} owner={{ device: device.id }} />
          {device.protocol === 'jt808' ? <Jt808Section key={device.id} deviceRef={device.id} /> : null}
        </>
      ) : null}
    </Drawer>
  );
}
