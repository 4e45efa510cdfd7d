// The response envelope every API call answers with (DESIGN.md, API contract).
import { z } from 'zod';

export interface Envelope<T> {
  isSuccess: 'Y' | 'N';
  data: T | null;
  errorcode: string | null;
  errormsg: string | null;
}

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    isSuccess: z.enum(['Y', 'N']),
    data: data.nullable(),
    errorcode: z.string().nullable(),
    errormsg: z.string().nullable(),
  });
}

/** Paged list payload: `{ rows, total, page, size }`. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  size: number;
}
