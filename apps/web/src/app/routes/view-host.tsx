// The generic view host (/view/:view/:page/:id): opens the screen named by the address, when
// the user's menu grants it (screen-access.ts); otherwise the 403 page. An address owned by
// another scenario (a bookmark or a shared link: a scenario_* prefix, or a screen only another
// scenario's menu leads to) switches the console to that scenario and opens there.
import { startTransition, useEffect, useState } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useLocation, useParams, useSearchParams } from 'react-router-dom';
import { DEFAULT_SCENARIO, SCENARIO_TYPES } from '@iotc/shared/constants';
import { menuQueryOptions } from '../../api/load-menu.ts';
import { Forbidden } from '../../components/forbidden.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageSpin } from '../../components/page-spin.tsx';
import { afterPaint } from '../../lib/after-paint.ts';
import { useLang } from '../../lib/language.ts';
import { setScenarioType, useScenarioType } from '../../lib/session.ts';
import { canOpenScreen, owningScenario } from './screen-access.ts';
import { resolveScreen } from './screens.ts';
import { ScreenLoader } from './screen-loader.tsx';

/** Whether the console frame has been painted in this page load (useFramePainted). */
let framePainted = false;

/**
 * False until the frame around the view host has been painted once in this page load. The page
 * load's first screen waits for it: the navigation and the header (the menu holds the page's
 * largest text) are drawn in a first, smaller task, and the screen (its table, its map) is
 * rendered right after in React's background render, rather than all in one long task before
 * anything shows. The screens opened later render at once.
 */
function useFramePainted(): boolean {
  const [painted, setPainted] = useState(framePainted);
  useEffect(() => {
    if (painted) return;
    return afterPaint(() => {
      framePainted = true;
      startTransition(() => setPainted(true));
    });
  }, [painted]);
  return painted;
}

export function ViewHost() {
  const painted = useFramePainted();
  const params = useParams();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const lang = useLang();
  const type = useScenarioType();
  const current = type ?? DEFAULT_SCENARIO;
  // The same menu the navigation shows (same query key, so no second call); the previous
  // language's menu stands in while a language switch reloads it, so the screen stays mounted.
  const menu = useQuery({ ...menuQueryOptions(lang, type), placeholderData: keepPreviousData });
  const segments = params['*'] ? params['*'].split('/') : [params.view, params.page, params.id];
  const screen = resolveScreen(segments.filter((s): s is string => !!s));
  const granted = !!screen && canOpenScreen(screen.name, menu.data ?? []);
  const menuSettled = !menu.isPending && !menu.isPlaceholderData;

  // A scenario_* prefix says whose screen it is, unless the address also chose a type itself.
  const prefixed = screen?.scenarioType !== undefined && screen.scenarioType !== current && !search.has('type') ? screen.scenarioType : undefined;
  // The other scenarios' menus are read only when this one refuses the screen.
  const lookElsewhere = !!screen && prefixed === undefined && menu.isSuccess && !menu.isPlaceholderData && !granted;
  const others = SCENARIO_TYPES.filter((t) => t !== current);
  const otherMenus = useQueries({ queries: others.map((t) => ({ ...menuQueryOptions(lang, t), enabled: lookElsewhere })) });
  const othersSettled = lookElsewhere && otherMenus.every((q) => !q.isPending);
  const owner =
    prefixed ??
    (othersSettled && screen ? owningScenario(screen.name, pathname, others.map((t, i) => [t, otherMenus[i]?.data ?? []] as const)) : undefined);

  useEffect(() => {
    if (owner !== undefined) setScenarioType(owner);
  }, [owner]);

  if (!screen) return <NotFound />;
  if (!granted) {
    // Still deciding: this scenario's menu, the others', or the switch to the owner.
    if (!menuSettled || (lookElsewhere && !othersSettled) || owner !== undefined) return <PageSpin />;
    // No menu leads to it (or the menu failed to load): nothing but the landing screens.
    return <Forbidden />;
  }
  if (!painted) return <PageSpin />;
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
