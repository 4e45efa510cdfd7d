// A real OpenID Connect provider (panva's oidc-provider, the certified implementation) for
// tests, on a port the OS picks, with its development sign-in pages: any login name is
// accepted and becomes the subject. And a walker that signs in there the way a browser would.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const OIDC_CLIENT = { id: 'iot-console', secret: 'iot-console-secret' };

/**
 * `redirectUris` may be a function: the provider is made at its first request, so a console
 * whose address is known only after it listens can be registered.
 */
export async function startOidcProvider(redirectUris: string[] | (() => string[])) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let handler: ReturnType<Provider['callback']> | undefined;
  const make = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT.id,
          client_secret: OIDC_CLIENT.secret,
          redirect_uris: typeof redirectUris === 'function' ? redirectUris() : redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['iot-console-test-cookie-key'] },
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: `${sub}@idp.example` }) }),
    });
    return provider.callback();
  };
  server.on('request', (req, res) => {
    handler ??= make();
    void handler(req, res);
  });
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows the provider's redirects and submits its sign-in and consent forms (as `login`),
 * until a redirect leaves for `stopAt`; answers that address.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    form = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.toString().startsWith(stopAt)) return next;
      url = next.toString();
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${res.status} without a form at ${url}`);
    form = new URLSearchParams();
    for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) form.set(m[1]!, m[2]!);
    if (/name="login"/.test(html)) {
      form.set('login', login);
      form.set('password', 'any');
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
  }
  throw new Error('too many redirects at the provider');
}
