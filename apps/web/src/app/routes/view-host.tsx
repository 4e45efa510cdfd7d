// The generic view host (/view/:view/:page/:id): opens the screen named by the address, when
// the user's menu grants it (screen-access.ts); otherwise the 403 page.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { menuQueryOptions } from '../../api/load-menu.ts';
import { Forbidden } from '../../components/forbidden.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageSpin } from '../../components/page-spin.tsx';
import { useLang } from '../../lib/language.ts';
import { getScenarioType } from '../../lib/session.ts';
import { canOpenScreen } from './screen-access.ts';
import { resolveScreen } from './screens.ts';
import { ScreenLoader } from './screen-loader.tsx';

export function ViewHost() {
  const params = useParams();
  const lang = useLang();
  // The same menu the navigation shows (same query key, so no second call); the previous
  // language's menu stands in while a language switch reloads it, so the screen stays mounted.
  const menu = useQuery({ ...menuQueryOptions(lang, getScenarioType()), placeholderData: keepPreviousData });
  const segments = params['*'] ? params['*'].split('/') : [params.view, params.page, params.id];
  const screen = resolveScreen(segments.filter((s): s is string => !!s));
  if (!screen) return <NotFound />;
  if (!canOpenScreen(screen.name, menu.data ?? [])) {
    if (menu.isPending) return <PageSpin />;
    // A menu that failed to load grants nothing but the landing screens.
    return <Forbidden />;
  }
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
