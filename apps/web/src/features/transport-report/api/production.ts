// GET /api/iot/v2/reports/production and /export: tasks per period, customer, route or vehicle
// with deliveries, on-time and alarm rates and their totals, for the production reports screen;
// the same table as Excel or CSV. Periods are cut in the time zone of the client's headers.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { REPORT_API, type ProductionReport } from '@iotc/shared/report';
import { request } from '../../../api/client.ts';
import { downloadFile, type ExportFormat } from '../../../lib/list-query.ts';
import type { ProductionRequest } from '../components/production-model.ts';

export const PRODUCTION_KEY = ['transportReport', 'production'] as const;

export function productionQueryOptions(query: ProductionRequest) {
  return queryOptions({
    queryKey: [...PRODUCTION_KEY, query] as const,
    // The screen shows a refusal (a range too long) beside the filters that caused it, so the
    // client's notification would only say it twice.
    queryFn: ({ signal }) => request<ProductionReport>(REPORT_API.production, { query: { ...query }, signal, silent: true }),
    // The cards, chart and table keep the last figures while new filters load.
    placeholderData: keepPreviousData,
  });
}

export function useProduction(query: ProductionRequest) {
  return useQuery(productionQueryOptions(query));
}

export function exportProduction(query: ProductionRequest, format: ExportFormat): Promise<string> {
  return downloadFile(`${REPORT_API.production}/export`, { ...query, format }, `production-report.${format}`);
}
