// Lets code outside React navigate through the router (client-side) once the app registers it.
type Navigate = (to: string) => void;

let navigate: Navigate = (to) => window.location.assign(to);

export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

export function navigateTo(to: string): void {
  navigate(to);
}

/** A same-origin path safe to send the user to after login, else undefined. */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return undefined;
  return target;
}

/** The login address that brings the user back to `target` afterwards (spec section 6). */
export function loginPath(target?: string): string {
  const params = new URLSearchParams();
  if (target) params.set('redirect', target);
  // The random value keeps a cached login page from being served (the spec's "version random query").
  params.set('v', Math.random().toString(36).slice(2, 10));
  return `/login?${params.toString()}`;
}
