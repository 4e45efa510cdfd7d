// Route loaders for the spec's section 4 and 6 rules: the token query flows, the scenario
// type query, the main page redirect and the token requirement of console screens.
import { redirect, replace, type LoaderFunctionArgs } from 'react-router-dom';
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

// Translated when shown: a loader of the first page load runs before the language's texts are
// in, the message only once the app has rendered.
function success(key: 'token.login' | 'token.update'): void {
  withFeedback(({ message }) => void message.success(i18next.t(key)));
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

// What the token query of the page's first address did, until the root loader says so.
let adopted: 'login' | 'update' | undefined;

/**
 * The spec's token query on the address the page was loaded with (a window opened from My
 * Services, a link from another system): saved as the token, and taken off the address with
 * history.replaceState before the router reads it, so it stays neither in the address bar nor
 * in the history. Runs once, before the router is created.
 */
export function adoptAddressToken(win: Pick<Window, 'location' | 'history'> = window): void {
  const url = new URL(win.location.href);
  const token = url.searchParams.get('token');
  if (!token) return;
  url.searchParams.delete('token');
  let target = `${url.pathname}${url.search}${url.hash}`;
  if (getToken()) {
    updateToken(token);
    adopted = 'update';
  } else {
    setToken(token);
    adopted = 'login';
    // A new window for a menu item starts at that item (decided here, not by racing loaders).
    const item = flag(url.searchParams.get('newPage')) ? menuItemFromQuery(url.searchParams) : undefined;
    if (item) {
      const type = parseScenarioType(url.searchParams.get('type'));
      if (type) setScenarioType(type);
      setRouterItem(item);
      target = menuHref(item);
    }
  }
  win.history.replaceState(win.history.state, '', target);
}

/** Runs on every address with new query values, before any screen renders. */
export function rootLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = url.searchParams;

  const type = parseScenarioType(params.get('type'));
  if (params.has('type') && type) setScenarioType(type);

  if (adopted) {
    const kind = adopted;
    adopted = undefined;
    // The address is the target page itself (a menu item's, set by adoptAddressToken); `/`
    // goes on to the landing screen through its own loader.
    success(kind === 'login' ? 'token.login' : 'token.update');
    return null;
  }

  // A token query on an address the app navigated to itself (the page's first address was
  // handled by adoptAddressToken).
  const queryToken = params.get('token');
  if (queryToken) {
    if (!getToken()) {
      setToken(queryToken);
      success('token.login');
      const item = flag(params.get('newPage')) ? menuItemFromQuery(params) : undefined;
      if (item) {
        setRouterItem(item);
        throw replace(menuHref(item));
      }
      throw replace(DEFAULT_LANDING);
    }
    updateToken(queryToken);
    success('token.update');
    // Same screen, without the token in the address bar (and in the history).
    params.delete('token');
    const rest = params.toString();
    throw replace(`${url.pathname}${rest ? `?${rest}` : ''}${url.hash}`);
  }

  // No token and none arriving: whatever the previous session left goes.
  if (!getToken()) clearAuth();
  return null;
}

/** `/`: the landing screen when logged in, else the login page. */
export function mainPageLoader({ request }: LoaderFunctionArgs) {
  // A token in the address: the root loader of the same navigation decides where to go.
  if (new URL(request.url).searchParams.get('token')) return null;
  // In place of `/`, so that going back does not land on a page that only sends one forward.
  return replace(getToken() ? DEFAULT_LANDING : '/login');
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
