// The application root: providers around the router.
import { RouterProvider } from 'react-router-dom';
import { Providers } from './providers.tsx';
import { router } from './router.tsx';
import { useRootFontSize } from './root-font-size.ts';

export function App() {
  useRootFontSize();
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
