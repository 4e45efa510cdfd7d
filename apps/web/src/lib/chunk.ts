// Loading a lazy screen's code with the spec's 120 s time-out, and naming why it failed
// the way the spec's chunk message does: type missing, timeout or error, plus the request.
import { CHUNK_TIMEOUT_MS } from '@iotc/shared/constants';

export type ChunkErrorType = 'missing' | 'timeout' | 'error';

export class ChunkLoadError extends Error {
  readonly chunk: string;
  readonly type: ChunkErrorType;
  readonly request: string;

  constructor(chunk: string, type: ChunkErrorType, request: string, cause?: unknown) {
    super(`Loading chunk ${chunk} failed.\n(${type}: ${request})`, { cause });
    this.name = 'ChunkLoadError';
    this.chunk = chunk;
    this.type = type;
    this.request = request;
  }
}

// What browsers and Vite say when a module file cannot be fetched (as opposed to failing to run).
const FETCH_FAILURE =
  /dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to fetch|NetworkError/i;

function requestOf(error: unknown, fallback: string): string {
  const text = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+|\/assets\/\S+)/.exec(text)?.[1] ?? fallback;
}

export function importWithTimeout<T>(importer: () => Promise<T>, chunk: string, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk, 'timeout', chunk)), ms);
    importer().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const message = error instanceof Error ? error.message : String(error);
        const type: ChunkErrorType = FETCH_FAILURE.test(message) ? 'missing' : 'error';
        reject(new ChunkLoadError(chunk, type, requestOf(error, chunk), error));
      },
    );
  });
}
