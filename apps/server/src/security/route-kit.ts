// Tools of the generated security tests (isolation, API fuzzing): plausible request bodies and
// queries drawn from each route's own Zod schema, the ids a field name refers to, and digests of
// the database so a test can tell that a refused call changed nothing. Test-only code.
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RouteEntry } from '../app.ts';
import { rowsOf, type Db } from '../db/client.ts';

/** A JSON schema as Zod writes it (only what the sampler reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

const isZod = (s: unknown): s is z.ZodType => typeof s === 'object' && s !== null && '_zod' in s;

/** The input side of a route's Zod schema as JSON schema; undefined for none (or a non-Zod one). */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!isZod(schema)) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** Whether the route's Zod body/query schema accepts the value. */
export function accepts(schema: unknown, value: unknown): boolean {
  return isZod(schema) ? schema.safeParse(value).success : true;
}

/** Names of the path parameters of a route address. */
export const pathParams = (url: string): string[] => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/**
 * What a value at `key` (the field name) should be: a replacement, or undefined to draw one
 * from the schema.
 */
export type Filler = (key: string, schema: JsonSchema) => unknown;

export interface SampleOptions {
  fill?: Filler;
  /** Whether to include an optional property (required ones always are). */
  optional?: (key: string, schema: JsonSchema) => boolean;
  /** sampleOf: try every optional property first (bodies); off for queries, whose filters narrow. */
  fullest?: boolean;
}

function resolveRef(root: JsonSchema, s: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  const name = s.$ref.replace(/^#\/\$defs\//, '');
  return root.$defs?.[name] ?? {};
}

/** Strings whose field name says what they must be. */
const NAMED_STRINGS: Record<string, () => string> = {
  timezone: () => 'Asia/Shanghai',
  lang: () => 'en',
  language: () => 'en',
  from: () => new Date(Date.now() - 86_400_000).toISOString(),
  start: () => new Date(Date.now() - 86_400_000).toISOString(),
  to: () => new Date().toISOString(),
  end: () => new Date().toISOString(),
  date: () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
};

function sampleString(s: JsonSchema, key: string): string {
  const named = NAMED_STRINGS[key];
  if (named && !s.enum) return named();
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 32);
  switch (s.format) {
    case 'email':
      return 'probe@example.com';
    case 'uuid':
    case 'guid':
      return randomUUID();
    case 'date-time':
      return new Date(Date.now() - 3_600_000).toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'time':
      return '08:00:00';
    case 'url':
    case 'uri':
      return 'https://example.com/probe';
  }
  if (s.pattern) {
    try {
      const re = new RegExp(s.pattern);
      const fits = fc.sample(fc.stringMatching(re), { numRuns: 40, seed: 7 }).filter((v) => v.length >= min && v.length <= max);
      if (fits.length) return fits.sort((a, b) => a.length - b.length)[Math.floor(fits.length / 2)]!;
    } catch {
      // An expression the generator does not know: fall through to plain text.
    }
  }
  const text = 'Probe text';
  return text.length >= min ? text.slice(0, max) : text.padEnd(min, 'x');
}

function sampleNumber(s: JsonSchema, integer: boolean): number {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.5) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 0.5) : undefined);
  let v = lo ?? 1;
  if (hi !== undefined && v > hi) v = hi;
  return integer ? Math.ceil(v) : v;
}

/**
 * A plausible value of a JSON schema: required properties (and the optional ones `optional`
 * picks), the first choice of unions and enums, lengths and ranges met, patterns matched.
 */
export function sample(root: JsonSchema, opts: SampleOptions = {}): unknown {
  const walk = (raw: JsonSchema, key: string, depth: number): unknown => {
    const s = resolveRef(root, raw);
    const filled = opts.fill?.(key, s);
    if (filled !== undefined) return filled;
    if (depth > 8) return undefined;
    if (s.const !== undefined) return s.const;
    if (s.enum?.length) return s.enum[0];
    if (s.default !== undefined && s.default !== '' && s.type !== 'object' && s.type !== 'array') return s.default;
    const choices = s.anyOf ?? s.oneOf;
    if (choices?.length) {
      const choice = choices.find((c) => resolveRef(root, c).type !== 'null') ?? choices[0]!;
      return walk(choice, key, depth + 1);
    }
    if (s.allOf?.length) return walk(Object.assign({}, ...s.allOf.map((x) => resolveRef(root, x))) as JsonSchema, key, depth + 1);
    const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        const required = new Set(s.required ?? []);
        for (const [k, p] of Object.entries(s.properties ?? {})) {
          if (!required.has(k) && !opts.optional?.(k, resolveRef(root, p))) continue;
          const v = walk(p, k, depth + 1);
          if (v !== undefined) out[k] = v;
        }
        return out;
      }
      case 'array': {
        if (s.prefixItems) return s.prefixItems.map((p) => walk(p, key, depth + 1));
        const n = Math.min(Math.max(s.minItems ?? 0, 1), s.maxItems ?? 1);
        const items = Array.isArray(s.items) ? s.items[0] : s.items;
        return Array.from({ length: n }, () => walk(items ?? {}, key, depth + 1));
      }
      case 'string':
        return sampleString(s, key);
      case 'integer':
        return sampleNumber(s, true);
      case 'number':
        return sampleNumber(s, false);
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return undefined;
    }
  };
  return walk(root, '', 0);
}

