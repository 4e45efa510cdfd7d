// Browser entry: language first (the page title and the first texts depend on it), then the app.
import { i18nReady } from './app/i18n.ts';
import 'antd/dist/reset.css';
import 'nprogress/nprogress.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
// The first texts come with the language's chunk: nothing is drawn before they are in.
void i18nReady.finally(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
