// Who is calling: the signed-in user of a request (put on it by the auth plugin) and the client
// it calls from, as the audit log keeps it. Plain types, so every layer may take them.
import type { Permission } from '@iotc/shared/platform';
import { AppError } from './errors.ts';

/** The signed-in user of a request. */
export interface Caller {
  userId: string;
  orgId: string;
  sessionId: string;
  account: string;
  isPlatformAdmin: boolean;
  /** The organisations the caller reads and changes, resolved once per session (modules/auth). */
  scope: OrgScope;
  /** What the caller's roles grant, resolved with the scope. */
  permissions: readonly Permission[];
}

/** A caller's organisation and all its descendants, as the rows of every service are read through. */
export interface OrgScope {
  /** The caller's organisation first, then its descendants. */
  readonly orgs: readonly string[];
  /** Whether the organisation is the caller's or one below it. */
  has(orgId: string): boolean;
  /**
   * The organisations a list reads: all of them, or the subtree of `orgId` when the caller
   * narrows to one of its own organisations (any other answers 404, as if it did not exist).
   */
  within(orgId?: string): string[];
}

/** The scope of the tree under `root`, from each organisation's parent (root first, as read). */
export function orgScope(root: string, tree: readonly { id: string; parentId: string | null }[]): OrgScope {
  const orgs = tree.map((o) => o.id);
  const members = new Set(orgs);
  const children = new Map<string, string[]>();
  for (const o of tree) {
    if (o.id === root || o.parentId === null) continue;
    const list = children.get(o.parentId);
    if (list) list.push(o.id);
    else children.set(o.parentId, [o.id]);
  }
  return {
    orgs,
    has: (orgId) => members.has(orgId),
    within(orgId) {
      if (orgId === undefined || orgId === root) return [...orgs];
      if (!members.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      const out = [orgId];
      for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
      return out;
    },
  };
}

/** Who is asking, as the audit log keeps it: address and (shortened) user agent. */
export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

/** What the request and socket guards ask of the sign-in service (modules/auth): the caller of a token, its scope and permissions resolved. */
export interface Sessions {
  authenticate(token: string): Promise<Caller | null>;
}
