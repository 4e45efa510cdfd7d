// asset/coldChain: cold-chain warehouse assets. Warehouses in the master table; opening one
// (its code) lists its cold rooms, and opening a cold room lists its refrigerators (without a
// cold room, the refrigerators standing in the warehouse itself). New cold rooms and
// refrigerators go into what is open. The selection lives in the address (`warehouse`, `room`),
// so a reload or a shared link keeps it.
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Card, Empty, Space } from 'antd';
import { CloseOutlined, HomeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AssetRow } from '@iotc/shared/asset';
import { Forbidden } from '../../../components/forbidden.tsx';
import { clearScopedListParams, useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useAsset } from '../api/asset-detail.ts';
import { AssetTable } from '../components/asset-table.tsx';
import '../components/asset.css';

const ROOMS = 'cold-rooms';
const FRIDGES = 'refrigerators';

function Heading({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  return (
    <div className="asset-section-head">
      <h3 className="asset-section-title">{children}</h3>
      {extra}
    </div>
  );
}

export default function ColdChainPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  const warehouses = useListParams('warehouses');
  const rooms = useListParams(ROOMS, { scoped: true });
  const fridges = useListParams(FRIDGES, { scoped: true });
  const warehouseId = params.get('warehouse') ?? undefined;
  const asked = warehouseId ? (params.get('room') ?? undefined) : undefined;
  const warehouse = useAsset('warehouse', warehouseId);
  const room = useAsset('cold_room', asked);
  // A cold room that is gone (deleted, or a stale link) leaves the warehouse's own refrigerators.
  const roomId = room.isError ? undefined : asked;
  const detailRef = useRef<HTMLDivElement>(null);

  const select = (next: { warehouse?: string; room?: string }) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next.warehouse !== undefined && next.warehouse !== prev.get('warehouse')) clearScopedListParams(p, ROOMS);
      if (next.warehouse) p.set('warehouse', next.warehouse);
      else if (next.warehouse === '') p.delete('warehouse');
      if (next.room) p.set('room', next.room);
      else p.delete('room');
      clearScopedListParams(p, FRIDGES);
      return p;
    });

  // Opening a warehouse brings its cold rooms into view.
  useEffect(() => {
    if (warehouseId) detailRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [warehouseId]);

  if (!can('device:read')) return <Forbidden />;

  const label = (a: AssetRow | undefined) => (a ? `${a.code} · ${a.name}` : '…');
  const wh = warehouse.data;
  const rm = room.data;
  // The id is known from the address before the asset itself arrives: the lists filter by it at once.
  const parentOf = (id: string, a: AssetRow | undefined) => ({ id, code: a?.code ?? '', name: a?.name ?? '' });
  const gone = !!warehouseId && warehouse.isError;

  return (
    <Card title={<span data-testid="screen-title">{t('asset.coldChain.title')}</span>} data-testid="cold-chain-page" className="asset-page">
      <AssetTable
        kind="warehouse"
        list={warehouses}
        onOpen={(row) => select({ warehouse: row.id })}
        heading={<Heading>{t('asset.warehouse.title')}</Heading>}
      />
      <div ref={detailRef} className="asset-detail" data-testid="cold-chain-detail">
        {!warehouseId || gone ? (
          <Empty description={t('asset.coldChain.pick')} data-testid="cold-chain-pick" />
        ) : (
          <>
            <AssetTable
              kind="cold_room"
              list={rooms}
              small
              parent={parentOf(warehouseId, wh)}
              onOpen={(row) => select({ warehouse: warehouseId, room: row.id })}
              heading={
                <Heading
                  extra={
                    <Button icon={<CloseOutlined />} data-testid="cold-chain-close" onClick={() => select({ warehouse: '' })}>
                      {t('asset.coldChain.close')}
                    </Button>
                  }
                >
                  <span data-testid="cold-chain-rooms-title">{t('asset.coldChain.rooms', { warehouse: label(wh) })}</span>
                </Heading>
              }
            />
            <AssetTable
              key={roomId ?? warehouseId}
              kind="refrigerator"
              list={fridges}
              small
              parent={roomId ? parentOf(roomId, rm) : parentOf(warehouseId, wh)}
              heading={
                <Heading
                  extra={
                    roomId ? (
                      <Space>
                        <Button icon={<HomeOutlined />} data-testid="cold-chain-warehouse-fridges" onClick={() => select({ warehouse: warehouseId })}>
                          {t('asset.coldChain.warehouseFridges')}
                        </Button>
                      </Space>
                    ) : null
                  }
                >
                  <span data-testid="cold-chain-fridges-title">
                    {roomId ? t('asset.coldChain.roomFridges', { room: label(rm) }) : t('asset.coldChain.directFridges', { warehouse: label(wh) })}
                  </span>
                </Heading>
              }
            />
          </>
        )}
      </div>
    </Card>
  );
}
