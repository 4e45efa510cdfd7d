// Keyboard access to a table that scrolls (WCAG 2.1.1): antd's scrolling box of the table body
// takes no focus, so a keyboard user could not scroll a wide or tall table that holds no link or
// button. While a box can scroll it is a named region in the tab order (arrow keys then scroll
// it); once everything fits it is left out again. Looked at after every render and resize.
import { useEffect, useRef, type RefObject } from 'react';

const SCROLLERS = '.ant-table-content, .ant-table-body, .ant-table-tbody-virtual-holder';

function mark(root: HTMLElement, name: string): void {
  for (const box of root.querySelectorAll<HTMLElement>(SCROLLERS)) {
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (scrolls) {
      if (box.tabIndex !== 0) box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', name);
    } else if (box.hasAttribute('tabindex')) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}

/** A ref for the element around a table: its scrolling boxes become focusable regions named `name`. */
export function useScrollRegion<T extends HTMLElement>(name: string): RefObject<T | null> {
  const ref = useRef<T>(null);
  // After every render: rows, columns and pages change what scrolls.
  useEffect(() => {
    if (ref.current) mark(ref.current, name);
  });
  useEffect(() => {
    const root = ref.current;
    if (!root || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => mark(root, name));
    observer.observe(root);
    return () => observer.disconnect();
  }, [name]);
  return ref;
}
