// Password hashing (argon2id) and the generated first password of the administrator.
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { isValidPassword } from '@iotc/shared/validation';

/** argon2id with the library's defaults (m=19 MiB, t=2, p=1), the OWASP-recommended minimum. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain);
}

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

/** A random password that satisfies the product's own password rule. */
export function generatePassword(): string {
  for (;;) {
    const p = randomBytes(10).toString('base64url').slice(0, 12) + '#' + String(randomBytes(1)[0]! % 10);
    if (isValidPassword(p)) return p;
  }
}
