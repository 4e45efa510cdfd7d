// asset/vehicles: the vehicles of the caller's organisations (the generic asset list of kind 'vehicle').
import type { ScreenProps } from '../../../lib/screen.ts';
import { AssetListPage } from './asset-list-page.tsx';

export default function VehiclesPage(_props: ScreenProps) {
  return <AssetListPage kind="vehicle" />;
}
