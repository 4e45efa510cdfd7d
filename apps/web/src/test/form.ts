// Driving antd forms in jsdom: typing as a user does, leaving a field, reading a field's message,
// and letting queued promises and validations settle.
import { act } from 'react';
import { vi } from 'vitest';

/** Lets pending promises (queries, async validation) run and React render their results. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

/**
 * Settles until `done()` holds or `timeoutMs` passes: for what waits on more than promises, such
 * as a lazily imported chunk, which can take seconds on a loaded machine. Under fake timers it
 * moves them on instead of waiting.
 */
export async function settleUntil(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done() && Date.now() < until) {
    await act(async () => {
      if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(20);
      else await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

export function input(root: ParentNode, id: string): HTMLInputElement {
  const el = root.querySelector<HTMLInputElement>(`#${id}`);
  if (!el) throw new Error(`no #${id}`);
  return el;
}

export function type(root: ParentNode, id: string, value: string): void {
  const el = input(root, id);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function blur(root: ParentNode, id: string): Promise<void> {
  act(() => {
    input(root, id).dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
  await settle();
  await nextFrame();
}

/**
 * Waits past one animation frame (jsdom has none; antd falls back to a 16 ms timer): a field
 * nested in a labelled item (noStyle) hands its message up to that item on the next frame.
 */
export async function nextFrame(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 40));
  });
  await settle();
}

/** The message under a field; '' when the field is valid (a cleared message fades out, the status changes at once). */
export function errorOf(root: ParentNode, id: string): string {
  const el = input(root, id);
  if (el.getAttribute('aria-invalid') !== 'true') return '';
  return el.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

export function byTestId<T extends HTMLElement = HTMLElement>(root: ParentNode, id: string): T | null {
  return root.querySelector<T>(`[data-testid="${id}"]`);
}
