// Client state of the spec's section 4: the login token, the user, the scenario type and the
// last opened menu item, each in the storage the spec assigns to it.
import Cookies from 'js-cookie';
import { SCENARIO_TYPES, type ScenarioType } from '@iotc/shared/constants';
import type { LoginData, MenuItem, UserInfo } from '@iotc/shared/auth';
import { queryClient } from './query-client.ts';
import { getItem, removeItem, setItem } from './storage.ts';

const TOKEN = 'token';
const USERINFO = 'userinfo';
const TYPE = 'type';
const ROUTER = 'router';

export function getToken(): string | undefined {
  return Cookies.get(TOKEN) || getItem<string>(TOKEN) || undefined;
}

/**
 * A token that came with a period ("stay logged in for a week") survives the browser in a
 * cookie for that many days; any other token lives only as long as the tab's session.
 */
export function setToken(token: string, periodDays?: number | null): void {
  if (periodDays) {
    Cookies.set(TOKEN, token, { expires: periodDays, sameSite: 'lax', path: '/' });
    removeItem(TOKEN);
  } else {
    setItem(TOKEN, token, true);
    Cookies.remove(TOKEN, { path: '/' });
  }
}

/** Replaces the token in whichever place holds it now, keeping its persistence. */
export function updateToken(token: string): void {
  if (Cookies.get(TOKEN)) {
    // js-cookie cannot read an expiry back; a week is the only period the login grants.
    Cookies.set(TOKEN, token, { expires: 7, sameSite: 'lax', path: '/' });
  } else {
    setItem(TOKEN, token, true);
  }
}

/**
 * Starts the session a login answer grants (the login form, binding an external identity):
 * nothing cached for a previous user may leak into it.
 */
export function startSession(data: Pick<LoginData, 'token' | 'period' | 'user'>): void {
  queryClient.clear();
  setToken(data.token, data.period);
  setUserinfo(data.user);
}

/** The spec's 'empty' action: forget the token and the user. */
export function clearAuth(): void {
  Cookies.remove(TOKEN, { path: '/' });
  removeItem(TOKEN);
  removeItem(USERINFO);
}

export function getUserinfo(): UserInfo | undefined {
  const value = getItem<UserInfo>(USERINFO);
  return value && typeof value === 'object' ? value : undefined;
}

export function setUserinfo(user: UserInfo): void {
  setItem(USERINFO, user, true);
}

export function parseScenarioType(value: unknown): ScenarioType | undefined {
  const n = Number(value);
  return (SCENARIO_TYPES as readonly number[]).includes(n) ? (n as ScenarioType) : undefined;
}

export function getScenarioType(): ScenarioType | undefined {
  return parseScenarioType(getItem(TYPE));
}

export function setScenarioType(type: ScenarioType): void {
  setItem(TYPE, type, true);
}

export function getRouterItem(): MenuItem | undefined {
  const value = getItem<MenuItem>(ROUTER);
  return value && typeof value === 'object' ? value : undefined;
}

export function setRouterItem(item: MenuItem): void {
  setItem(ROUTER, item, true);
}
