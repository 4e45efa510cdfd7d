// An export of a list as Excel or CSV (or any other file download, such as a report's PDF): one at
// a time (the buttons are disabled meanwhile), the saved file's name confirmed on success; a
// failure was already shown by the HTTP client.
import { useState } from 'react';
import { App } from 'antd';
import type { ExportFormat } from './list-query.ts';

export function useExport<F extends string = ExportFormat>(run: (format: F) => Promise<string>, saidDone: (name: string) => string) {
  const { message } = App.useApp();
  const [exporting, setExporting] = useState<F | null>(null);
  const download = async (format: F) => {
    setExporting(format);
    try {
      const name = await run(format);
      void message.success(saidDone(name));
    } catch {
      // The HTTP client has already shown the server's reason.
    } finally {
      setExporting(null);
    }
  };
  return { exporting, download };
}
