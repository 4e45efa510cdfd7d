// Security headers of every answer (web app, API, downloads), by @fastify/helmet: a content
// security policy that lets the console load only its own code, nosniff, no framing, a
// referrer policy that keeps tokens in addresses (/verify/<token>, the SSO return) to this
// site, cross-origin opener isolation, and HSTS when the console is served over https.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { MapConfig } from '@iotc/shared/live';

/**
 * The origins the map's tiles come from: the tile URL's scheme and host, one per `{s}` value
 * (Leaflet's default subdomains are a, b, c); empty without a tile URL (the offline base layer
 * is bundled). CSP wildcards only stand for a whole leftmost label, so `t{s}.host` is spelled out.
 */
export function tileOrigins(map: Pick<MapConfig, 'tileUrl' | 'tileSubdomains'>): string[] {
  if (!map.tileUrl) return [];
  const m = /^(https?:\/\/)([^/?#]+)/i.exec(map.tileUrl);
  if (!m) return [];
  const [, scheme, host] = m;
  if (!host!.includes('{s}')) return [`${scheme}${host}`.toLowerCase()];
  const subdomains = [...(map.tileSubdomains || 'abc')];
  return [...new Set(subdomains.map((s) => `${scheme}${host!.replaceAll('{s}', s)}`.toLowerCase()))];
}

/** The live WebSocket's origins for this request's host (`connect-src 'self'` covers them in CSP 3 browsers only). */
function socketOrigins(req: IncomingMessage): string {
  const host = req.headers.host;
  // A host header that is not a plain host[:port] adds nothing (it only shapes the caller's own answer).
  if (!host || !/^[A-Za-z0-9.[\]:-]+$/.test(host)) return "'self'";
  return `ws://${host} wss://${host}`;
}

export interface SecurityOptions {
  /** The tiles that apply now (the platform administrator may change them while the server runs). */
  map: () => Pick<MapConfig, 'tileUrl' | 'tileSubdomains'>;
  /** The console's public address; HSTS is sent only when it is https. */
  publicUrl?: string;
}

export const securityPlugin = fp(async (app: FastifyInstance, opts: SecurityOptions) => {
  const https = opts.publicUrl?.startsWith('https:') ?? false;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script anywhere: index.html loads one module, Vite emits files only.
        scriptSrc: ["'self'"],
        // antd (CSS-in-JS) writes its styles into <style> elements at run time, and ECharts'
        // tooltips and Leaflet's markers carry style attributes in their HTML: inline styles
        // must be allowed. Styles cannot run code; scripts stay locked to this origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // data: Leaflet's and antd's inline icons; blob: downloaded files and rendered images;
        // the tile servers of the tiles that apply (MAP_TILE_URL or the platform administrator's
        // choice, modules/map-tiles), read for every answer.
        imgSrc: ["'self'", 'data:', () => ['blob:', ...tileOrigins(opts.map())].join(' ')],
        // The API and the live channel (/api/iot/v2/live) on this host only.
        connectSrc: ["'self'", (req) => socketOrigins(req)],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // Forms post to this site only; external sign-in leaves by navigation (a redirect of
        // /iot-cloud-auth/auth/v1/oauth), which form-action does not govern.
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // The console embeds no frames of its own.
        frameSrc: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Tiles and other cross-origin images load without CORS headers: no COEP.
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Tile providers (OpenStreetMap's policy) want a referrer: the origin only, never a path with a token.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xContentTypeOptions: true,
  });
});
