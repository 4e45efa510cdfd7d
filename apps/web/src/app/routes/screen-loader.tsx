// Renders a lazily loaded screen: its code is fetched on first use (with the chunk time-out),
// kept for later visits, and a failure shows the chunk message with a retry.
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { importWithTimeout } from '../../lib/chunk.ts';
import type { ScreenImporter, ScreenProps } from '../../lib/screen.ts';
import { ScreenErrorBoundary } from '../../components/chunk-error.tsx';
import { PageSpin } from '../../components/page-spin.tsx';

type LazyScreen = LazyExoticComponent<ComponentType<ScreenProps>>;

// One lazy component per screen name, so revisiting a screen does not suspend again.
const screens = new Map<string, LazyScreen>();

function lazyScreen(name: string, importer: ScreenImporter): LazyScreen {
  let screen = screens.get(name);
  if (!screen) {
    screen = lazy(() => importWithTimeout(importer, name));
    screens.set(name, screen);
  }
  return screen;
}

interface ScreenLoaderProps extends ScreenProps {
  name: string;
  importer: ScreenImporter;
  fullPage?: boolean;
}

export function ScreenLoader({ name, importer, fullPage, ...props }: ScreenLoaderProps) {
  const [attempt, setAttempt] = useState(0);
  const Screen = lazyScreen(name, importer);
  const retry = () => {
    // A rejected lazy component stays rejected: drop it so the next render imports again.
    screens.delete(name);
    setAttempt((n) => n + 1);
  };
  return (
    <ScreenErrorBoundary key={`${name}#${attempt}`} onRetry={retry}>
      <Suspense fallback={<PageSpin fullPage={fullPage} />}>
        <Screen {...props} />
      </Suspense>
    </ScreenErrorBoundary>
  );
}
