// A part of a screen that starts closed (a drawer, a dialog) and whose code is fetched the first
// time it opens, not with the screen: `when` says it is wanted. Once fetched it stays mounted, so
// it closes with its own animation and opens again at once.
import { lazy, Suspense, useState, type ComponentType } from 'react';

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P & { when: boolean }> {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  return function LazyPart({ when, ...props }: P & { when: boolean }) {
    const [wanted, setWanted] = useState(when);
    if (when && !wanted) setWanted(true);
    return wanted ? (
      <Suspense fallback={null}>
        <Part {...(props as P)} />
      </Suspense>
    ) : null;
  };
}
