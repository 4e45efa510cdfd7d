// antd's Result with its illustrations (403, 404: 10 KB gzip), fetched when one is shown: the
// forbidden and not-found pages are rare, and every console screen would carry them otherwise.
// The page's box (`className`, `data-testid`) comes with the Result, so what finds the page finds
// its texts too, never an empty box while the module is fetched.
import { lazy, Suspense } from 'react';
import type { ResultProps } from 'antd';

const AntResult = lazy(() => import('antd/es/result'));

interface LazyResultProps extends ResultProps {
  /** The box around the Result. */
  boxClassName?: string;
  'data-testid'?: string;
}

export function LazyResult({ boxClassName, 'data-testid': testId, ...props }: LazyResultProps) {
  return (
    <Suspense fallback={null}>
      <div className={boxClassName} data-testid={testId}>
        <AntResult {...props} />
      </div>
    </Suspense>
  );
}
