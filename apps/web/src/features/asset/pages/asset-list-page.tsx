// The list screen of one top-level asset kind (vehicles, containers, gateways): the generic
// asset table under the kind's title.
import { Card } from 'antd';
import type { AssetKind } from '@iotc/shared/asset';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useLabel } from '../../../lib/label.ts';
import { useListParams } from '../../../lib/list-query.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { assetConfig } from '../components/asset-kinds.ts';
import { AssetTable } from '../components/asset-table.tsx';
import '../components/asset.css';

export function AssetListPage({ kind }: { kind: AssetKind }) {
  const label = useLabel();
  const can = usePermission();
  const config = assetConfig(kind);
  const list = useListParams(config.resource, { sort: 'code,asc' });
  // The menu may show the screen to a role that lacks the action; the server would refuse the list.
  if (!can('device:read')) return <Forbidden />;
  return (
    <Card title={<span data-testid="screen-title">{label(config.title)}</span>} data-testid={`${config.resource}-page`} className="asset-page">
      <AssetTable kind={kind} list={list} />
    </Card>
  );
}
