// Links that open one thing without login (the ledger's share links, consignee tracking links):
// a random token shown once and kept only as its SHA-256, an end picked in days or as a time no
// later than the kind's longest, and the check of a token that opens one (never made: 404;
// revoked or past its end: 410), each refusal with the kind's own code.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ErrorCode } from '@iotc/shared/errors';
import { tsParam } from '../db/list.ts';
import { AppError } from './errors.ts';

const DAY_MS = 86_400_000;

/** What a kind of link is: how long it lasts and the codes of its refusals. */
export interface LinkKind {
  defaultDays: number;
  maxDays: number;
  codes: { range: ErrorCode; unknown: ErrorCode; revoked: ErrorCode; expired: ErrorCode };
}

/** How a token is kept. */
export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token and its hash (the token goes in the maker's answer only). */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: linkTokenHash(token) };
}

/** The end of a new link: `expiresInDays`, else `expiresAt`, else the default; never more than the longest. */
export function linkExpiry(kind: LinkKind, body: { expiresInDays?: number; expiresAt?: string }, now: Date): Date {
  const t = now.getTime();
  if (body.expiresAt === undefined) return new Date(t + (body.expiresInDays ?? kind.defaultDays) * DAY_MS);
  const at = new Date(body.expiresAt);
  if (at.getTime() <= t || at.getTime() > t + kind.maxDays * DAY_MS) throw new AppError(400, kind.codes.range);
  return at;
}

/** The link a token opens, if it still does: 404 for one never made, 410 for one revoked or past its end. */
export function openLink<T extends { revokedAt: Date | null; expiresAt: Date }>(kind: LinkKind, link: T | null | undefined, now: Date): T {
  if (!link) throw new AppError(404, kind.codes.unknown);
  if (link.revokedAt) throw new AppError(410, kind.codes.revoked);
  if (link.expiresAt.getTime() <= now.getTime()) throw new AppError(410, kind.codes.expired);
  return link;
}

/** The address of a public page under PUBLIC_URL (relative without it). */
export const publicLinkUrl = (publicUrl: string | undefined, page: string): string => `${(publicUrl ?? '').replace(/\/$/, '')}${page}`;

/** A link's state at `now` in SQL, of a table's two columns: a revocation outlasts the expiry. */
export const linkStatusAt = <S extends string>(columns: { revokedAt: AnyPgColumn; expiresAt: AnyPgColumn }, now: Date) =>
  sql<S>`case when ${columns.revokedAt} is not null then 'revoked' when ${columns.expiresAt} <= ${tsParam(now)} then 'expired' else 'active' end`;
