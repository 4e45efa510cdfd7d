// Electronic signatures (modules/signature).
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Electronic signatures on records: a named person who proved who they were at the moment of
 * signing (password again, or the external sign-in's re-authentication), what the signature
 * means, and the hash of the record as signed. A later change of the record no longer matches
 * `record_hash`. Append-only like the audit log (the same trigger, migration 0036), so it has no
 * foreign keys: a removed user's signatures keep their id, account and name.
 */
export const signatures = pgTable(
  'signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    recordType: text('record_type', { enum: ['warehouse_record', 'command', 'work_order', 'gsp_record', 'shipment_report', 'asset_gsp_record'] }).notNull(),
    /** The record's id (a task's id for its GSP record and shipment report; `<assetId>/<period>/<date>/<time zone>` for an asset's GSP record). */
    recordId: text('record_id').notNull(),
    meaning: text('meaning', { enum: ['approved', 'rejected', 'reviewed', 'responsible'] }).notNull(),
    // The signer's account and name are kept beside the id: the signature reads the same after a user is removed.
    signerId: uuid('signer_id').notNull(),
    signerAccount: text('signer_account').notNull(),
    signerName: text('signer_name').notNull(),
    /** How the signer proved who they were: 'password' or 'sso' (the external sign-in's re-authentication). */
    method: text('method', { enum: ['password', 'sso'] }).notNull(),
    /** SHA-256 (hex) of the record's canonical content as signed. */
    recordHash: text('record_hash').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signatures_record_idx').on(t.orgId, t.recordType, t.recordId), index('signatures_org_signed_idx').on(t.orgId, t.signedAt)],
);
