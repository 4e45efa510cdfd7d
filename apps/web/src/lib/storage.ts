// Web storage helper of the spec (section 4): every value is saved wrapped with its data type
// and save time, so it reads back as the type it was written with.
import { useSyncExternalStore } from 'react';

/** The kinds of value the helper restores; anything else is saved as an object. */
export type StoredDataType = 'string' | 'number' | 'boolean' | 'object';

export interface StoredRecord {
  dataType: StoredDataType;
  content: unknown;
  /** Set when the value lives in session storage (the spec's "type flag"). */
  type?: boolean;
  /** Epoch milliseconds of the save. */
  datetime: number;
}

export interface StoredEntry {
  key: string;
  value: unknown;
  session: boolean;
  datetime: number | null;
}

function area(session: boolean): Storage {
  return session ? window.sessionStorage : window.localStorage;
}

function dataTypeOf(value: unknown): StoredDataType {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

function parseRecord(raw: string): StoredRecord | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && 'dataType' in parsed && 'content' in parsed) {
      return parsed as StoredRecord;
    }
  } catch {
    // Not written by this helper: the caller gets the raw text.
  }
  return null;
}

function restore(record: StoredRecord): unknown {
  const { dataType, content } = record;
  switch (dataType) {
    case 'string':
      return content == null ? '' : String(content);
    case 'number':
      return Number(content);
    case 'boolean':
      return content === true || content === 'true';
    case 'object':
      if (typeof content === 'string') {
        try {
          return JSON.parse(content) as unknown;
        } catch {
          return content;
        }
      }
      return content;
    default:
      return content;
  }
}

function decode(raw: string): { value: unknown; datetime: number | null } {
  const record = parseRecord(raw);
  return record ? { value: restore(record), datetime: record.datetime ?? null } : { value: raw, datetime: null };
}

/** Saves a value: `session` true puts it in session storage, otherwise in local storage. */
export function setItem(key: string, value: unknown, session = false): void {
  const record: StoredRecord = { dataType: dataTypeOf(value), content: value, datetime: Date.now() };
  if (session) record.type = true;
  area(session).setItem(key, JSON.stringify(record));
}

/** Reads a value, session storage first, then local storage; undefined when absent. */
export function getItem<T = unknown>(key: string): T | undefined {
  const raw = window.sessionStorage.getItem(key) ?? window.localStorage.getItem(key);
  return raw == null ? undefined : (decode(raw).value as T);
}

/** Removes one entry from both storages. */
export function removeItem(key: string): void {
  window.sessionStorage.removeItem(key);
  window.localStorage.removeItem(key);
}

function entriesOf(session: boolean): StoredEntry[] {
  const store = area(session);
  const out: StoredEntry[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key == null) continue;
    const raw = store.getItem(key);
    if (raw == null) continue;
    out.push({ key, session, ...decode(raw) });
  }
  return out;
}

/** Lists the entries: session only (true), local only (false) or both (omitted, session first). */
export function getAll(session?: boolean): StoredEntry[] {
  if (session === undefined) return [...entriesOf(true), ...entriesOf(false)];
  return entriesOf(session);
}

/** Clears session storage (true), local storage (false) or both (omitted). */
export function clearAll(session?: boolean): void {
  if (session !== false) window.sessionStorage.clear();
  if (session !== true) window.localStorage.clear();
}

/**
 * A value kept in local storage under `key` and shared by every component: read once at start
 * through `parse` (what was saved, or null), written back on each change, and re-rendering the
 * components that `use` it when it changes.
 */
export function storedValue<T>(key: string, parse: (saved: unknown) => T) {
  const listeners = new Set<() => void>();
  let current = parse(getItem(key));
  const get = (): T => current;
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get,
    set(next: T): void {
      if (Object.is(next, current)) return;
      current = next;
      setItem(key, next);
      for (const notify of [...listeners]) notify();
    },
    use: (): T => useSyncExternalStore(subscribe, get),
  };
}
