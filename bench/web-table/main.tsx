// Benchmark page: the real DataTable in local mode (antd virtual list) with 50,000 generated
// rows inside the app's providers; see bench-data.ts for window.__firstRenderMs and the
// data-testid="bench-table" body. `?rows=N` changes the row count, `?lang=zh|en` the language.
import { i18nReady, loadAllMessages } from '../../apps/web/src/app/i18n.ts';
import 'antd/dist/reset.css';
import '../../apps/web/src/app/global.css';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { Providers } from '../../apps/web/src/app/providers.tsx';
import { DataTable } from '../../apps/web/src/components/data-table/data-table.tsx';
import { benchTable, DEFAULT_ROWS, makeRows, markFirstRender } from './bench-data.ts';

const params = new URLSearchParams(window.location.search);
const lang = params.get('lang');
if (lang === 'zh' || lang === 'en') void i18next.changeLanguage(lang);

const rows = makeRows(Number(params.get('rows')) > 0 ? Number(params.get('rows')) : DEFAULT_ROWS);
window.__rowCount = rows.length;

function Bench() {
  useEffect(markFirstRender, []);
  return (
    <div style={{ padding: 24 }}>
      <DataTable descriptor={benchTable} rows={rows} mode="local" scrollY={640} />
    </div>
  );
}

// The table's texts are the console's part of the messages: in before the first render, as the
// console frame has them.
void i18nReady.then(loadAllMessages).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <Bench />
      </Providers>
    </StrictMode>,
  ),
);
