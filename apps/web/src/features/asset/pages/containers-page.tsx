// asset/containers: the containers of the caller's organisations (the generic asset list of kind 'container').
import type { ScreenProps } from '../../../lib/screen.ts';
import { AssetListPage } from './asset-list-page.tsx';

export default function ContainersPage(_props: ScreenProps) {
  return <AssetListPage kind="container" />;
}
