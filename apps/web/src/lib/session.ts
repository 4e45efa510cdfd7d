// Client state of the spec's section 4: the login token, the user, the scenario type and the
// last opened menu item, each in the storage the spec assigns to it; and the end of a session
// by a deliberate logout, after which nothing of that session may alarm the user.
import { useSyncExternalStore } from 'react';
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
 * The token when only this tab holds it (a login without a period lives in session storage,
 * which a window opened with `noopener` does not share); undefined when the cookie holds it,
 * as every window of the browser reads that one.
 */
export function getTabToken(): string | undefined {
  if (Cookies.get(TOKEN)) return undefined;
  return getItem<string>(TOKEN) || undefined;
}

// A deliberate logout: its generation number tells calls started before it from calls after
// it, and until the next token arrives a 401 is the logout's own doing, not an expiry.
let generation = 0;
let loggedOut = false;
const endListeners = new Set<() => void>();

/** The number of deliberate logouts so far in this page: a call remembers it when it starts. */
export function sessionGeneration(): number {
  return generation;
}

/** true from a deliberate logout until a new token is set. */
export function isLoggedOut(): boolean {
  return loggedOut;
}

/**
 * Ends the session on purpose (logout): calls in flight and live sockets are told to end
 * quietly (their listeners run now), and until a new token is set no 401 counts as an expiry.
 */
export function endSession(): void {
  generation += 1;
  loggedOut = true;
  for (const listener of [...endListeners]) listener();
}

/** Runs `listener` at each deliberate logout; the answer unsubscribes it. */
export function onSessionEnd(listener: () => void): () => void {
  endListeners.add(listener);
  return () => void endListeners.delete(listener);
}

/**
 * A token that came with a period ("stay logged in for a week") survives the browser in a
 * cookie for that many days; any other token lives only as long as the tab's session.
 */
export function setToken(token: string, periodDays?: number | null): void {
  loggedOut = false;
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
  loggedOut = false;
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

const scenarioListeners = new Set<() => void>();

export function setScenarioType(type: ScenarioType): void {
  setItem(TYPE, type, true);
  for (const listener of [...scenarioListeners]) listener();
}

function subscribeScenarioType(listener: () => void): () => void {
  scenarioListeners.add(listener);
  return () => void scenarioListeners.delete(listener);
}

/**
 * The scenario type, re-rendering the caller when it changes (a type query, or a screen of
 * another scenario opened by its address), so the navigation and the screen follow together.
 */
export function useScenarioType(): ScenarioType | undefined {
  return useSyncExternalStore(subscribeScenarioType, getScenarioType, getScenarioType);
}

export function getRouterItem(): MenuItem | undefined {
  const value = getItem<MenuItem>(ROUTER);
  return value && typeof value === 'object' ? value : undefined;
}

export function setRouterItem(item: MenuItem): void {
  setItem(ROUTER, item, true);
}