/** A route's body or query sample, or undefined when it declares none. */
export function sampleOf(schema: unknown, opts: SampleOptions = {}): unknown {
  const js = jsonSchemaOf(schema);
  if (!js) return undefined;
  // The fullest sample the schema accepts: every optional field, the chosen ones, or the required only.
  const wanted = opts.optional;
  const tries: SampleOptions['optional'][] = opts.fullest === false ? [wanted, wanted, () => false] : [() => true, wanted, () => false];
  const samples = tries.map((optional) => sample(js, { ...opts, optional: (k, s) => (wanted?.(k, s) ?? false) || (optional?.(k, s) ?? false) }));
  return samples.find((v) => accepts(schema, v)) ?? samples[1];
}

/** A query string of a sample (arrays joined by commas, as the API's list filters take them). */
export function queryString(q: unknown): string {
  if (!q || typeof q !== 'object') return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The routes the tests look at: the API's own (not the OpenAPI document, the static web app). */
export function apiRoutes(table: RouteEntry[]): RouteEntry[] {
  // The OpenAPI document and its page (plugins/openapi.ts) are static: no call of the API.
  return table.filter((r) => (r.url.startsWith('/api/') || r.url.startsWith('/iot-cloud-auth/')) && r.url !== '/api/docs' && !r.url.startsWith('/api/docs/'));
}

/** The text a response shows: the body, or every cell of a workbook. */
export async function responseText(res: { headers: Record<string, unknown>; rawPayload: Buffer; payload: string }): Promise<string> {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('spreadsheetml')) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    for (const sheet of book.worksheets) sheet.eachRow((row) => row.eachCell((c) => cells.push(String(c.text))));
    return cells.join('\n');
  }
  return res.payload;
}

interface TableInfo {
  name: string;
  hasOrg: boolean;
}

async function tables(db: Db): Promise<TableInfo[]> {
  const rows = rowsOf<{ table_name: string; has_org: boolean }>(
    await db.execute(sql`select t.table_name, exists (select 1 from information_schema.columns c where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'org_id') as has_org
      from information_schema.tables t where t.table_schema = 'public' and t.table_type = 'BASE TABLE' order by t.table_name`),
  );
  return rows.map((r) => ({ name: r.table_name, hasOrg: r.has_org }));
}

/** Foreign keys from tables without org_id to tables with one (one level), for "rows joined to" an organisation's. */
async function childLinks(db: Db, withOrg: Set<string>): Promise<{ child: string; column: string; parent: string; parentColumn: string }[]> {
  const rows = rowsOf<{ child: string; col: string; parent: string; pcol: string }>(
    await db.execute(sql`select kcu.table_name as child, kcu.column_name as col, ccu.table_name as parent, ccu.column_name as pcol
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'
      order by 1, 2, 3`),
  );
  return rows.filter((r) => !withOrg.has(r.child) && withOrg.has(r.parent)).map((r) => ({ child: r.child, column: r.col, parent: r.parent, parentColumn: r.pcol }));
}

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * A digest per table of every row of one organisation: the rows of tables with `org_id`, the
 * organisation's own row, and the rows of tables without `org_id` joined by a foreign key to
 * one of its rows.
 */
export async function orgDigest(db: Db, orgId: string): Promise<Record<string, string>> {
  const all = await tables(db);
  const withOrg = new Set(all.filter((t) => t.hasOrg).map((t) => t.name));
  const parts = [sql`select 'orgs' as k, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from orgs x where x.id = ${orgId}`];
  for (const t of all.filter((x) => x.hasOrg)) {
    parts.push(sql`select ${t.name} as k, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${ident(t.name)} x where x.org_id = ${orgId}`);
  }
  for (const l of await childLinks(db, withOrg)) {
    parts.push(
      sql`select ${`${l.child}.${l.column}`} as k, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${ident(l.child)} x
        join ${ident(l.parent)} p on p.${ident(l.parentColumn)} = x.${ident(l.column)} where p.org_id = ${orgId}`,
    );
  }
  const rows = rowsOf<{ k: string; d: string }>(await db.execute(sql.join(parts, sql` union all `)));
  return Object.fromEntries(rows.map((r) => [r.k, r.d]));
}

