// Rendering React into jsdom for component tests: the browser APIs antd expects and jsdom lacks,
// the app's i18n in English, and a render helper that wraps every update in act().
import i18next from 'i18next';
import { i18nReady, loadAllMessages } from '../app/i18n.ts';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { settleUntil } from './form.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The app fetches a language's texts when it is first used, and the console's parts of them with
// the console frame and each screen; tests render any part of the console and switch back and
// forth at once: every part of both languages.
await i18nReady;
await i18next.loadLanguages(['en', 'zh']);
await loadAllMessages();

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom has no pseudo-element styles; antd's scrollbar measuring asks for them.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element) => computedStyle(elt);

export async function setEnglish(): Promise<void> {
  await i18next.changeLanguage('en');
}

export interface Rendered {
  container: HTMLElement;
  rerender: (ui: ReactNode) => void;
  unmount: () => void;
}

/** Renders `ui` into a fresh container attached to the document (portals and focus need it). */
export function render(ui: ReactNode): Rendered {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root: Root = createRoot(container);
  const wrap = (node: ReactNode) => <QueryClientProvider client={client}>{node}</QueryClientProvider>;
  act(() => root.render(wrap(ui)));
  return {
    container,
    rerender: (next) => act(() => root.render(wrap(next))),
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** Clicks an element inside act(). */
export function click(el: Element | null | undefined): void {
  if (!el) throw new Error('nothing to click');
  act(() => {
    (el as HTMLElement).click();
  });
}

/**
 * Turns on columns a table hides by default (they do not fit 1280 px), through its custom-columns
 * dialog as a user does, for tests that read them. The choice stays in the table's cookies.
 */
export function showColumns(root: ParentNode, values: string[]): void {
  click(root.querySelector('[data-testid="data-table"] [data-testid="column-settings-open"]'));
  const dialog = document.querySelector('[data-testid="column-settings"]')!;
  for (const value of values) {
    const toggle = dialog.querySelector(`[data-testid="column-switch-${value}"]`);
    if (!toggle) throw new Error(`no column ${value}`);
    if (toggle.getAttribute('aria-checked') !== 'true') click(toggle);
  }
  click(document.querySelector('[data-testid="column-settings-ok"]'));
}

/**
 * Waits until `count` Leaflet maps are on the page: a <MapView> makes its map once the screen
 * around it has been painted (components/map/map-view.tsx).
 */
export async function mapsMade(count = 1): Promise<void> {
  const made = () => document.querySelectorAll('.leaflet-map-pane').length;
  await settleUntil(() => made() >= count);
  if (made() < count) throw new Error(`${count} map(s) expected, ${made()} made`);
}
