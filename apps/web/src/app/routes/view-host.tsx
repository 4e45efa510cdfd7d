// The generic view host (/view/:view/:page/:id): opens the screen named by the address.
import { useParams } from 'react-router-dom';
import { NotFound } from '../../components/not-found.tsx';
import { resolveScreen } from './screens.ts';
import { ScreenLoader } from './screen-loader.tsx';

export function ViewHost() {
  const params = useParams();
  const segments = params['*'] ? params['*'].split('/') : [params.view, params.page, params.id];
  const screen = resolveScreen(segments.filter((s): s is string => !!s));
  if (!screen) return <NotFound />;
  return (
    <ScreenLoader
      key={screen.name}
      name={screen.name}
      importer={screen.importer}
      id={screen.id}
      scenarioType={screen.scenarioType}
    />
  );
}
