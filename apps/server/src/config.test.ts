import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('gives the embedded defaults on an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', dataDir: './data', mqttPort: 1884, jt808Port: 6808, logLevel: 'info' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.mqttUrl).toBeUndefined();
    expect(c.sessionHours).toBe(2);
    // Several nodes on one machine differ by port; the nodes share one group.
    expect(c.nodeId).toMatch(/-3000$/);
    expect(c.mqttShareGroup).toBe('iotc');
    // No geocoder unless one is given; Nominatim's public policy is one request a second.
    expect(c.geocoder).toEqual({ url: undefined, ratePerSecond: 1, timeoutMs: 5000 });
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/iotc',
      DATABASE_URL: 'postgres://u@db:5432/iot',
      MQTT_PORT: '0',
      JT808_PORT: '0',
      MQTT_URL: 'mqtt://broker:1883',
      SMTP_URL: 'smtp://mail:25',
      REDIS_URL: 'redis://cache:6379',
      NODE_ID: 'node-7',
      MQTT_SHARE_GROUP: 'fleet',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Admin#2026',
      SESSION_HOURS: '8',
      MAIL_FROM: 'Console <ops@example.com>',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
      SMS_GATEWAY_TOKEN: 'tok',
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_NAME: 'Company SSO',
      PUBLIC_URL: 'https://console.example.com',
      ROUTING_URL: 'http://osrm:5000',
      GEOCODER_URL: 'http://nominatim:8080',
      GEOCODER_RATE_PER_SECOND: '5',
      GEOCODER_TIMEOUT_SECONDS: '3',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/iotc',
      databaseUrl: 'postgres://u@db:5432/iot',
      mqttPort: 0,
      jt808Port: 0,
      mqttUrl: 'mqtt://broker:1883',
      smtpUrl: 'smtp://mail:25',
      redisUrl: 'redis://cache:6379',
      nodeId: 'node-7',
      mqttShareGroup: 'fleet',
      logLevel: 'warn',
      adminPassword: 'Admin#2026',
      sessionHours: 8,
      mailFrom: 'Console <ops@example.com>',
      smsGatewayUrl: 'https://sms.example.com/send',
      smsGatewayToken: 'tok',
      oidc: { issuer: 'https://id.example.com', clientId: 'console', clientSecret: 's3cret', name: 'Company SSO' },
      publicUrl: 'https://console.example.com',
      routingUrl: 'http://osrm:5000',
      geocoder: { url: 'http://nominatim:8080', ratePerSecond: 5, timeoutMs: 3000 },
    });
  });

  it('needs the client id of an OpenID Connect provider, and never prints a secret', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow('Invalid setting OIDC_CLIENT_ID: is required when OIDC_ISSUER is set');
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['MQTT_PORT', '-1'],
    ['JT808_PORT', '70000'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['DATABASE_URL', 'not a url'],
    ['MQTT_URL', 'http://broker'],
    ['SMTP_URL', 'mail.example.com'],
    ['REDIS_URL', 'memcached://x'],
    ['NODE_ID', 'node 1'],
    ['MQTT_SHARE_GROUP', 'a/b'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_PASSWORD', 'short'],
    ['SESSION_HOURS', '0'],
    ['SMS_GATEWAY_URL', 'ftp://sms'],
    ['OIDC_ISSUER', 'id.example.com'],
    ['PUBLIC_URL', 'console'],
    ['ROUTING_URL', 'osrm:5000'],
    ['GEOCODER_URL', 'ftp://nominatim'],
    ['GEOCODER_RATE_PER_SECOND', '0'],
    ['GEOCODER_TIMEOUT_SECONDS', 'soon'],
  ])('stops on a bad %s with one line naming it', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain(name);
    expect(msg.split('\n')).toHaveLength(1);
    if (name.endsWith('PASSWORD')) expect(msg).not.toContain(value);
  });

  it('reads the ledger settings, and never prints the signer key', () => {
    expect(loadConfig({})).toMatchObject({ ledgerCheckpointMs: 60_000, ledgerOrigin: undefined, ledgerSignerKey: undefined });
    const key = 'PRIVATE+KEY+example.com/log+0a1b2c3d+AXs0Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHE=';
    expect(loadConfig({ LEDGER_CHECKPOINT_SECONDS: '300', LEDGER_ORIGIN: 'example.com/log', LEDGER_SIGNER_KEY: key })).toMatchObject({
      ledgerCheckpointMs: 300_000,
      ledgerOrigin: 'example.com/log',
      ledgerSignerKey: key,
    });
    expect(() => loadConfig({ LEDGER_CHECKPOINT_SECONDS: '1' })).toThrow('LEDGER_CHECKPOINT_SECONDS');
    expect(() => loadConfig({ LEDGER_ORIGIN: 'has space' })).toThrow('LEDGER_ORIGIN');
    let err: unknown;
    try {
      loadConfig({ LEDGER_SIGNER_KEY: 'secret-but-malformed' });
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toContain('LEDGER_SIGNER_KEY');
    expect((err as Error).message).not.toContain('secret-but-malformed');
  });

  it("reads the storage figures' snapshot interval: hourly by default, 0 turns it off", () => {
    expect(loadConfig({}).storageMs).toBe(3_600_000);
    expect(loadConfig({ STORAGE_SECONDS: '600' }).storageMs).toBe(600_000);
    expect(loadConfig({ STORAGE_SECONDS: '0' }).storageMs).toBe(0);
    expect(() => loadConfig({ STORAGE_SECONDS: '-1' })).toThrow('STORAGE_SECONDS');
  });

  it('treats empty optional URLs as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', MQTT_URL: '' }).databaseUrl).toBeUndefined();
  });
});