/** A digest per table of every row (except the tables in `skip`). */
export async function dbDigest(db: Db, skip: readonly string[] = []): Promise<Record<string, string>> {
  const all = (await tables(db)).filter((t) => !skip.includes(t.name));
  const parts = all.map((t) => sql`select ${t.name} as k, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${ident(t.name)} x`);
  const rows = rowsOf<{ k: string; d: string }>(await db.execute(sql.join(parts, sql` union all `)));
  return Object.fromEntries(rows.map((r) => [r.k, r.d]));
}

/** The tables whose digests differ. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();
}

/** A's ids of each kind of record, read from the database after the set-up. */
export type Ids = Record<string, string[]>;

/** Which of A's ids a path parameter takes: the address up to the parameter -> the kind of record. */
export const PARAM_KINDS: Record<string, string> = {
  '/api/iot/v2/devices/:id': 'device',
  '/api/iot/v2/vehicles/:id': 'vehicle',
  '/api/iot/v2/containers/:id': 'container',
  '/api/iot/v2/warehouses/:id': 'warehouse',
  '/api/iot/v2/cold-rooms/:id': 'cold_room',
  '/api/iot/v2/refrigerators/:id': 'refrigerator',
  '/api/iot/v2/gateways/:id': 'gateway',
  '/api/iot/v2/faults/:id': 'fault',
  '/api/iot/v2/reports/shipment/:taskId': 'task',
  '/api/iot/v2/warehouse-records/:id': 'warehouseRecord',
  '/api/iot/v2/alarm-levels/:id': 'level',
  '/api/iot/v2/alarm-policies/:id': 'policy',
  '/api/iot/v2/alarms/:id': 'alarm',
  '/api/iot/v2/work-orders/:id': 'workOrder',
  '/api/iot/v2/transport-tasks/:id': 'task',
  '/api/iot/v2/transport-templates/:id': 'template',
  '/api/iot/v2/places/:id': 'place',
  '/api/iot/v2/push-rules/:id': 'pushRule',
  '/api/iot/v2/deliveries/:id': 'delivery',
  '/api/iot/v2/orgs/:id': 'org',
  '/api/iot/v2/users/:id': 'user',
  '/api/iot/v2/roles/:id': 'role',
  '/api/iot/v2/commands/:id': 'command',
  '/api/iot/v2/report-schedules/:id': 'schedule',
  '/api/iot/v2/ledger/leaves/:index': 'leafIndex',
  '/api/iot/v2/ledger/public/:token': 'shareToken',
  '/api/iot/v2/ledger/shares/:id': 'share',
  '/api/iot/v2/transport-tracking/public/:token': 'trackingToken',
  '/api/iot/v2/transport-tracking-links/:id': 'trackingLink',
  '/api/iot/v2/jt808-models/:id': 'jt808Model',
  '/api/iot/v2/retention-rules/:orgId': 'org',
  '/api/iot/v2/legal-holds/:id': 'hold',
  '/api/iot/v2/product-profiles/:id': 'productProfile',
  '/api/iot/v2/product-batches/:id': 'productBatch',
  '/api/iot/v2/platform/notices/:id': 'notice',
};

const uuidField = (s: JsonSchema): boolean => s.format === 'uuid' || (!Array.isArray(s.items) && s.items?.format === 'uuid');

/** The kind of record a body or query field names by its name (`deviceIds`, `assetId`, `orgId` ...). */
export function kindOfField(key: string, s: JsonSchema): string | undefined {
  const k = key.replace(/(Ids|Id|Refs|Ref|s)$/, '').replace(/_id$/, '');
  const map: Record<string, string> = {
    device: uuidField(s) || key.endsWith('Ref') || key.endsWith('Refs') ? 'device' : 'deviceCode',
    asset: 'asset',
    vehicle: 'vehicle',
    container: 'container',
    warehouse: 'warehouse',
    coldRoom: 'cold_room',
    refrigerator: 'refrigerator',
    gateway: 'gateway',
    org: 'org',
    parent: 'org',
    task: 'task',
    template: 'template',
    level: 'level',
    policy: 'policy',
    alarm: 'alarm',
    user: 'user',
    assignee: 'user',
    role: 'role',
    record: 'warehouseRecord',
    warehouseRecord: 'warehouseRecord',
    schedule: 'schedule',
    rule: 'pushRule',
    pushRule: 'pushRule',
    workOrder: 'workOrder',
    command: 'command',
    fault: 'fault',
    delivery: 'delivery',
    target: 'asset',
  };
  if (key === 'targets') return 'asset';
  return /(Ids?|Refs?)$/.test(key) || key === 'targets' ? map[k] : undefined;
}

