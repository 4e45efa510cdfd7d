// Route loaders for the spec's section 4 and 6 rules: the token query flows, the scenario
// type query, the main page redirect and the token requirement of console screens.
import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import i18next from 'i18next';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import type { MenuItem } from '@iotc/shared/auth';
import { clearAuth, getToken, parseScenarioType, setRouterItem, setScenarioType, setToken, updateToken } from '../../lib/session.ts';
import { withFeedback } from '../../lib/feedback.ts';
import { loginPath } from '../../lib/navigation.ts';
import { menuHref } from '../../lib/menu.ts';

function flag(value: string | null): boolean {
  return value !== null && value !== 'false' && value !== '0';
}

function success(text: string): void {
  withFeedback(({ message }) => void message.success(text));
}

/** The menu item a new window was opened for, rebuilt from its query values. */
function menuItemFromQuery(params: URLSearchParams): MenuItem | undefined {
  const url = params.get('url');
  if (!url) return undefined;
  return {
    id: params.get('id') ?? '',
    pid: params.get('pid'),
    name: params.get('name') ?? '',
    url,
    icon: params.get('icon'),
    active: flag(params.get('_active')),
    children: [],
  };
}

/** Runs on every address with new query values, before any screen renders. */
export function rootLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = url.searchParams;

  const type = parseScenarioType(params.get('type'));
  if (params.has('type') && type) setScenarioType(type);

  const queryToken = params.get('token');
  if (queryToken) {
    if (!getToken()) {
      setToken(queryToken);
      success(i18next.t('token.login'));
      const item = flag(params.get('newPage')) ? menuItemFromQuery(params) : undefined;
      if (item) {
        setRouterItem(item);
        throw redirect(menuHref(item));
      }
      throw redirect(DEFAULT_LANDING);
    }
    updateToken(queryToken);
    success(i18next.t('token.update'));
    // Same screen, without the token in the address bar (and in the history).
    params.delete('token');
    const rest = params.toString();
    throw redirect(`${url.pathname}${rest ? `?${rest}` : ''}${url.hash}`);
  }

  // No token and none arriving: whatever the previous session left goes.
  if (!getToken()) clearAuth();
  return null;
}

/** `/`: the landing screen when logged in, else the login page. */
export function mainPageLoader({ request }: LoaderFunctionArgs) {
  // A token in the address: the root loader of the same navigation decides where to go.
  if (new URL(request.url).searchParams.get('token')) return null;
  return redirect(getToken() ? DEFAULT_LANDING : '/login');
}

/** Console screens need a token; without one, log in and come back. */
export function requireTokenLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A token in the address is taken by the root loader of the same navigation.
  if (!getToken() && !url.searchParams.get('token')) {
    throw redirect(loginPath(`${url.pathname}${url.search}`));
  }
  return null;
}
