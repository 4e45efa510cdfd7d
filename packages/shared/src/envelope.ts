// The response envelope every API call answers with (DESIGN.md, API contract).
import { z } from 'zod';
import { ERRORS, type ErrorCode } from './errors.ts';

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

/** The envelope of every refused call (4xx, 5xx): a code of the catalogue and its text in the request's language. */
export const errorEnvelopeSchema = z.object({
  isSuccess: z.literal('N'),
  data: z.null(),
  errorcode: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
  errormsg: z.string(),
});

/** Paged list payload: `{ rows, total, page, size }`. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  size: number;
}
