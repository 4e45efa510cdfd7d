// An asset's bindings: the devices mounted on it now and every binding it had, in a drawer.
import { Descriptions, Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../lib/label.ts';
import { assetConfig, type AssetView } from './asset-kinds.ts';
import { BindingsTable } from './bindings-table.tsx';

export interface AssetBindingsDrawerProps {
  row: AssetView | null;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}

export function AssetBindingsDrawer({ row, open, onClose, afterClose }: AssetBindingsDrawerProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const config = row ? assetConfig(row.kind) : null;
  return (
    <Drawer
      open={open}
      size={820}
      title={row ? t('asset.binding.historyOf', { code: row.code, name: row.name }) : ''}
      className="asset-bindings-drawer"
      data-testid="asset-bindings-drawer"
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
    >
      {row && config ? (
        <>
          <Descriptions
            bordered
            size="small"
            column={2}
            className="asset-gap"
            items={[
              { key: 'code', label: label(config.codeLabel), children: row.code },
              { key: 'name', label: t('asset.name'), children: row.name },
              {
                key: 'devices',
                label: t('asset.devices'),
                span: 2,
                children: (
                  <span data-testid="asset-bound-devices">
                    {row.devices.length
                      ? row.devices.map((d) => (
                          <Tag key={d.id}>
                            {d.deviceId} · {d.name}
                          </Tag>
                        ))
                      : t('asset.binding.noDevices')}
                  </span>
                ),
              },
            ]}
          />
          <h4 className="asset-section-title">{t('asset.binding.history')}</h4>
          <BindingsTable key={row.id} owner={{ kind: row.kind, id: row.id }} />
        </>
      ) : null}
    </Drawer>
  );
}
