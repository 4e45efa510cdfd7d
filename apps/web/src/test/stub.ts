// Properties replaced for one test file and put back after it: jsdom has no layout and no canvas,
// so map tests give elements a size (Leaflet reads clientWidth / clientHeight) and canvases a
// context. Call in beforeAll, and restoreStubs in afterAll.
const undo: (() => void)[] = [];

export function stubProperty(target: object, key: string, descriptor: PropertyDescriptor): void {
  const before = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { configurable: true, ...descriptor });
  undo.push(() => (before ? Object.defineProperty(target, key, before) : Reflect.deleteProperty(target, key)));
}

/** Every element reports this size (a map container needs one). */
export function stubElementSize(width: number, height: number): void {
  stubProperty(HTMLElement.prototype, 'clientWidth', { get: () => width });
  stubProperty(HTMLElement.prototype, 'clientHeight', { get: () => height });
}

/** Puts back what was stubbed, newest first. */
export function restoreStubs(): void {
  for (const u of undo.splice(0).reverse()) u();
}
