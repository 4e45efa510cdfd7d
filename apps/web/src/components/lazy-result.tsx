// antd's Result with its illustrations (403, 404: 10 KB gzip), fetched when one is shown: the
// forbidden and not-found pages are rare, and every console screen would carry them otherwise.
import { lazy, Suspense } from 'react';
import type { ResultProps } from 'antd';

const AntResult = lazy(() => import('antd/es/result'));

export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntResult {...props} />
    </Suspense>
  );
}
