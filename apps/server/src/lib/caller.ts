// Who is calling: the signed-in user of a request (put on it by the auth plugin) and the client
// it calls from, as the audit log keeps it. Plain types, so every layer may take them.
import type { Permission } from '@iotc/shared/platform';

/** The signed-in user of a request. */
export interface Caller {
  userId: string;
  orgId: string;
  sessionId: string;
  account: string;
  isPlatformAdmin: boolean;
}

/** Who is asking, as the audit log keeps it: address and (shortened) user agent. */
export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

/** What the request and socket guards ask of the sign-in service (modules/auth): the caller of a token, and what its roles grant. */
export interface Sessions {
  authenticate(token: string): Promise<Caller | null>;
  permissionsOf(caller: Caller): Promise<readonly Permission[]>;
}