/** An organisation's ids of each kind of record (the first few of each), for path parameters and id fields. */
export async function idsOfOrg(db: Db, orgId: string): Promise<Ids> {
  const ids: Ids = {};

  const q = async (text: string) => rowsOf<{ v: string }>(await db.execute(sql.raw(text.replaceAll('$A', `'${orgId}'`)))).map((r) => String(r.v));
  ids.org = [orgId];
  ids.device = await q(`select id as v from devices where org_id = $A`);
  ids.deviceCode = await q(`select device_id as v from devices where org_id = $A`);
  ids.asset = await q(`select id as v from assets where org_id = $A`);
  for (const kind of ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway']) ids[kind] = await q(`select id as v from assets where org_id = $A and kind = '${kind}'`);
  ids.fault = await q(`select id as v from faults where org_id = $A`);
  ids.task = await q(`select id as v from transport_tasks where org_id = $A`);
  ids.template = await q(`select id as v from transport_templates where org_id = $A`);
  ids.place = await q(`select id as v from places where org_id = $A`);
  ids.warehouseRecord = await q(`select id as v from warehouse_records where org_id = $A`);
  ids.level = await q(`select id as v from alarm_levels where org_id = $A`);
  ids.policy = await q(`select id as v from alarm_policies where org_id = $A`);
  ids.alarm = await q(`select id as v from alarms where org_id = $A`);
  ids.workOrder = await q(`select id as v from work_orders where org_id = $A`);
  ids.pushRule = await q(`select id as v from push_rules where org_id = $A`);
  ids.delivery = await q(`select id as v from deliveries where org_id = $A`);
  ids.user = await q(`select id as v from users where org_id = $A`);
  ids.role = await q(`select id as v from roles where org_id = $A`);
  ids.command = await q(`select id as v from commands where org_id = $A`);
  ids.schedule = await q(`select id as v from report_schedules where org_id = $A`);
  ids.leafIndex = await q(`select idx as v from ledger_leaves where org_id = $A order by idx limit 5`);
  ids.share = await q(`select id as v from ledger_shares where org_id = $A`);
  ids.trackingLink = await q(`select id as v from transport_tracking_links where org_id = $A`);
  ids.notice = await q(`select id as v from notices where org_id = $A`);
  ids.jt808Model = await q(`select id as v from jt808_models where org_id = $A`);
  ids.hold = await q(`select id as v from legal_holds where org_id = $A`);
  ids.productProfile = await q(`select id as v from product_profiles where org_id = $A`);
  ids.productBatch = await q(`select id as v from product_batches where org_id = $A`);
  return ids;
}

/** The organisation's id for a path parameter; undefined when the parameter is not mapped. */
export function paramValue(ids: Ids, url: string, param: string): string | undefined {
  const prefix = url.slice(0, url.indexOf(`:${param}`) + param.length + 1);
  const kind = PARAM_KINDS[prefix];
  return kind ? ids[kind]?.[0] : undefined;
}

/** The route's address with the organisation's ids for its parameters. */
export function addressWith(ids: Ids, r: RouteEntry): string {
  return r.url.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(paramValue(ids, r.url, p) ?? 'unmapped'));
}

/**
 * A body or query sample with id-like fields holding the organisation's ids (all of them, or
 * only the field `only`); `used` names the fields that did.
 */
export function withIds(ids: Ids, schema: unknown, fullest = true, only?: string): { value: unknown; used: string[] } {
  const used = new Set<string>();
  const fill = (k: string, s: JsonSchema): unknown => {
    const kind = kindOfField(k, s);
    const v = kind && (only === undefined || only === k) ? ids[kind]?.[0] : undefined;
    if (v === undefined) return undefined;
    used.add(k);
    const isArray = s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'));
    return isArray ? [v] : s.type === 'integer' || s.type === 'number' ? Number(v) : v;
  };
  const value = sampleOf(schema, { fill, optional: (k, s) => kindOfField(k, s) !== undefined && (only === undefined || only === k), fullest });
  return { value, used: [...used] };
}
