// asset/gateways: the gateways of the caller's organisations (the generic asset list of kind 'gateway').
import type { ScreenProps } from '../../../lib/screen.ts';
import { AssetListPage } from './asset-list-page.tsx';

export default function GatewaysPage(_props: ScreenProps) {
  return <AssetListPage kind="gateway" />;
}
